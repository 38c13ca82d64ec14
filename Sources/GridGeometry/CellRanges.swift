import Dispatch
import Foundation
import Synchronization

/// Splits a pass over a grid's cells (or rows) into consecutive ranges computed on the
/// machine's cores, and hands back each range's result in order. The checks of a
/// projection against every cell are independent per cell and were a serial second or so
/// of a 3 km ingest on a two-core machine; a result combined in range order is the same,
/// bit for bit, however the work is split.
enum CellRanges {
  /// Below this many items per range the threads would cost more than they save.
  static let minimumPerRange = 4096

  /// `body` applied to consecutive ranges covering `0..<count`, in order: one range (the
  /// calling thread) for small counts, else one per core, up to 8.
  static func map<Result: Sendable>(
    _ count: Int, minimumPerRange: Int = minimumPerRange, _ body: @Sendable (Range<Int>) -> Result
  ) -> [Result] {
    let parts = min(ProcessInfo.processInfo.activeProcessorCount, 8, count / max(minimumPerRange, 1))
    guard parts > 1 else { return [body(0..<count)] }
    let results = Mutex([Result?](repeating: nil, count: parts))
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let value = body(count * part / parts..<count * (part + 1) / parts)
      results.withLock { $0[part] = value }
    }
    // `concurrentPerform` returns once every part has run, so every slot is filled.
    return results.withLock { $0.compactMap { $0 } }
  }
}
