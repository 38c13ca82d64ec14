import Dispatch
import GridGeometry
import Synchronization

/// A grid checked by `InputGrid.validated()` on another thread, while the thread that
/// started it goes on (scanning the other files, setting up the plan): on a global 0.25°
/// grid the check is a million cells' unit vectors and corners, a stretch on one core with
/// nothing beside it otherwise. Whoever needs the outcome waits for it, and an error found
/// meanwhile gives way to the grid's own (`preferring(_:)`), so a run whose first grid is
/// invalid is refused for that, as when the check came first.
final class BackgroundGridCheck: Sendable {
  private let outcome = Mutex<Result<CurvilinearGrid, IngestError>?>(nil)
  private let done = DispatchGroup()

  /// Starts checking `grid`.
  init(_ grid: InputGrid) {
    done.enter()
    DispatchQueue.global().async {
      let checked = Result { () throws(IngestError) in try grid.validated() }
      self.outcome.withLock { $0 = checked }
      self.done.leave()
    }
  }

  /// The checked grid, once the check is over; its refusal, naming the file and variables.
  func grid() throws(IngestError) -> CurvilinearGrid {
    done.wait()
    // Set before `done` is left.
    guard let outcome = outcome.withLock({ $0 }) else {
      throw IngestError(path: "", reason: "the grid check ended without an outcome")
    }
    return try outcome.get()
  }

  /// The grid's refusal when it has one, else `error`: what a run with both reports.
  func preferring(_ error: IngestError) -> IngestError {
    do {
      _ = try grid()
      return error
    } catch let refusal {
      return refusal
    }
  }
}
