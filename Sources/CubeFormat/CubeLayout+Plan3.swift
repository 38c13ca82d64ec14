extension CubeLayout {
  /// Where each part of a version 3 cube goes (docs/cube-format.md, *Version 3*), given the
  /// size of every data sub-section: the one layout rule for the writer, which streams the
  /// parts in this order, and for the reader, which checks a file against it.
  ///
  /// `init` trusts its inputs (a writer's, within `CubeLimits`); a reader uses `checked`,
  /// which takes the sizes as stored (u64) and forms every offset with overflow-reporting
  /// arithmetic.
  struct Plan3: Equatable {
    /// The fixed header, the metric table and the version 3 record.
    let headerBytes: Int
    /// Where the version 3 record starts: after the metric table.
    let recordOffset: Int
    let geometryOffset: Int
    let geometryBytes: Int
    /// Cells per band (a power of two) and the number of bands.
    let bandCells: Int
    let bandCount: Int
    let metricCount: Int
    /// Sub-section (b, m)'s offset and bytes at index `b × metricCount + m`.
    let subsectionOffsets: [Int]
    let subsectionBytes: [Int]
    /// Where the terrain section starts and its size; 0 and 0 without one.
    let terrainOffset: Int
    let terrainBytes: Int
    /// Where the positions section starts and its size; 0 and 0 for one position.
    let positionsOffset: Int
    let positionsBytes: Int
    /// Where the locator index section starts and its size; 0 and 0 without one.
    let locatorIndexOffset: Int
    let locatorIndexBytes: Int
    let bandIndexOffset: Int
    let bandIndexBytes: Int
    let checksumTableOffset: Int
    let checksumTableBytes: Int
    let fileBytes: Int

    /// The header's size for `metricCount` metrics: fixed header, metric table, record.
    static func headerBytes(metricCount: Int) -> Int {
      fixedHeaderBytes + metricCount * metricEntryBytes + Version3.recordBytes
    }

    /// Where the geometry starts: it depends on the metric count alone, so that a writer
    /// can stream the geometry before it knows the size of any data.
    static func geometryOffset(metricCount: Int) -> Int { aligned(headerBytes(metricCount: metricCount)) }

    /// The number of bands of `bandCells` cells over `cells` cells.
    static func bandCount(cells: Int, bandCells: Int) -> Int { (cells + bandCells - 1) / bandCells }

    /// The cells of band `band`: `band × bandCells ..< min((band + 1) × bandCells, cells)`.
    static func cells(ofBand band: Int, bandCells: Int, cells: Int) -> Range<Int> {
      band * bandCells..<min((band + 1) * bandCells, cells)
    }

    /// The smallest and largest size of a sub-section over `cells` cells and `steps` steps:
    /// its table and padding, plus nothing (every series of width 0) or every step at 16
    /// bits.
    static func subsectionBytes(cells: Int, steps: Int) -> ClosedRange<Int> {
      let fixed = cells * cellEntryBytes + sectionPadding
      return fixed...(fixed + cells * SeriesFrame.payloadBytes(steps: steps, width: SeriesFrame.maximumWidth))
    }

    /// The number of checksums of `coveredBytes` bytes: one per block, the last shorter.
    static func checksumBlocks(coveredBytes: Int) -> Int {
      (coveredBytes + Version3.checksumBlockBytes - 1) / Version3.checksumBlockBytes
    }

    /// The plan of a cube over `cells` cells in bands of `bandCells`, with sub-sections of
    /// `subsectionBytes` (band-major, `bandCount × metricCount` of them), each on the next
    /// multiple of 64 after the geometry or the sub-section before; then the terrain,
    /// positions (for more than one position, over `steps` steps), locator index, band index
    /// and checksum table, each on the next multiple of 64.
    init(
      cells: Int, steps: Int, metricCount: Int, bandCells: Int, subsectionBytes: [Int], terrain: Bool,
      positions: Int = 1, locatorIndexBytes: Int = 0
    ) {
      headerBytes = Self.headerBytes(metricCount: metricCount)
      recordOffset = fixedHeaderBytes + metricCount * metricEntryBytes
      geometryOffset = aligned(headerBytes)
      geometryBytes = cells * 2 * MemoryLayout<Float>.size
      self.bandCells = bandCells
      bandCount = Self.bandCount(cells: cells, bandCells: bandCells)
      self.metricCount = metricCount
      self.subsectionBytes = subsectionBytes
      var next = aligned(geometryOffset + geometryBytes)
      var end = next
      var offsets: [Int] = []
      offsets.reserveCapacity(subsectionBytes.count)
      for bytes in subsectionBytes {
        offsets.append(next)
        end = next + bytes
        next = aligned(end)
      }
      subsectionOffsets = offsets
      terrainOffset = terrain ? aligned(end) : 0
      terrainBytes = terrain ? cells * terrainBytesPerCell : 0
      if terrain { end = terrainOffset + terrainBytes }
      positionsOffset = positions > 1 ? aligned(end) : 0
      positionsBytes =
        positions > 1
        ? CubeLayout.positionsBytes(cells: cells, steps: steps, positions: positions, terrain: terrain) : 0
      if positions > 1 { end = positionsOffset + positionsBytes }
      self.locatorIndexOffset = locatorIndexBytes > 0 ? aligned(end) : 0
      self.locatorIndexBytes = locatorIndexBytes
      if locatorIndexBytes > 0 { end = locatorIndexOffset + locatorIndexBytes }
      bandIndexOffset = aligned(end)
      bandIndexBytes = subsectionBytes.count * Version3.bandIndexEntryBytes
      checksumTableOffset = aligned(bandIndexOffset + bandIndexBytes)
      checksumTableBytes =
        Self.checksumBlocks(coveredBytes: checksumTableOffset - geometryOffset) * MemoryLayout<UInt64>.size
      fileBytes = checksumTableOffset + checksumTableBytes
    }

    /// The bytes of metric `metric`'s data in all: the sum of its sub-sections (the metric
    /// table's data bytes field).
    func dataBytes(metric: Int) -> Int {
      stride(from: metric, to: subsectionBytes.count, by: metricCount).reduce(0) { $0 + subsectionBytes[$1] }
    }

    /// The plan of a cube whose shape a reader has checked against `CubeLimits`, from the
    /// sub-section sizes and locator index size as stored; nil when the band cells are not
    /// a power of two in 1…2³¹, the band count is outside 1…65 536, a sub-section's size is
    /// outside what its band's cells can take (`subsectionBytes(cells:steps:)`), or an
    /// offset or size does not fit in an `Int`. Every size is checked as stored before any
    /// arithmetic; the sizes of a cube within the limits keep every offset far below
    /// `Int.max`, and the sums are checked all the same.
    static func checked(
      cells: Int, steps: Int, metricCount: Int, bandCells: UInt64, subsectionBytes: [UInt64], terrain: Bool,
      positions: Int = 1, locatorIndexBytes: UInt64 = 0
    ) -> Plan3? {
      guard cells > 0, steps > 0, metricCount > 0, positions > 0,
        bandCells > 0, bandCells <= UInt64(1) << 31, bandCells & (bandCells - 1) == 0
      else { return nil }
      let bandCells = Int(bandCells)
      let bands = bandCount(cells: cells, bandCells: bandCells)
      guard bands <= Version3.maxBands, subsectionBytes.count == bands * metricCount else { return nil }
      func sum(_ a: Int, _ b: Int) -> Int? {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : value
      }
      func product(_ a: Int, _ b: Int) -> Int? {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : value
      }
      // Every part's size plus an alignment's worth of padding before it, summed as the
      // file's end would be: a bound on every offset `init` forms.
      guard var total = product(cells, 2 * MemoryLayout<Float>.size).flatMap({ sum($0, 2 * blockAlignment) }),
        let header = product(metricCount, metricEntryBytes).flatMap({ sum($0, fixedHeaderBytes) }),
        let headed = sum(total, header + Version3.recordBytes)
      else { return nil }
      total = headed
      for band in 0..<bands {
        let range = Self.cells(ofBand: band, bandCells: bandCells, cells: cells)
        let table = range.count * cellEntryBytes + sectionPadding
        guard
          let payload = product(range.count, SeriesFrame.payloadBytes(steps: steps, width: SeriesFrame.maximumWidth)),
          let largest = sum(table, payload)
        else { return nil }
        for metric in 0..<metricCount {
          let stored = subsectionBytes[band * metricCount + metric]
          guard stored >= UInt64(table), stored <= UInt64(largest), let next = sum(total, Int(stored) + blockAlignment)
          else { return nil }
          total = next
        }
      }
      guard locatorIndexBytes <= UInt64(Int.max - blockAlignment),
        let terrainBytes = terrain ? product(cells, terrainBytesPerCell) : 0,
        let withTerrain = sum(total, terrainBytes + blockAlignment),
        let record = product(cells, 2 * MemoryLayout<Float>.size + (terrain ? terrainBytesPerCell : 0)),
        let stepTable = product(steps, MemoryLayout<UInt32>.size),
        let moved = product(record + 8, positions - 1),
        let withPositions = sum(withTerrain, moved).flatMap({ sum($0, stepTable + positionsPreambleBytes + 16) })
          .flatMap({ sum($0, blockAlignment) }),
        let withLocator = sum(withPositions, Int(locatorIndexBytes) + blockAlignment),
        let withIndex = product(subsectionBytes.count, Version3.bandIndexEntryBytes).flatMap({
          sum(withLocator, $0 + blockAlignment)
        }),
        // One checksum per block at most doubles nothing: 8 bytes per 65 536.
        sum(withIndex, withIndex / Version3.checksumBlockBytes * 8 + 8) != nil
      else { return nil }
      return Plan3(
        cells: cells, steps: steps, metricCount: metricCount, bandCells: bandCells,
        subsectionBytes: subsectionBytes.map { Int($0) }, terrain: terrain, positions: positions,
        locatorIndexBytes: Int(locatorIndexBytes))
    }
  }
}
