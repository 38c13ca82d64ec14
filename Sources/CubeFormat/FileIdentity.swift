import Platform

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
    guard let status = try? Posix.stat(path) else { return nil }
    self.init(status: status)
  }

  init(status: FileStatus) {
    device = status.device
    inode = status.inode
    size = status.size
    modifiedNanoseconds = status.modifiedNanoseconds
  }

  /// The modification time in seconds since 1970.
  public var modified: Double { Double(modifiedNanoseconds) / 1e9 }
}
