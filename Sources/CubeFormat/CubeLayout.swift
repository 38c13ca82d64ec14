/// Byte offsets of cube formats 1 and 2; docs/cube-format.md is the prose twin of this file.
/// The two versions share the header, the metric table, the geometry and the terrain
/// section; they differ in the data: version 1 stores 16-bit words, version 2 packs each
/// cell's series (`SeriesFrame`) behind a table of one entry per cell.
enum CubeLayout {
  static let magic: [UInt8] = Array("NWPCUBE\0".utf8)
  /// The version writers write.
  static let version: UInt32 = 2
  /// Version 1: 16-bit words, still read (stores hold v1 cubes during an upgrade).
  static let wordVersion: UInt32 = 1
  /// Every version this build reads.
  static let versions: ClosedRange<UInt32> = 1...3
  /// Version 2's entry per cell: u32 payload offset from the section's start, u16
  /// reference word, u8 bit width, u8 reserved (0).
  static let cellEntryBytes = 8
  /// Zero bytes after the last payload of a version 2 section, so that a code's 4-byte load
  /// never leaves the section.
  static let sectionPadding = 8
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
  static let stepCountOffset = 32
  static let metricCountOffset = 36
  static let firstTimeOffset = 40
  static let stepSecondsOffset = 48
  static let runStartOffset = 56
  static let gridSpacingOffset = 64
  static let projectionCodeOffset = 72
  /// u32 flags, reserved (0) in cubes written before the terrain section.
  static let flagsOffset = 76
  static let projectionParametersOffset = 80
  static let geometryOffsetOffset = 144
  static let geometryBytesOffset = 152
  static let geometryChecksumOffset = 160
  static let headerChecksumOffset = 168
  static let modelOffset = 176
  static let modelBytes = 32
  static let domainOffset = 208
  static let domainBytes = 16
  /// The terrain section's offset, bytes and XXH64, in what was reserved space.
  static let terrainOffsetOffset = 224
  static let terrainBytesOffset = 232
  static let terrainChecksumOffset = 240
  /// The positions section's XXH64, in what was reserved space (0 without the section).
  static let positionsChecksumOffset = 248

  /// Flag bit: the cube ends with a terrain section.
  static let terrainFlag: UInt32 = 1
  /// Flag bit: the cube ends with a positions section (a grid that moves).
  static let positionsFlag: UInt32 = 2
  /// Every flag bit this build knows.
  static let knownFlags: UInt32 = terrainFlag | positionsFlag
  /// Bytes of terrain per cell: an f32 height and a u8 land mask.
  static let terrainBytesPerCell = MemoryLayout<Float>.size + 1

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

  // The positions section: a u32 count and a u32 reserved, the step table, then each
  // position after the first.
  static let positionsPreambleBytes = 8

  /// `bytes` rounded up to a multiple of 8, so that every part of the positions section
  /// starts aligned for its f32s.
  static func padded8(_ bytes: Int) -> Int { (bytes + 7) / 8 * 8 }

  /// The step table's bytes: a u32 per step, padded.
  static func stepTableBytes(steps: Int) -> Int { padded8(steps * MemoryLayout<UInt32>.size) }

  /// One stored position's bytes: f32 latitudes and longitudes, then, with terrain, f32
  /// heights and u8 mask bytes, padded.
  static func positionBytes(cells: Int, terrain: Bool) -> Int {
    padded8(cells * 2 * MemoryLayout<Float>.size + (terrain ? cells * terrainBytesPerCell : 0))
  }

  /// The positions section's bytes for `positions` positions (the first is the geometry
  /// block, stored elsewhere). Within `CubeLimits` (cells < 2³¹, steps ≤ 10⁶, positions ≤
  /// 65 535) this is below 2 × 10¹⁵, far from overflowing an `Int`.
  static func positionsBytes(cells: Int, steps: Int, positions: Int, terrain: Bool) -> Int {
    positionsPreambleBytes + stepTableBytes(steps: steps) + (positions - 1)
      * positionBytes(cells: cells, terrain: terrain)
  }

  /// Where each part of a cube with this shape goes.
  ///
  /// `init` trusts its shape (a writer's, checked against `CubeLimits` first); a reader
  /// uses `checked`, which forms every size with overflow-reporting arithmetic.
  struct Plan {
    let headerBytes: Int
    let geometryOffset: Int
    let geometryBytes: Int
    let dataOffsets: [Int]
    /// The bytes of each metric's data: 2 × cells × steps each in version 1, its packed
    /// section in version 2.
    let dataBytes: [Int]
    /// Where the terrain section starts and its size; 0 and 0 without one.
    let terrainOffset: Int
    let terrainBytes: Int
    /// Where the positions section starts and its size; 0 and 0 for a grid that does not
    /// move (one position).
    let positionsOffset: Int
    let positionsBytes: Int
    let fileBytes: Int

    /// The version 1 plan: every block 2 × cells × steps bytes.
    init(cells: Int, steps: Int, metricCount: Int, terrain: Bool = false, positions: Int = 1) {
      self.init(
        cells: cells, dataBytes: Array(repeating: cells * steps * MemoryLayout<UInt16>.size, count: metricCount),
        terrain: terrain, steps: steps, positions: positions)
    }

    /// The plan of data blocks of the given sizes, each on the next multiple of 64 after
    /// the geometry or the block before (version 2's sections, or version 1's blocks),
    /// and, for more than one position, of the positions section over `steps` steps.
    init(cells: Int, dataBytes: [Int], terrain: Bool, steps: Int = 0, positions: Int = 1) {
      headerBytes = fixedHeaderBytes + dataBytes.count * metricEntryBytes
      geometryOffset = aligned(headerBytes)
      geometryBytes = cells * 2 * MemoryLayout<Float>.size
      self.dataBytes = dataBytes
      var next = aligned(geometryOffset + geometryBytes)
      var offsets: [Int] = []
      for bytes in dataBytes {
        offsets.append(next)
        next = aligned(next + bytes)
      }
      dataOffsets = offsets
      let end = geometryOffset + geometryBytes
      let dataEnd = offsets.last.map { $0 + dataBytes[dataBytes.count - 1] } ?? end
      // The terrain section comes after everything a version-1 cube holds, so that the
      // blocks before it are where they always were, byte for byte.
      terrainOffset = terrain ? aligned(dataEnd) : 0
      terrainBytes = terrain ? cells * terrainBytesPerCell : 0
      let sectionsEnd = terrain ? terrainOffset + terrainBytes : dataEnd
      // The positions section comes last for the same reason: a cube whose grid does not
      // move has none, and is byte for byte what it was before the section existed.
      positionsOffset = positions > 1 ? aligned(sectionsEnd) : 0
      positionsBytes =
        positions > 1
        ? CubeLayout.positionsBytes(cells: cells, steps: steps, positions: positions, terrain: terrain) : 0
      fileBytes = positions > 1 ? positionsOffset + positionsBytes : sectionsEnd
    }

    /// This plan with `positions` positions over `steps` steps (a reader learns the count
    /// from the section, after the plan without it has been checked).
    func with(positions: Int, steps: Int) -> Plan {
      Plan(
        cells: geometryBytes / (2 * MemoryLayout<Float>.size), dataBytes: dataBytes, terrain: terrainBytes > 0,
        steps: steps, positions: positions)
    }

    /// The plan of a shape, or nil when a size or offset in it does not fit in an `Int`.
    static func checked(cells: Int, steps: Int, metricCount: Int, terrain: Bool = false) -> Plan? {
      guard cells > 0, steps > 0, metricCount > 0 else { return nil }
      func product(_ a: Int, _ b: Int) -> Int? {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : value
      }
      func sum(_ a: Int, _ b: Int) -> Int? {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : value
      }
      // The largest offset `init` forms: the geometry's end and every data block but the
      // last, each rounded up to the alignment, then the last block's end.
      guard let headerBytes = product(metricCount, metricEntryBytes).flatMap({ sum($0, fixedHeaderBytes) }),
        let geometryBytes = product(cells, 2 * MemoryLayout<Float>.size),
        let dataBytes = product(cells, steps).flatMap({ product($0, MemoryLayout<UInt16>.size) }),
        let geometryEnd = sum(aligned(headerBytes), geometryBytes).flatMap({ sum($0, blockAlignment) }),
        let stride = sum(dataBytes, blockAlignment),
        let blocks = product(stride, metricCount - 1).flatMap({ sum($0, dataBytes) }),
        let dataEnd = sum(geometryEnd, blocks),
        let terrainBytes = product(cells, terrainBytesPerCell),
        sum(dataEnd, blockAlignment).flatMap({ sum($0, terrainBytes) }) != nil
      else { return nil }
      return Plan(cells: cells, steps: steps, metricCount: metricCount, terrain: terrain)
    }

    /// The version 2 plan of sections of the given sizes, nil when a size is outside what
    /// a section of this shape can take (its table and padding at least, every cell at 16
    /// bits at most) or an offset does not fit in an `Int`. Sizes are checked as stored
    /// (u64) before any arithmetic.
    static func checked(cells: Int, steps: Int, sectionBytes: [UInt64], terrain: Bool) -> Plan? {
      // The version 1 plan of this shape fits in an `Int` with room for an alignment per
      // block; a section is at most a version 1 block plus its table and padding, so the
      // same check with those added bounds every offset the version 2 plan forms.
      guard let words = checked(cells: cells, steps: steps, metricCount: sectionBytes.count, terrain: terrain)
      else { return nil }
      let (table, tableOverflow) = cells.multipliedReportingOverflow(by: cellEntryBytes)
      let extra = table.addingReportingOverflow(sectionPadding + blockAlignment)
      let (added, addedOverflow) = extra.partialValue.multipliedReportingOverflow(by: sectionBytes.count)
      let (_, endOverflow) = words.fileBytes.addingReportingOverflow(added)
      guard !tableOverflow, !extra.overflow, !addedOverflow, !endOverflow else { return nil }
      let smallest = UInt64(table + sectionPadding)
      let largest = UInt64(words.dataBytes[0]) + UInt64(table + sectionPadding)
      guard sectionBytes.allSatisfy({ $0 >= smallest && $0 <= largest }) else { return nil }
      return Plan(cells: cells, dataBytes: sectionBytes.map { Int($0) }, terrain: terrain)
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

  /// The NUL-terminated UTF-8 text of a field `bytes` wide; nil when the field has no NUL
  /// or its text is not valid UTF-8 (a reader refuses both rather than guessing).
  func text(_ offset: Int, bytes: Int) -> String? {
    let buffer = UnsafeRawBufferPointer(start: self + offset, count: bytes)
    guard let end = buffer.firstIndex(of: 0) else { return nil }
    return String(validating: buffer[..<end], as: UTF8.self)
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
