import Foundation
import Synchronization

/// Runs cases one after another on a worker thread and waits for each with a timeout, so
/// that a case which never finishes is reported by name instead of stalling the suite.
///
/// The timeout only detects a hang: it is far above what any case takes, and no result
/// depends on how long a case took. A hung worker cannot be stopped and is left behind.
enum HangGuard {
  /// The failures `check` reports for each case, in order, plus one naming the first case
  /// that did not finish within `timeout` seconds (the rest are then not run).
  static func run<Case: Sendable>(
    _ cases: [Case], timeout: Double, name: (Case) -> String, check: @escaping @Sendable (Case) -> [String]
  ) -> [String] {
    let finished = DispatchSemaphore(value: 0)
    let failures = Failures()
    let worker = Thread {
      for item in cases {
        let found = check(item)
        failures.list.withLock { $0 += found }
        finished.signal()
      }
    }
    worker.stackSize = 16 << 20
    worker.start()
    for item in cases where finished.wait(timeout: .now() + timeout) == .timedOut {
      return failures.list.withLock { $0 } + ["\(name(item)): did not finish within \(Int(timeout)) s (a hang)"]
    }
    return failures.list.withLock { $0 }
  }

  /// Failures shared between the worker and the waiting test.
  private final class Failures: Sendable {
    let list = Mutex<[String]>([])
  }
}
