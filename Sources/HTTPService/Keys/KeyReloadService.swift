import Dispatch
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reloads the keys file on SIGHUP for as long as the server runs, the operator's usual
/// way to tell a daemon its configuration changed.
///
/// A file that cannot be used is logged with the reason and the keys in force stay, so that
/// a typo never locks every client out. ServiceLifecycle handles only the signals that stop
/// the group (SIGTERM, SIGINT), so SIGHUP has its own dispatch source.
final class KeyReloadService: Service {
  /// The signal source, made when the application is built, so that SIGHUP is handled
  /// before the server listens; cancelled when the service stops.
  private let source: Mutex<(any DispatchSourceSignal)?>

  init(keys: APIKeyStore, metrics: ServiceMetrics, logger: Logger) {
    #if canImport(Darwin)
      // Darwin's dispatch sources read signals through kqueue, which sees them only when the
      // signal's own action (ending the process) is off. Linux's libdispatch installs a
      // handler of its own instead, which ignoring the signal would undo (and so stop every
      // source in the process, those of other servers too).
      signal(SIGHUP, SIG_IGN)
    #endif
    let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
    source.setEventHandler { Self.reload(keys, metrics: metrics, logger: logger) }
    source.resume()
    self.source = Mutex(source)
  }

  func run() async throws {
    // Until the group shuts down; a cancellation ends the wait just as well.
    try? await gracefulShutdown()
    source.withLock { source in
      source?.cancel()
      source = nil
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
