extension CubeFile {
  /// Recomputes every checksum of a cube held in memory: each data block's, the
  /// geometry's, the terrain section's (when its size is not 0), the positions section's
  /// (when flag bit 1 is set: from the next multiple of 64 after the last data block or
  /// the terrain section to the end), then the header's, each over the region the
  /// (possibly altered) header names. Regions that fall outside `bytes` are left alone, so any input is safe.
  ///
  /// This exists for robustness testing and fuzzing: a cube mutated and then resealed gets
  /// past the checksums, so that what a reader does with impossible but self-consistent
  /// fields is what gets tested. No reader or writer of real cubes calls it.
  ///
  /// With `blocks` false only the header's checksum is recomputed: a test that altered a
  /// block checksum field on purpose gets a consistent header around it.
  ///
  /// A version 3 cube's checksum table is recomputed instead (each block from the geometry
  /// offset the header names up to the table's offset the record names, as far as the
  /// table reaches), then the table's own checksum in the record.
  package static func reseal(_ bytes: inout [UInt8], blocks: Bool = true) {
    guard bytes.count >= CubeLayout.fixedHeaderBytes else { return }
    if bytes.withUnsafeBytes({ $0.baseAddress?.le(CubeLayout.versionOffset, as: UInt32.self) })
      == CubeLayout.bandVersion
    {
      if blocks { resealBlocks(&bytes) }
      sealHeader(&bytes)
      return
    }
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      let reader = UnsafeRawPointer(base)
      let size = buffer.count
      /// The bytes `offset..<offset + count` when they lie inside the buffer.
      func region(_ offset: UInt64, _ count: UInt64) -> UnsafeRawBufferPointer? {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= UInt64(size) else { return nil }
        return UnsafeRawBufferPointer(start: reader + Int(offset), count: Int(count))
      }
      let metricCount = UInt64(reader.le(CubeLayout.metricCountOffset, as: UInt32.self))
      // Where the last data block ends, for the positions section after it.
      var dataEnd: UInt64?
      for index in 0..<(blocks ? min(metricCount, UInt64(CubeLimits.metrics.upperBound)) : 0) {
        let entry = CubeLayout.fixedHeaderBytes + Int(index) * CubeLayout.metricEntryBytes
        guard entry + CubeLayout.metricEntryBytes <= size else { break }
        let offset = reader.le(entry + CubeLayout.dataOffsetOffset, as: UInt64.self)
        let count = reader.le(entry + CubeLayout.dataBytesOffset, as: UInt64.self)
        if let block = region(offset, count) {
          base.setLE(XXH64.hash(block), at: entry + CubeLayout.dataChecksumOffset)
          dataEnd = offset + count
        } else {
          dataEnd = nil
        }
      }
      let geometryOffset = reader.le(CubeLayout.geometryOffsetOffset, as: UInt64.self)
      let geometryBytes = reader.le(CubeLayout.geometryBytesOffset, as: UInt64.self)
      if blocks, let geometry = region(geometryOffset, geometryBytes) {
        base.setLE(XXH64.hash(geometry), at: CubeLayout.geometryChecksumOffset)
      }
      let terrainOffset = reader.le(CubeLayout.terrainOffsetOffset, as: UInt64.self)
      let terrainBytes = reader.le(CubeLayout.terrainBytesOffset, as: UInt64.self)
      let flags = reader.le(CubeLayout.flagsOffset, as: UInt32.self)
      var sectionsEnd = dataEnd
      if flags & CubeLayout.terrainFlag != 0 {
        sectionsEnd = region(terrainOffset, terrainBytes).map { _ in terrainOffset + terrainBytes }
      }
      if blocks, terrainBytes > 0, let terrain = region(terrainOffset, terrainBytes) {
        base.setLE(XXH64.hash(terrain), at: CubeLayout.terrainChecksumOffset)
      }
      // Every end is inside the buffer here, so rounding it up cannot overflow.
      if blocks, flags & CubeLayout.positionsFlag != 0, let sectionsEnd {
        let start = UInt64(CubeLayout.aligned(Int(sectionsEnd)))
        if start <= UInt64(size), let positions = region(start, UInt64(size) - start) {
          base.setLE(XXH64.hash(positions), at: CubeLayout.positionsChecksumOffset)
        }
      }
    }
    sealHeader(&bytes)
  }

  /// Recomputes the header's checksum over the bytes the header says it has, when they
  /// lie inside `bytes`.
  private static func sealHeader(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      let headerBytes = UInt64(UnsafeRawPointer(base).le(CubeLayout.headerBytesOffset, as: UInt32.self))
      guard headerBytes >= UInt64(CubeLayout.headerChecksumOffset + 8), headerBytes <= UInt64(buffer.count) else {
        return
      }
      base.setLE(UInt64(0), at: CubeLayout.headerChecksumOffset)
      let header = UnsafeRawBufferPointer(start: base, count: Int(headerBytes))
      base.setLE(XXH64.hash(header), at: CubeLayout.headerChecksumOffset)
    }
  }

  /// Version 3: every block's checksum into the table, then the table's into the record,
  /// as far as the (possibly altered) offsets lie inside `bytes`.
  private static func resealBlocks(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      let reader = UnsafeRawPointer(base)
      let size = UInt64(buffer.count)
      let metricCount = UInt64(reader.le(CubeLayout.metricCountOffset, as: UInt32.self))
      guard metricCount <= UInt64(CubeLimits.metrics.upperBound) else { return }
      let record = CubeLayout.fixedHeaderBytes + Int(metricCount) * CubeLayout.metricEntryBytes
      guard UInt64(record + CubeLayout.Version3.recordBytes) <= size else { return }
      typealias V3 = CubeLayout.Version3
      let start = reader.le(CubeLayout.geometryOffsetOffset, as: UInt64.self)
      let table = reader.le(record + V3.checksumTableOffsetOffset, as: UInt64.self)
      let tableBytes = reader.le(record + V3.checksumTableBytesOffset, as: UInt64.self)
      guard start < table, table <= size, tableBytes <= size - table else { return }
      let blockBytes = UInt64(V3.checksumBlockBytes)
      let count = min((table - start + blockBytes - 1) / blockBytes, tableBytes / 8)
      for block in 0..<count {
        let first = start + block * blockBytes
        let region = UnsafeRawBufferPointer(start: reader + Int(first), count: Int(min(blockBytes, table - first)))
        base.setLE(XXH64.hash(region), at: Int(table + block * 8))
      }
      let tableRegion = UnsafeRawBufferPointer(start: reader + Int(table), count: Int(tableBytes))
      base.setLE(XXH64.hash(tableRegion), at: record + V3.checksumTableChecksumOffset)
    }
  }
}
