import CEcCodes
import CEcCodesGuard
import Synchronization

/// The only place that calls ecCodes.
///
/// ecCodes' handles and its shared context (definitions, caches) are not safe to use from
/// several threads at once, so every call goes through one process-wide lock, and every
/// non-zero status becomes a `GRIBError` carrying `codes_get_error_message`'s text, what
/// ecCodes logged during the call, and the file, message and key it concerns.
///
/// Calls go through `CEcCodesGuard`, which turns an ecCodes assertion (which would abort
/// the process; damaged input reaches some) into a failed call with the assertion's text.
package enum GRIBLibrary {
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

  /// What one call came to: `body`'s result, what ecCodes logged meanwhile, and the text of
  /// the ecCodes assertion that cut it short, if one did.
  struct Outcome<R> {
    let result: R
    let logged: String
    let assertion: String?
  }

  /// Runs `body` (one guarded ecCodes call, given the guard to report in) under the lock.
  static func withLock<R>(_ body: (UnsafeMutablePointer<nwpcube_codes_guard>) -> R) -> Outcome<R> {
    lock.withLock { _ in
      _ = installed
      log.withLock { $0 = "" }
      var guardState = nwpcube_codes_guard()
      let result = body(&guardState)
      let assertion: String? =
        guardState.asserted == 0
        ? nil
        : withUnsafeBytes(of: guardState.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      return Outcome(result: result, logged: log.withLock { $0 }, assertion: assertion)
    }
  }

  /// Runs `body` holding the lock every ecCodes call of this module takes, for code in the
  /// package that calls ecCodes itself (the tests' GRIB writer): without it, a test that
  /// writes GRIB while another reads it would use ecCodes' shared context from two threads.
  /// `body` must not call into this module (the lock is not recursive).
  package static func exclusively<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    try lock.withLock { _ throws(E) in try body() }
  }

  /// Runs `body` under the lock and turns a non-zero status, or an assertion, into
  /// `GRIBError` naming `path`, `message` and `key`; `onAssertion` runs first if ecCodes
  /// asserted (its handle is then not to be touched again).
  static func call(
    _ function: String, path: String, message: Int?, key: String?, onAssertion: () -> Void = {},
    _ body: (UnsafeMutablePointer<nwpcube_codes_guard>) -> Int32
  ) throws(GRIBError) {
    let outcome = withLock(body)
    if let assertion = outcome.assertion {
      onAssertion()
      throw GRIBError(
        code: Int32(GRIB_INTERNAL_ERROR), reason: "\(function): the message is damaged: \(assertion)", path: path,
        message: message, key: key)
    }
    guard outcome.result == 0 else {
      throw error(
        status: outcome.result, function: function, logged: outcome.logged, path: path, message: message, key: key)
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
