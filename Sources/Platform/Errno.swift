#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call that failed: the `errno` it set, the call's name and the C library's text
/// for the code, like swift-system's `Errno` but carrying the call, so that a log line or an
/// error message can say which step failed without a second lookup.
///
/// Messages seen by users are built from `text` alone (`cannot open: No such file or
/// directory`), as they were before calls went through `Posix`; `description` adds the call.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
  /// The `errno` value.
  public let code: Int32
  /// The C function that failed, e.g. `open`.
  public let call: String

  /// An error of `code` from `call`.
  public init(_ code: Int32, call: String) {
    self.code = code
    self.call = call
  }

  /// The calling thread's `errno`, read at once after `call` failed (a `Posix` wrapper, or
  /// a function of one of the C targets that sets `errno`).
  public static func current(_ call: String) -> Errno { Errno(errno, call: call) }

  /// `strerror`'s text for the code, e.g. `No such file or directory`.
  public var text: String { String(cString: strerror(code)) }

  /// `call: text`, e.g. `open: No such file or directory`.
  public var description: String { "\(call): \(text)" }

  /// `ENOENT`: no file or directory of that name.
  public static let noSuchFile = ENOENT
  /// `EEXIST`: the name is taken.
  public static let fileExists = EEXIST
  /// `ENOTDIR`: a component of the path is not a directory.
  public static let notDirectory = ENOTDIR
  /// `EPERM`: the operation is not permitted to this process.
  public static let notPermitted = EPERM
  /// `EAGAIN`: try again (also a lease or lock that another process holds).
  public static let tryAgain = EAGAIN
  /// `EWOULDBLOCK`: a non-blocking call would have had to wait (a lock held elsewhere).
  public static let wouldBlock = EWOULDBLOCK
  /// `EBUSY`: the resource is in use.
  public static let busy = EBUSY
  /// `EINTR`: a signal interrupted the call (the wrappers retry it themselves).
  public static let interrupted = EINTR
  /// `ENOSYS`: the call does not exist on this system (inotify off Linux).
  public static let notImplemented = ENOSYS
}
