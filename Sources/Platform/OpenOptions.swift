#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The flags of `open(2)`, so that callers need not import the C library for them.
public struct OpenOptions: OptionSet, Sendable {
  /// The `O_*` bits.
  public let rawValue: Int32

  /// Options of `rawValue`'s `O_*` bits.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// `O_RDONLY` (zero: the default access mode).
  public static let readOnly = OpenOptions(rawValue: O_RDONLY)
  /// `O_WRONLY`.
  public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
  /// `O_RDWR`.
  public static let readWrite = OpenOptions(rawValue: O_RDWR)
  /// `O_CREAT`: create the file when it does not exist.
  public static let create = OpenOptions(rawValue: O_CREAT)
  /// `O_EXCL`: with `create`, fail when the name exists.
  public static let exclusive = OpenOptions(rawValue: O_EXCL)
  /// `O_TRUNC`: empty an existing file.
  public static let truncate = OpenOptions(rawValue: O_TRUNC)
  /// `O_NOFOLLOW`: fail on a symbolic link rather than follow it.
  public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
  /// `O_CLOEXEC`: a child process started later does not inherit the descriptor.
  public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
}
