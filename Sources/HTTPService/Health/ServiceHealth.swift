import Hummingbird
import Logging
import PointQuery
import Synchronization

/// Whether the service can answer, for `/healthz` and the log.
///
/// - **ready** (200): every cube of the store opened.
/// - **degraded** (200): some cubes could not be opened and are left out; the others answer.
/// - **unavailable** (503): no cube can answer, because the store is empty or nothing in it
///   can be opened. A load balancer takes the replica out until a readable run is published.
/// - **draining** (503): the server is shutting down (`ShutdownDrain`). It still answers every
///   other route, so that requests the load balancer sends before its next check succeed,
///   while the check takes the replica out.
///
/// A store is watched by its scans: each catalog a scan makes comes through `observe`, which
/// logs what changed, so a cube skipped at start-up and one skipped by a later rescan are
/// reported alike.
final class ServiceHealth: Sendable {
  enum Status: String {
    case ready, degraded, unavailable, draining
  }

  /// The store's directory, stripped from problems: its path stays private (as in `/v1/runs`).
  private let store: String
  private let logger: Logger
  /// What the last catalog observed held: its problems, and whether any cube answered.
  private let last = Mutex<(problems: Set<String>, available: Bool?)>(([], nil))
  /// Set once, when shutdown begins; an atomic, since load balancers poll `/healthz` often.
  private let draining = Atomic<Bool>(false)

  init(store: String, logger: Logger) {
    self.store = store
    self.logger = logger
  }

  /// Logs what changed since the last catalog: each cube newly left out (an error naming the
  /// file and why), and the store becoming unable or able to answer.
  func observe(_ catalog: RunCatalog) {
    let problems = Set(catalog.problems)
    let available = !catalog.cubes.isEmpty
    let (fresh, wasAvailable) = last.withLock { seen in
      defer { seen = (problems, available) }
      return (problems.subtracting(seen.problems), seen.available)
    }
    for problem in catalog.problems where fresh.contains(problem) {
      logger.error("cube skipped", metadata: ["problem": "\(problem)"])
    }
    guard available != wasAvailable else { return }
    if available {
      logger.info("store ready", metadata: ["cubes": "\(catalog.cubes.count)", "store": "\(store)"])
    } else {
      logger.warning(
        "the store has no readable cube; queries answer 503 until a run is published", metadata: ["store": "\(store)"])
    }
  }

  /// Reports not-ready from now on: the server is shutting down.
  func startDraining() {
    draining.store(true, ordering: .relaxed)
  }

  /// The status of `catalog`, draining first: a replica shutting down is out whatever it holds.
  func status(of catalog: RunCatalog) -> Status {
    if draining.load(ordering: .relaxed) { return .draining }
    return catalog.cubes.isEmpty ? .unavailable : catalog.problems.isEmpty ? .ready : .degraded
  }

  /// `/healthz`'s answer for `catalog` (`HealthDocument`), with status 503 when the replica
  /// is not ready (unavailable or draining).
  func response(for catalog: RunCatalog) -> EditedResponse<HealthDocument> {
    let status = status(of: catalog)
    let reason: String? =
      switch status {
      case .ready, .degraded: nil
      case .draining: "shutting down: it answers requests already routed to it, then stops"
      case .unavailable:
        catalog.problems.isEmpty
          ? "the store holds no run yet" : "no cube of the store can be opened; problems names each"
      }
    let document = HealthDocument(
      status: status.rawValue, cubes: catalog.cubes.count, problems: catalog.problems.map(relative), reason: reason)
    return EditedResponse(status: reason == nil ? .ok : .serviceUnavailable, response: document)
  }

  /// A problem line with the store's directory taken off its path.
  private func relative(_ problem: String) -> String {
    let prefix = store.hasSuffix("/") ? store : store + "/"
    return problem.hasPrefix(prefix) ? String(problem.dropFirst(prefix.count)) : problem
  }
}
