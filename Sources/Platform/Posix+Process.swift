extension Posix {
  /// `getpid(2)`.
  public static var processID: Int32 { system_getpid() }

  /// `kill(2)`: sends `signal` to the process `pid`.
  public static func kill(_ pid: Int32, _ signal: ProcessSignal) throws(Errno) {
    guard system_kill(pid, signal.rawValue) == 0 else { throw .current("kill") }
  }

  /// Whether a process with `pid` exists on this host: `kill` with no signal succeeds, or
  /// fails only because the process is not ours to signal.
  public static func processExists(_ pid: Int32) -> Bool {
    do {
      try kill(pid, .probe)
      return true
    } catch {
      return error.code == Errno.notPermitted
    }
  }

  /// `gethostname(2)`, nil when it fails.
  public static var hostName: String? { system_gethostname() }

  /// `time(2)`: seconds since 1970.
  public static var secondsSince1970: Int64 { system_time() }

  /// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds: for intervals, never set back.
  public static var monotonicNanoseconds: UInt64 { system_monotonicNanoseconds() }

  /// This process's peak resident set so far in bytes (`getrusage`'s `ru_maxrss`), nil when
  /// it cannot be read.
  public static var peakResidentBytes: Int? { system_peakResidentBytes() }
}
