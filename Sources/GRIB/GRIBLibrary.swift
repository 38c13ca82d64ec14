import CEcCodes
import Synchronization

/// The only place that calls ecCodes.
///
/// ecCodes' handles and its shared context (definitions, caches) are not safe to use from
/// several threads at once, so every call goes through one process-wide lock, and every
/// non-zero status becomes a `GRIBError` carrying `codes_get_error_message`'s text, what
/// ecCodes logged during the call, and the file, message and key it concerns.
enum GRIBLibrary {
  private static let lock = Mutex<Void>(())
  /// What ecCodes logged during the current call. ecCodes reports some failures (a
  /// message it cannot parse) only through its log, so the log is kept for the error
  /// rather than printed on stderr. Written by the log callback, which runs inside a call,
  /// under `lock`.
  private static let log = Mutex<String>("")
  /// Installs the log callback once, before the first call.
  private static let installed: Bool = {
    let callback: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?) -> Void = { _, _, text in
      guard let text else { return }
      let line = String(cString: text)
      GRIBLibrary.log.withLock { log in
        // A bound, so that a long run of warnings cannot grow it without end.
        if log.utf8.count < 1_000 { log += log.isEmpty ? line : "; " + line }
      }
    }
    codes_context_set_logging_proc(codes_context_get_default(), callback)
    return true
  }()
  /// Whether an ecCodes assertion failed during the current call.
  private static let assertionFailed = Mutex<Bool>(false)

  /// Runs `body` (one or more ecCodes calls) under the lock and turns a non-zero status
  /// into `GRIBError` naming `path`, `message` and `key`.
  static func call(
    _ function: String, path: String, message: Int?, key: String?, _ body: () -> Int32
  ) throws(GRIBError) {
    let (status, logged, asserted) = withLockCheckingAssertions(body)
    guard status == 0, !asserted else {
      throw error(
        status: status == 0 ? Int32(GRIB_INTERNAL_ERROR) : status, function: function, logged: logged, path: path,
        message: message, key: key)
    }
  }

  /// Runs `body` under the lock and returns its result with what ecCodes logged meanwhile.
  static func withLock<R>(_ body: () -> R) -> (R, String) {
    let (result, logged, _) = withLockCheckingAssertions(body)
    return (result, logged)
  }

  /// Runs `body` under the lock and returns its result, what ecCodes logged meanwhile, and
  /// whether one of ecCodes' internal assertions failed.
  static func withLockCheckingAssertions<R>(_ body: () -> R) -> (R, String, Bool) {
    lock.withLock { _ in
      _ = installed
      log.withLock { $0 = "" }
      assertionFailed.withLock { $0 = false }
      let result = body()
      return (result, log.withLock { $0 }, assertionFailed.withLock { $0 })
    }
  }

  /// The error for a failed call: ecCodes' text for `status`, and what it logged.
  static func error(
    status: Int32, function: String, logged: String, path: String, message: Int?, key: String?
  ) -> GRIBError {
    let text = String(cString: codes_get_error_message(status))
    let detail = logged.isEmpty || logged == text ? "" : " (\(logged))"
    return GRIBError(code: status, reason: "\(function): \(text)\(detail)", path: path, message: message, key: key)
  }
}
