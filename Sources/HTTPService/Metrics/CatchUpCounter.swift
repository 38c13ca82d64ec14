import Prometheus
import Synchronization

/// A Prometheus counter that follows a count kept elsewhere (the store's): each scrape
/// brings it up to that count, so that the store needs no reference to the metrics.
final class CatchUpCounter: Sendable {
  private let counter: Counter
  /// The count the counter has reached.
  private let seen = Mutex<Int>(0)

  init(_ counter: Counter) {
    self.counter = counter
  }

  /// Adds whatever `total` has grown by since the last call.
  func catchUp(to total: Int) {
    let increase = seen.withLock { seen in
      defer { seen = max(seen, total) }
      return max(total - seen, 0)
    }
    if increase > 0 { counter.increment(by: Int64(increase)) }
  }
}
