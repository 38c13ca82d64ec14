import CubeFormat

/// A version 3 cube made from a version 2 cube's bytes by the reader tests' own encoder
/// (docs/cube-format.md, *Version 3*), in bands of any size and with any record flags: the
/// reader under test is checked against bytes it did not write, its tests know where each
/// part of the file is, and the fuzz targets get version 3 seeds. Each cell's payload is
/// copied from its version 2 section into its band's sub-section; the checksum table is
/// computed here (XXH64 is the published algorithm, tested on its own).
public struct BandedCube: Sendable {
  /// The bytes and where each part went, for tests that damage one part.
  public let bytes: [UInt8]
  public let geometryOffset: Int
  public let geometryBytes: Int
  /// Each sub-section's offset and bytes, band-major.
  public let sections: [Section]

  /// Where a sub-section is.
  public struct Section: Sendable {
    public let offset: Int
    public let bytes: Int
  }
  public let terrainOffset: Int?
  public let positionsOffset: Int?
  public let locatorIndexOffset: Int?
  public let bandIndexOffset: Int
  public let checksumTableOffset: Int
  public let bandCells: Int
  public let bandCount: Int
  public let record: Int

  /// The bytes each checksum covers.
  public static let blockBytes = 65_536

  /// The version 3 form of the version 2 cube `v2` with bands of `bandCells` cells (a
  /// power of two), the record's geometry flags and an optional locator index section.
  public init(v2: [UInt8], bandCells: Int, projectionChecked: Bool = false, locatorIndex: [UInt8]? = nil) {
    func aligned(_ offset: Int) -> Int { (offset + 63) / 64 * 64 }
    let metricCount = Int(v2.le(36, as: UInt32.self))
    let cells = Int(v2.le(24, as: UInt32.self)) * Int(v2.le(28, as: UInt32.self))
    let steps = Int(v2.le(32, as: UInt32.self))
    let flags = v2.le(76, as: UInt32.self)
    let oldGeometry = Int(v2.le(144, as: UInt64.self))
    let record = 256 + 96 * metricCount
    let headerBytes = record + 128
    var out = [UInt8](repeating: 0, count: headerBytes)
    out.set(Array(v2[0..<record]), at: 0)
    out.set(littleEndian(3, count: 4), at: 8)
    out.set(littleEndian(UInt64(headerBytes), count: 4), at: 12)
    for field in [160, 240, 248] { out.set(littleEndian(0, count: 8), at: field) }

    let geometryOffset = aligned(headerBytes)
    let geometryBytes = cells * 8
    func pad(to offset: Int) { out += [UInt8](repeating: 0, count: offset - out.count) }
    pad(to: geometryOffset)
    out += v2[oldGeometry..<(oldGeometry + geometryBytes)]

    let bandCount = (cells + bandCells - 1) / bandCells
    var sections: [Section] = []
    var metricBytes = [Int](repeating: 0, count: metricCount)
    for band in 0..<bandCount {
      let first = band * bandCells
      let count = min(bandCells, cells - first)
      for metric in 0..<metricCount {
        let section = Int(v2.le(256 + 96 * metric + 64, as: UInt64.self))
        var table: [UInt8] = []
        var payloads: [UInt8] = []
        for cell in first..<(first + count) {
          let entry = v2.le(section + 8 * cell, as: UInt64.self)
          let offset = Int(entry & 0xFFFF_FFFF)
          let width = Int((entry >> 48) & 0xFF)
          let length = (steps * width + 7) / 8
          let moved = UInt64(8 * count + payloads.count) | (entry & 0xFFFF_FFFF_0000_0000)
          table += littleEndian(moved, count: 8)
          payloads += v2[(section + offset)..<(section + offset + length)]
        }
        pad(to: aligned(out.count))
        let bytes = table.count + payloads.count + 8
        sections.append(Section(offset: out.count, bytes: bytes))
        metricBytes[metric] += bytes
        out += table + payloads + [UInt8](repeating: 0, count: 8)
      }
    }
    var terrainOffset: Int?
    if flags & 1 != 0 {
      let old = Int(v2.le(224, as: UInt64.self))
      pad(to: aligned(out.count))
      terrainOffset = out.count
      out += v2[old..<(old + 5 * cells)]
    }
    var positionsOffset: Int?
    if flags & 2 != 0 {
      // Version 2's positions section runs from the next multiple of 64 after the sections
      // before it to the end of the file.
      let lastData = Int(v2.le(256 + 96 * (metricCount - 1) + 64, as: UInt64.self))
      let lastBytes = Int(v2.le(256 + 96 * (metricCount - 1) + 72, as: UInt64.self))
      var end = lastData + lastBytes
      if flags & 1 != 0 { end = Int(v2.le(224, as: UInt64.self)) + 5 * cells }
      let old = aligned(end)
      pad(to: aligned(out.count))
      positionsOffset = out.count
      out += v2[old..<v2.count]
    }
    var locatorIndexOffset: Int?
    if let locatorIndex {
      pad(to: aligned(out.count))
      locatorIndexOffset = out.count
      out += locatorIndex
    }
    pad(to: aligned(out.count))
    let bandIndexOffset = out.count
    for section in sections {
      out += littleEndian(UInt64(section.offset), count: 8) + littleEndian(UInt64(section.bytes), count: 8)
    }
    pad(to: aligned(out.count))
    let tableOffset = out.count
    var table: [UInt8] = []
    var start = geometryOffset
    while start < tableOffset {
      let end = min(start + Self.blockBytes, tableOffset)
      table += littleEndian(XXH64.hash(Array(out[start..<end])), count: 8)
      start = end
    }
    out += table

    for (metric, bytes) in metricBytes.enumerated() {
      out.set(littleEndian(0, count: 8), at: 256 + 96 * metric + 64)
      out.set(littleEndian(UInt64(bytes), count: 8), at: 256 + 96 * metric + 72)
      out.set(littleEndian(0, count: 8), at: 256 + 96 * metric + 80)
    }
    out.set(littleEndian(UInt64(out.count), count: 8), at: 16)
    out.set(littleEndian(UInt64(geometryOffset), count: 8), at: 144)
    out.set(littleEndian(UInt64(terrainOffset ?? 0), count: 8), at: 224)
    out.set(littleEndian(UInt64(flags & 1 != 0 ? 5 * cells : 0), count: 8), at: 232)
    out.set(littleEndian(UInt64(bandCells), count: 4), at: record)
    out.set(littleEndian(UInt64(bandCount), count: 4), at: record + 4)
    out.set(littleEndian(UInt64(bandIndexOffset), count: 8), at: record + 8)
    out.set(littleEndian(UInt64(16 * sections.count), count: 8), at: record + 16)
    out.set(littleEndian(UInt64(tableOffset), count: 8), at: record + 24)
    out.set(littleEndian(UInt64(table.count), count: 8), at: record + 32)
    out.set(littleEndian(XXH64.hash(table), count: 8), at: record + 40)
    out.set(littleEndian(UInt64(Self.blockBytes), count: 4), at: record + 48)
    let geometryFlags = (projectionChecked ? 1 : 0) | (locatorIndex == nil ? 0 : 2)
    out.set(littleEndian(UInt64(geometryFlags), count: 4), at: record + 52)
    out.set(littleEndian(UInt64(locatorIndexOffset ?? 0), count: 8), at: record + 56)
    out.set(littleEndian(UInt64(locatorIndex?.count ?? 0), count: 8), at: record + 64)
    out.set(littleEndian(0, count: 8), at: 168)
    out.set(littleEndian(XXH64.hash(Array(out[0..<headerBytes])), count: 8), at: 168)

    bytes = out
    self.geometryOffset = geometryOffset
    self.geometryBytes = geometryBytes
    self.sections = sections
    self.terrainOffset = terrainOffset
    self.positionsOffset = positionsOffset
    self.locatorIndexOffset = locatorIndexOffset
    self.bandIndexOffset = bandIndexOffset
    checksumTableOffset = tableOffset
    self.bandCells = bandCells
    self.bandCount = bandCount
    self.record = record
  }

  /// The checksum block holding file offset `offset`, and its byte range.
  public func block(holding offset: Int) -> (index: Int, range: Range<Int>) {
    let index = (offset - geometryOffset) / Self.blockBytes
    let start = geometryOffset + index * Self.blockBytes
    return (index, start..<min(start + Self.blockBytes, checksumTableOffset))
  }

  /// The reason (after "path: ") a reader gives for the block holding `offset` when its
  /// bytes do not match their checksum.
  public func mismatch(holding offset: Int) -> String {
    let (index, range) = block(holding: offset)
    return
      "corrupted: checksum block \(index) (bytes \(range.lowerBound)..<\(range.upperBound)) does not match the checksum table"
  }
}

/// Little-endian reads and writes on bytes, for the encoder alone.
extension [UInt8] {
  fileprivate func le<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
    var bits: UInt64 = 0
    for k in 0..<MemoryLayout<T>.size { bits |= UInt64(self[offset + k]) << (8 * k) }
    return T(truncatingIfNeeded: bits)
  }

  fileprivate mutating func set(_ bytes: [UInt8], at offset: Int) {
    for (k, byte) in bytes.enumerated() { self[offset + k] = byte }
  }
}

/// Little-endian bytes of the low `count` bytes of `bits`.
private func littleEndian(_ bits: UInt64, count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
}
