extension CubeFile {
  /// A version 3 cube's layout against the file, with no work per cell or per byte of data:
  /// the record's fields, the checksum table's own XXH64, the band index (its blocks
  /// verified, then every entry: in order, each on the next multiple of 64 after the one
  /// before, within a version 2 section's bounds for its band's cells), the terrain,
  /// positions and locator index sections' places, and the metric table. The data,
  /// coordinates and terrain are verified block by block when first read (`ChecksumBlocks`),
  /// or all at once with `ChecksumScope.all`.
  ///
  /// Every stored field is compared in its stored width, and every offset is checked to lie
  /// inside the file before it takes part in arithmetic, as versions 1 and 2 are.
  static func validateVersion3(
    base: UnsafeRawPointer, size: Int, verify: ChecksumScope, headerOnly: Bool, metricCount: Int, headerBytes: Int,
    terrain: Bool, positions: Bool, fail: (String) -> CubeError
  ) throws(CubeError) -> Validated {
    typealias V3 = CubeLayout.Version3
    let record = CubeLayout.fixedHeaderBytes + metricCount * CubeLayout.metricEntryBytes
    func field<T: FixedWidthInteger>(_ offset: Int, _ type: T.Type) -> T { base.le(record + offset, as: T.self) }
    let (width, height, steps) = try shape(base: base, fail: fail)
    let cells = width * height
    let fileSize = UInt64(size)

    // The sections the checksum table covers carry no checksum of their own.
    for (offset, name) in [
      (CubeLayout.geometryChecksumOffset, "geometry"), (CubeLayout.terrainChecksumOffset, "terrain"),
      (CubeLayout.positionsChecksumOffset, "positions"),
    ] where base.le(offset, as: UInt64.self) != 0 {
      throw fail("corrupted: \(name) checksum field is not 0, as version 3 (which checksums blocks) requires")
    }
    let geometryOffset = CubeLayout.aligned(headerBytes)
    let storedGeometryOffset = base.le(CubeLayout.geometryOffsetOffset, as: UInt64.self)
    guard storedGeometryOffset == UInt64(geometryOffset) else {
      throw fail(
        "corrupted: geometry offset \(storedGeometryOffset) is not \(geometryOffset), where a version 3 cube of \(metricCount) metrics has it"
      )
    }
    let geometryBytes = cells * 2 * MemoryLayout<Float>.size
    let storedGeometryBytes = base.le(CubeLayout.geometryBytesOffset, as: UInt64.self)
    guard storedGeometryBytes == UInt64(geometryBytes) else {
      throw fail(
        "corrupted: geometry bytes \(storedGeometryBytes) is not \(geometryBytes), the size of a \(width)×\(height) grid"
      )
    }

    let storedBandCells = field(V3.bandCellsOffset, UInt32.self)
    guard storedBandCells != 0, storedBandCells & (storedBandCells - 1) == 0 else {
      throw fail("corrupted: band cells \(storedBandCells) is not a power of two")
    }
    let bandCells = Int(storedBandCells)
    let bandCount = (cells + bandCells - 1) / bandCells
    let storedBandCount = field(V3.bandCountOffset, UInt32.self)
    guard storedBandCount == UInt32(truncatingIfNeeded: bandCount), bandCount <= V3.maxBands else {
      throw fail(
        "corrupted: band count \(storedBandCount) is not \(bandCount), the bands of \(bandCells) cells that \(cells) cells make, or more than \(V3.maxBands)"
      )
    }
    let blockBytes = field(V3.checksumBlockBytesOffset, UInt32.self)
    guard blockBytes == UInt32(V3.checksumBlockBytes) else {
      throw fail("corrupted: checksum block bytes \(blockBytes) is not \(V3.checksumBlockBytes)")
    }
    let geometryFlags = field(V3.geometryFlagsOffset, UInt32.self)
    guard geometryFlags & ~V3.knownGeometryFlags == 0 else {
      throw fail(
        "corrupted: geometry flags 0x\(String(geometryFlags, radix: 16)) set bits this build does not know (it knows 0x\(String(V3.knownGeometryFlags, radix: 16)))"
      )
    }
    if field(V3.reservedOffset, UInt32.self) != 0 {
      throw fail(
        "corrupted: version 3 record bytes \(V3.reservedOffset)..<\(V3.reservedOffset + 4) are reserved and not 0")
    }
    for offset in stride(from: V3.reservedOffset + 4, to: V3.recordBytes, by: 8)
    where field(offset, UInt64.self) != 0 {
      throw fail("corrupted: version 3 record bytes \(offset)..<\(offset + 8) are reserved and not 0")
    }

    // The checksum table ends the file; the band index ends right before it.
    let tableOffset = field(V3.checksumTableOffsetOffset, UInt64.self)
    let tableBytes = field(V3.checksumTableBytesOffset, UInt64.self)
    let dataStart = CubeLayout.aligned(geometryOffset + geometryBytes)
    guard tableOffset > UInt64(dataStart), tableOffset < fileSize, tableOffset % 64 == 0 else {
      throw fail(
        "corrupted: checksum table offset \(tableOffset) is not a multiple of 64 after the geometry and inside the file's \(size) bytes"
      )
    }
    let covered = Int(tableOffset) - geometryOffset
    let blockCount = (covered + V3.checksumBlockBytes - 1) / V3.checksumBlockBytes
    guard tableBytes == UInt64(blockCount * 8), tableOffset + tableBytes == fileSize else {
      throw fail(
        "corrupted: checksum table of \(tableBytes) bytes at \(tableOffset) is not the \(blockCount * 8) bytes (\(blockCount) blocks of the \(covered) bytes from the geometry) that end the file's \(size) bytes"
      )
    }
    let indexOffset = field(V3.bandIndexOffsetOffset, UInt64.self)
    let indexBytes = field(V3.bandIndexBytesOffset, UInt64.self)
    // At most 65 536 bands of 256 metrics, so the product is exact.
    let entries = bandCount * metricCount
    guard indexBytes == UInt64(entries * V3.bandIndexEntryBytes) else {
      throw fail(
        "corrupted: band index bytes \(indexBytes) is not \(entries * V3.bandIndexEntryBytes), 16 for each of \(bandCount) bands × \(metricCount) metrics"
      )
    }
    guard indexOffset % 64 == 0, indexOffset >= UInt64(dataStart), indexBytes <= tableOffset,
      indexOffset <= tableOffset - indexBytes,
      CubeLayout.aligned(Int(indexOffset + indexBytes)) == Int(tableOffset)
    else {
      throw fail(
        "corrupted: band index offset \(indexOffset) is not a multiple of 64 after the geometry whose \(indexBytes) bytes end on the last multiple of 64 before the checksum table (at \(tableOffset))"
      )
    }
    let locatorOffset = field(V3.locatorIndexOffsetOffset, UInt64.self)
    let locatorBytes = field(V3.locatorIndexBytesOffset, UInt64.self)
    let hasLocator = geometryFlags & V3.locatorIndexFlag != 0
    if hasLocator {
      guard locatorBytes > 0, locatorOffset % 64 == 0, locatorOffset >= UInt64(dataStart), locatorOffset < indexOffset,
        locatorBytes <= indexOffset - locatorOffset,
        CubeLayout.aligned(Int(locatorOffset + locatorBytes)) == Int(indexOffset)
      else {
        throw fail(
          "corrupted: locator index of \(locatorBytes) bytes at \(locatorOffset) does not end on the last multiple of 64 before the band index (at \(indexOffset))"
        )
      }
    } else if locatorOffset != 0 || locatorBytes != 0 {
      throw fail(
        "corrupted: locator index offset \(locatorOffset) and bytes \(locatorBytes) are not 0, though geometry flag bit 1 (a locator index) is clear"
      )
    }
    let terrainBytes = terrain ? cells * CubeLayout.terrainBytesPerCell : 0
    let storedTerrainBytes = base.le(CubeLayout.terrainBytesOffset, as: UInt64.self)
    guard storedTerrainBytes == UInt64(terrainBytes) else {
      throw fail(
        "corrupted: terrain bytes \(storedTerrainBytes) is not \(terrainBytes), \(terrain ? "5 bytes for each of \(cells) cells" : "as a cube without a terrain section (flag bit 0) has")"
      )
    }

    var metrics: [CubeMetric] = []
    for index in 0..<metricCount {
      metrics.append(try metric(base: base, index: index, fail: fail))
      let entry = CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes
      let label = "metric \(index) (\(CubeLimits.printable(metrics[index].name)))"
      for (offset, name) in [
        (CubeLayout.dataOffsetOffset, "data offset"), (CubeLayout.dataChecksumOffset, "data checksum"),
      ]
      where base.le(entry + offset, as: UInt64.self) != 0 {
        throw fail(
          "corrupted: \(label) \(name) is not 0, as version 3 (whose data is found by the band index) requires")
      }
    }
    var header = try header(base: base, width: width, height: height, steps: steps, metrics: metrics, fail: fail)
    // Any value is read: a later build may record conventions this one does not know,
    // which it then explains in WRF's names, as it does a cube without the field.
    header.inputConvention = field(V3.inputConventionOffset, UInt32.self)
    let bandIndex = Int(indexOffset)..<Int(indexOffset + indexBytes)
    let locatorIndex = hasLocator ? Int(locatorOffset)..<Int(locatorOffset + locatorBytes) : nil
    guard !headerOnly else {
      return Validated(
        header: header, geometryOffset: geometryOffset, version: 3, data: [], dataBytes: [], terrainOffset: nil,
        positionsOffset: nil, positionCount: 1, stepPositions: nil)
    }

    let tableStart = base + Int(tableOffset)
    guard
      XXH64.hash(UnsafeRawBufferPointer(start: tableStart, count: Int(tableBytes)))
        == field(
          V3.checksumTableChecksumOffset, UInt64.self)
    else {
      throw fail("corrupted: checksum table checksum mismatch")
    }
    // The band index says where every sub-section is: its blocks' hashes are checked
    // before any entry is believed (by blocks that know no sections yet, so that nothing is
    // marked verified before the cell entries those blocks may hold are checked too).
    func verifyOrFail(_ bytes: Range<Int>, in blocks: ChecksumBlocks) throws(CubeError) {
      for block in blocks.blocks(overlapping: bytes) {
        if let problem = blocks.verify(block) { throw fail("corrupted: \(problem)") }
      }
    }
    try verifyOrFail(
      bandIndex,
      in: ChecksumBlocks(
        base: base, start: geometryOffset, end: Int(tableOffset), table: tableStart, sections: [], steps: steps,
        metrics: metricCount))
    let sections = try bandSections(
      base: base, index: bandIndex, bands: bandCount, bandCells: bandCells, cells: cells, metricCount: metricCount,
      steps: steps, dataStart: dataStart, fail: fail)
    let blocks = ChecksumBlocks(
      base: base, start: geometryOffset, end: Int(tableOffset), table: tableStart, sections: sections, steps: steps,
      metrics: metricCount)
    func verifyOrFail(_ bytes: Range<Int>) throws(CubeError) { try verifyOrFail(bytes, in: blocks) }
    try verifyOrFail(bandIndex)

    // After the data: terrain, positions and the locator index, each on the next multiple
    // of 64, then the band index. Every end below is inside the file: the sub-sections end
    // before the band index, and each later section is checked against the next.
    let last = sections[sections.count - 1]
    var end = last.offset + last.bytes
    var terrainOffset: Int?
    if terrain {
      let offset = CubeLayout.aligned(end)
      let stored = base.le(CubeLayout.terrainOffsetOffset, as: UInt64.self)
      guard stored == UInt64(offset), offset + terrainBytes <= Int(indexOffset) else {
        throw fail(
          "corrupted: terrain offset \(stored) is not \(offset), where the terrain section starts after the data, before the band index"
        )
      }
      terrainOffset = offset
      end = offset + terrainBytes
    } else if base.le(CubeLayout.terrainOffsetOffset, as: UInt64.self) != 0 {
      throw fail("corrupted: terrain offset is not 0, though flag bit 0 (a terrain section) is clear")
    }
    var positionsOffset: Int?
    var positionCount = 1
    var stepPositions: [Int]?
    if positions {
      let start = CubeLayout.aligned(end)
      let stepTable = CubeLayout.positionsPreambleBytes + CubeLayout.stepTableBytes(steps: steps)
      guard start + stepTable <= Int(indexOffset) else {
        throw fail("corrupted: positions section at \(start) has no room for its step table before the band index")
      }
      try verifyOrFail(start..<(start + stepTable))
      let storedCount = base.le(start, as: UInt32.self)
      guard storedCount >= 2, storedCount <= UInt32(CubeLimits.positions.upperBound), Int(storedCount) <= steps else {
        throw fail(
          "corrupted: position count \(storedCount) is not in 2…\(min(CubeLimits.positions.upperBound, steps)), as a positions section (flag bit 1) of \(steps) steps requires"
        )
      }
      let count = Int(storedCount)
      let bytes = CubeLayout.positionsBytes(cells: cells, steps: steps, positions: count, terrain: terrain)
      guard start + bytes <= Int(indexOffset) else {
        throw fail(
          "corrupted: positions section of \(count) positions (\(bytes) bytes at \(start)) runs past the band index at \(indexOffset)"
        )
      }
      let table = base + start + CubeLayout.positionsPreambleBytes
      let stored = (0..<steps).map { Int(table.le($0 * MemoryLayout<UInt32>.size, as: UInt32.self)) }
      if let problem = CubeLimits.stepPositionsProblem(stored, positionCount: count) {
        throw fail("corrupted: \(problem)")
      }
      positionsOffset = start
      positionCount = count
      stepPositions = stored
      end = start + bytes
    }
    let next = locatorIndex?.lowerBound ?? Int(indexOffset)
    guard CubeLayout.aligned(end) == next else {
      let what = locatorIndex == nil ? "band index" : "locator index"
      throw fail(
        "corrupted: \(what) offset \(next) is not \(CubeLayout.aligned(end)), where it starts after the sections before it"
      )
    }
    if let locatorIndex, locatorIndex.upperBound > Int(indexOffset) {
      throw fail("corrupted: locator index runs past the band index")
    }

    // Each metric's data bytes is the sum of its sub-sections', for `info`.
    var dataBytes = [Int](repeating: 0, count: metricCount)
    for (index, section) in sections.enumerated() { dataBytes[index % metricCount] += section.bytes }
    for (index, bytes) in dataBytes.enumerated() {
      let stored = base.le(
        CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes + CubeLayout.dataBytesOffset, as: UInt64.self)
      guard stored == UInt64(bytes) else {
        throw fail(
          "corrupted: metric \(index) (\(CubeLimits.printable(metrics[index].name))) data bytes \(stored) is not \(bytes), the sum of its sub-sections"
        )
      }
    }
    if verify == .all {
      for block in 0..<blocks.count {
        if let problem = blocks.verify(block) { throw fail("corrupted: \(problem)") }
      }
      // Every table whole, as version 2 checks its sections: the chain of payloads across
      // the blocks as well as inside each.
      for (index, section) in sections.enumerated() {
        try checkSection(
          base + section.offset, bytes: section.bytes, cells: section.cells, steps: steps,
          fail: { fail("corrupted: band \(index / metricCount), metric \(index % metricCount): \($0)") })
      }
    }
    var validated = Validated(
      header: header, geometryOffset: geometryOffset, version: 3, data: sections.map { base + $0.offset },
      dataBytes: dataBytes, terrainOffset: terrainOffset, positionsOffset: positionsOffset,
      positionCount: positionCount, stepPositions: stepPositions)
    validated.bands = Bands(
      cells: bandCells, count: bandCount, geometryFlags: geometryFlags, locatorIndex: locatorIndex,
      checksumTable: Int(tableOffset)..<size, bandIndex: bandIndex, blocks: blocks)
    validated.sectionBytes = sections.map(\.bytes)
    return validated
  }

  /// The shape's fields against `CubeLimits`.
  private static func shape(
    base: UnsafeRawPointer, fail: (String) -> CubeError
  ) throws(CubeError) -> (width: Int, height: Int, steps: Int) {
    let width = Int(base.le(CubeLayout.widthOffset, as: UInt32.self))
    let height = Int(base.le(CubeLayout.heightOffset, as: UInt32.self))
    let steps = Int(base.le(CubeLayout.stepCountOffset, as: UInt32.self))
    if let problem = CubeLimits.shapeProblem(width: width, height: height, stepCount: steps) {
      throw fail("corrupted: \(problem)")
    }
    return (width, height, steps)
  }

  /// Every sub-section the band index lists, in file order: the first right after the
  /// geometry, each on the next multiple of 64 after the one before, each the size a
  /// version 2 section of its band's cells can have, the last ending before the index.
  private static func bandSections(
    base: UnsafeRawPointer, index: Range<Int>, bands: Int, bandCells: Int, cells: Int, metricCount: Int, steps: Int,
    dataStart: Int, fail: (String) -> CubeError
  ) throws(CubeError) -> [ChecksumBlocks.Section] {
    var sections: [ChecksumBlocks.Section] = []
    sections.reserveCapacity(bands * metricCount)
    var next = UInt64(dataStart)
    for band in 0..<bands {
      let bandCellCount = min(bandCells, cells - band * bandCells)
      // A version 2 section's bounds: its table and padding, and at most 16 bits a step.
      let smallest = UInt64(bandCellCount * CubeLayout.cellEntryBytes + CubeLayout.sectionPadding)
      let largest = smallest + UInt64(bandCellCount) * UInt64(steps) * 2
      for metric in 0..<metricCount {
        let entry = index.lowerBound + (band * metricCount + metric) * CubeLayout.Version3.bandIndexEntryBytes
        let offset = base.le(entry, as: UInt64.self)
        let bytes = base.le(entry + 8, as: UInt64.self)
        let label = "band index entry (band \(band), metric \(metric))"
        guard offset == next else {
          throw fail(
            "corrupted: \(label) offset \(offset) is not \(next), the next multiple of 64 after the sub-section before it"
          )
        }
        guard bytes >= smallest, bytes <= largest else {
          throw fail(
            "corrupted: \(label) bytes \(bytes) is not in \(smallest)…\(largest), what a sub-section of \(bandCellCount) cells over \(steps) steps takes"
          )
        }
        // Both are below the index's offset here, so the sum is exact.
        guard offset + bytes <= UInt64(index.lowerBound) else {
          throw fail("corrupted: \(label) sub-section of \(bytes) bytes at \(offset) runs past the band index")
        }
        sections.append(ChecksumBlocks.Section(offset: Int(offset), bytes: Int(bytes), cells: bandCellCount))
        next = UInt64(CubeLayout.aligned(Int(offset + bytes)))
      }
    }
    return sections
  }
}
