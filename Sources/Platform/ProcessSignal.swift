#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A signal `Posix.kill` sends.
public struct ProcessSignal: Sendable, Hashable {
  /// The signal's number.
  public let rawValue: Int32

  /// No signal: `kill` only checks that the process exists and may be signalled.
  public static let probe = ProcessSignal(rawValue: 0)
  /// `SIGKILL`: ends the process at once.
  public static let kill = ProcessSignal(rawValue: SIGKILL)
  /// `SIGHUP`: a daemon's usual "reload your configuration".
  public static let hangUp = ProcessSignal(rawValue: SIGHUP)
}
