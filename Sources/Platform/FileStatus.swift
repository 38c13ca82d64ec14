#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat(2)` says of a file, the fields nwpcube reads.
public struct FileStatus: Sendable, Hashable {
  /// What kind of file it is.
  public enum Kind: Sendable, Hashable {
    /// A regular file.
    case regular
    /// A directory.
    case directory
    /// A symbolic link (only `lstat` reports one).
    case symbolicLink
    /// A device, socket or pipe.
    case other
  }

  /// `st_dev`.
  public let device: UInt64
  /// `st_ino`.
  public let inode: UInt64
  /// `st_size`, bytes.
  public let size: Int64
  /// Modification time, nanoseconds since 1970.
  public let modifiedNanoseconds: Int64
  /// From `st_mode`'s file type bits.
  public let kind: Kind

  init(_ status: stat) {
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    size = Int64(status.st_size)
    #if canImport(Darwin)
      modifiedNanoseconds = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
    #else
      modifiedNanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    #endif
    kind =
      switch status.st_mode & S_IFMT {
      case S_IFREG: .regular
      case S_IFDIR: .directory
      case S_IFLNK: .symbolicLink
      default: .other
      }
  }

  /// Whether both name the same file (device and inode), whatever its contents.
  public func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}
