/// Byte offsets of cube format version 1; docs/cube-format.md is the prose twin of this file.
enum CubeLayout {
  static let magic: [UInt8] = Array("NWPCUBE\0".utf8)
  static let version: UInt32 = 1
  static let fixedHeaderBytes = 256
  static let metricEntryBytes = 96
  /// Geometry and data blocks start on this boundary so that every block is aligned for
  /// its element type and for cache lines.
  static let blockAlignment = 64

  // Fixed header fields.
  static let versionOffset = 8
  static let headerBytesOffset = 12
  static let fileBytesOffset = 16
  static let widthOffset = 24
  static let heightOffset = 28
  static let stepsOffset = 32
  static let metricCountOffset = 36
  static let firstStepOffset = 40
  static let stepSecondsOffset = 48
  static let runStartOffset = 56
  static let gridSpacingOffset = 64
  static let projectionCodeOffset = 72
  static let projectionParametersOffset = 80
  static let geometryOffsetOffset = 144
  static let geometryBytesOffset = 152
  static let geometryChecksumOffset = 160
  static let headerChecksumOffset = 168
  static let modelOffset = 176
  static let modelBytes = 32
  static let domainOffset = 208
  static let domainBytes = 16

  // Metric table entry fields, relative to the entry.
  static let nameBytes = 24
  static let unitOffset = 24
  static let unitBytes = 16
  static let temporalOffset = 40
  static let sentinelOffset = 44
  static let scaleOffset = 48
  static let valueOffsetOffset = 56
  static let dataOffsetOffset = 64
  static let dataBytesOffset = 72
  static let dataChecksumOffset = 80

  static func aligned(_ offset: Int) -> Int {
    (offset + blockAlignment - 1) / blockAlignment * blockAlignment
  }

  /// Where each part of a cube with this shape goes.
  struct Plan {
    let headerBytes: Int
    let geometryOffset: Int
    let geometryBytes: Int
    let dataOffsets: [Int]
    let dataBytes: Int
    let fileBytes: Int

    init(cells: Int, steps: Int, metricCount: Int) {
      headerBytes = fixedHeaderBytes + metricCount * metricEntryBytes
      geometryOffset = aligned(headerBytes)
      geometryBytes = cells * 2 * MemoryLayout<Float>.size
      dataBytes = cells * steps * MemoryLayout<UInt16>.size
      var next = aligned(geometryOffset + geometryBytes)
      var offsets: [Int] = []
      for _ in 0..<metricCount {
        offsets.append(next)
        next = aligned(next + dataBytes)
      }
      dataOffsets = offsets
      let end = geometryOffset + geometryBytes
      fileBytes = offsets.last.map { $0 + cells * steps * MemoryLayout<UInt16>.size } ?? end
    }
  }
}

/// Little-endian field access on raw bytes; alignment is never assumed for header fields.
extension UnsafeRawPointer {
  func le<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
    T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }

  func leDouble(_ offset: Int) -> Double {
    Double(bitPattern: le(offset, as: UInt64.self))
  }

  func text(_ offset: Int, bytes: Int) -> String {
    let buffer = UnsafeRawBufferPointer(start: self + offset, count: bytes)
    return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
  }
}

extension UnsafeMutableRawPointer {
  func setLE<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
  }

  func setLE(_ value: Double, at offset: Int) {
    setLE(value.bitPattern, at: offset)
  }

  func setText(_ text: String, at offset: Int, bytes: Int) {
    let utf8 = Array(text.utf8.prefix(bytes - 1))
    for index in 0..<bytes {
      storeBytes(of: index < utf8.count ? utf8[index] : 0, toByteOffset: offset + index, as: UInt8.self)
    }
  }
}
