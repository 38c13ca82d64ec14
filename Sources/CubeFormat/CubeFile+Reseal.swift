extension CubeFile {
  /// Recomputes every checksum of a cube held in memory: each data block's, the
  /// geometry's, the terrain section's (when its size is not 0), then the header's, each over the region the (possibly altered) header
  /// names. Regions that fall outside `bytes` are left alone, so any input is safe.
  ///
  /// This exists for robustness testing and fuzzing: a cube mutated and then resealed gets
  /// past the checksums, so that what a reader does with impossible but self-consistent
  /// fields is what gets tested. No reader or writer of real cubes calls it.
  ///
  /// With `blocks` false only the header's checksum is recomputed: a test that altered a
  /// block checksum field on purpose gets a consistent header around it.
  package static func reseal(_ bytes: inout [UInt8], blocks: Bool = true) {
    guard bytes.count >= CubeLayout.fixedHeaderBytes else { return }
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
      for index in 0..<(blocks ? min(metricCount, UInt64(CubeLimits.metrics.upperBound)) : 0) {
        let entry = CubeLayout.fixedHeaderBytes + Int(index) * CubeLayout.metricEntryBytes
        guard entry + CubeLayout.metricEntryBytes <= size else { break }
        let offset = reader.le(entry + CubeLayout.dataOffsetOffset, as: UInt64.self)
        let count = reader.le(entry + CubeLayout.dataBytesOffset, as: UInt64.self)
        if let block = region(offset, count) {
          base.setLE(XXH64.hash(block), at: entry + CubeLayout.dataChecksumOffset)
        }
      }
      let geometryOffset = reader.le(CubeLayout.geometryOffsetOffset, as: UInt64.self)
      let geometryBytes = reader.le(CubeLayout.geometryBytesOffset, as: UInt64.self)
      if blocks, let geometry = region(geometryOffset, geometryBytes) {
        base.setLE(XXH64.hash(geometry), at: CubeLayout.geometryChecksumOffset)
      }
      let terrainOffset = reader.le(CubeLayout.terrainOffsetOffset, as: UInt64.self)
      let terrainBytes = reader.le(CubeLayout.terrainBytesOffset, as: UInt64.self)
      if blocks, terrainBytes > 0, let terrain = region(terrainOffset, terrainBytes) {
        base.setLE(XXH64.hash(terrain), at: CubeLayout.terrainChecksumOffset)
      }
      let headerBytes = UInt64(reader.le(CubeLayout.headerBytesOffset, as: UInt32.self))
      guard headerBytes >= UInt64(CubeLayout.headerChecksumOffset + 8), headerBytes <= UInt64(size) else { return }
      base.setLE(UInt64(0), at: CubeLayout.headerChecksumOffset)
      let header = UnsafeRawBufferPointer(start: reader, count: Int(headerBytes))
      base.setLE(XXH64.hash(header), at: CubeLayout.headerChecksumOffset)
    }
  }
}
