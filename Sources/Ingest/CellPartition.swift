import Dispatch
import Foundation
import Synchronization

/// Splits a per-cell computation over the machine's cores. Each cell's value depends on
/// that cell's inputs alone, so the result is the same, bit for bit, however the cells are
/// split; libnetcdf is never called from the parts (their inputs are read before).
enum CellPartition {
  /// Below this many cells a grid is computed on the calling thread: the threads would cost
  /// more than they save.
  static let minimumCells = 4096

  /// `body` applied to consecutive ranges of `0..<cells`, its results joined in cell order.
  /// `body` returns one value per cell of its range.
  static func map(cells: Int, _ body: @Sendable (Range<Int>) -> [Double]) -> [Double] {
    let parts = min(ProcessInfo.processInfo.activeProcessorCount, 8, cells / minimumCells)
    guard parts > 1 else { return body(0..<cells) }
    let results = Mutex<[[Double]]>(Array(repeating: [], count: parts))
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let values = body(cells * part / parts..<cells * (part + 1) / parts)
      results.withLock { $0[part] = values }
    }
    return results.withLock { $0.flatMap { $0 } }
  }
}
