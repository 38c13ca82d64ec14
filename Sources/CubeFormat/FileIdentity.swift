#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a path names, and which version of it: device, inode, size and modification
/// time. A cube replaced under the same name (a republished run) has a new identity, so a
/// reader knows to map it afresh.
public struct FileIdentity: Sendable, Hashable {
  public let device: UInt64
  public let inode: UInt64
  public let size: Int64
  /// Modification time, nanoseconds since 1970.
  public let modifiedNanoseconds: Int64

  /// The identity of the file at `path`, or nil when nothing is there.
  public init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(status: status)
  }

  init(status: stat) {
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    size = Int64(status.st_size)
    #if canImport(Darwin)
      modifiedNanoseconds = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
    #else
      modifiedNanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    #endif
  }

  /// The modification time in seconds since 1970.
  public var modified: Double { Double(modifiedNanoseconds) / 1e9 }
}
