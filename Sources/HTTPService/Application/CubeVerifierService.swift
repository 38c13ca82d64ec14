import Dispatch
import Logging
import ServiceLifecycle
import Store

/// Verifies the served cubes' blocks that no request has read yet, in the background, at a
/// bounded rate: the server opens a version 3 cube without hashing it (each block is
/// verified when a request first reads it), so that starting costs the same whatever the
/// cubes weigh, and this service then reads every block once, at most `bytesPerSecond`, so
/// that a damaged block is found even where no request reads. A block that does not match
/// withdraws its cube: it is logged, counted (`nwpcube_store_damaged_cubes_total`), and
/// left out from the next refresh until a new file is published under its name.
///
/// Each step verifies a tenth of a second's worth and then sleeps out the rest of the tenth,
/// so the rate holds over any second; a step whose reads are slower (a cold or busy disk)
/// just takes longer, and the rate stays below the bound. Steps run on a dispatch queue, as
/// the refresh does, so that reading never holds a thread of the requests' pool.
final class CubeVerifierService: Service {
  private let store: ForecastStore
  private let bytesPerSecond: Int
  private let metrics: ServiceMetrics
  private let logger: Logger

  /// The time each step's share of the rate is spread over.
  static let tick = Duration.milliseconds(100)
  /// How long the service waits, with everything verified, before looking for new cubes.
  static let idleInterval = Duration.seconds(1)

  init(store: ForecastStore, bytesPerSecond: Int, metrics: ServiceMetrics, logger: Logger) {
    self.store = store
    self.bytesPerSecond = bytesPerSecond
    self.metrics = metrics
    self.logger = logger
  }

  func run() async throws {
    let (store, metrics, logger) = (store, metrics, logger)
    let share = max(bytesPerSecond / 10, 1)
    metrics.startVerificationMetrics()
    try? await cancelWhenGracefulShutdown {
      let clock = ContinuousClock()
      while !Task.isCancelled {
        let started = clock.now
        let step = await Self.step(store, limit: share)
        switch step {
        case .verified(_, let bytes):
          metrics.recordVerified(bytes: bytes)
          try await Task.sleep(until: started + Self.tick)
        case .failed(let path, let problem):
          metrics.recordDamagedCube()
          logger.error("cube withdrawn: a block did not match", metadata: ["cube": "\(path)", "reason": "\(problem)"])
          // Left out at once rather than at the next refresh's interval.
          await StoreRefreshService.refresh(store)
        case .idle:
          try await Task.sleep(for: Self.idleInterval)
        }
      }
    }
  }

  /// One `verifyNext(limit:)`, on a dispatch queue.
  static func step(_ store: ForecastStore, limit: Int) async -> ForecastStore.VerificationStep {
    await withCheckedContinuation { (done: CheckedContinuation<ForecastStore.VerificationStep, Never>) in
      DispatchQueue.global(qos: .utility).async { done.resume(returning: store.verifyNext(limit: limit)) }
    }
  }
}
