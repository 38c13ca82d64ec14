import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the keys file on SIGHUP for as long as the server runs, the operator's usual
/// way to tell a daemon its configuration changed.
///
/// A file that cannot be used is logged with the reason and the keys in force stay, so that
/// a typo never locks every client out. SIGHUP is read through the one signal mechanism the
/// server has, ServiceLifecycle's `UnixSignalsSequence` (which also serves SIGTERM, SIGINT
/// and the drain's second signal).
final class KeyReloadService: Service {
  private let keys: APIKeyStore
  private let metrics: ServiceMetrics
  private let logger: Logger
  /// The sequence, its registration started when the application is built, so that SIGHUP
  /// is handled by the time the server listens (registering is asynchronous: it cannot be
  /// awaited in the synchronous `buildApplication`).
  private let signals: Task<UnixSignalsSequence, Never>

  init(keys: APIKeyStore, metrics: ServiceMetrics, logger: Logger) {
    self.keys = keys
    self.metrics = metrics
    self.logger = logger
    signals = Task { await UnixSignalsSequence(trapping: .sighup) }
  }

  func run() async throws {
    // Until the group shuts down; the sequence's sources are cancelled when it is released.
    for await _ in await signals.value.cancelOnGracefulShutdown() {
      Self.reload(keys, metrics: metrics, logger: logger)
    }
  }

  /// One reload: the new keys in force, or the old ones kept and the reason logged.
  static func reload(_ keys: APIKeyStore, metrics: ServiceMetrics, logger: Logger) {
    switch keys.reload() {
    case .success(let count):
      metrics.recordKeyReload(succeeded: true)
      metrics.recordKeyCount(count)
      logger.info("API keys reloaded", metadata: ["file": "\(keys.path)", "keys": "\(count)"])
    case .failure(let error):
      metrics.recordKeyReload(succeeded: false)
      logger.error(
        "API keys not reloaded; the keys in force stay",
        metadata: ["file": "\(keys.path)", "error": "\(error)", "keys": "\(keys.count)"])
    }
  }
}
