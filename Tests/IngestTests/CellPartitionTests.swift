import Synchronization
import Testing

@testable import Ingest

/// Splitting a per-cell computation over the cores must give the serial result in cell
/// order, with every cell computed exactly once.
@Suite struct CellPartitionTests {
  @Test(arguments: [1, 4095, 8192, 10_800, 100_003])
  func partsJoinInCellOrderAndCoverEveryCellOnce(cells: Int) {
    @Sendable func value(_ cell: Int) -> Double { (Double(cell) * 0.37).squareRoot() + 1 / Double(cell + 1) }
    let seen = Mutex<[Range<Int>]>([])
    let values = CellPartition.map(cells: cells) { range in
      seen.withLock { $0.append(range) }
      return range.map(value)
    }
    let serial = (0..<cells).map(value)
    #expect(values == serial)
    let ranges = seen.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
    #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == cells)
    #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    // Small grids stay on the calling thread; larger ones are split when there are cores.
    #expect(cells >= 2 * CellPartition.minimumCells || ranges.count == 1)
  }
}
