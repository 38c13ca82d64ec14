#if os(Linux)
  import Glibc
#endif

/// The inotify events a watch reports (`IN_*`), and its flags; empty off Linux, where
/// `Posix.inotifyInit` throws.
public struct WatchEvents: OptionSet, Sendable {
  /// The `IN_*` bits.
  public let rawValue: UInt32

  /// Events of `rawValue`'s `IN_*` bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  #if os(Linux)
    /// `IN_CREATE`: an entry was created in the directory.
    public static let create = WatchEvents(rawValue: UInt32(IN_CREATE))
    /// `IN_DELETE`: an entry was deleted.
    public static let delete = WatchEvents(rawValue: UInt32(IN_DELETE))
    /// `IN_MOVED_TO`: an entry was renamed into the directory.
    public static let movedTo = WatchEvents(rawValue: UInt32(IN_MOVED_TO))
    /// `IN_MOVED_FROM`: an entry was renamed out of it.
    public static let movedFrom = WatchEvents(rawValue: UInt32(IN_MOVED_FROM))
    /// `IN_CLOSE_WRITE`: a file open for writing was closed.
    public static let closeWrite = WatchEvents(rawValue: UInt32(IN_CLOSE_WRITE))
    /// `IN_ATTRIB`: metadata changed.
    public static let attributes = WatchEvents(rawValue: UInt32(IN_ATTRIB))
    /// `IN_DELETE_SELF`: the watched directory was deleted.
    public static let deleteSelf = WatchEvents(rawValue: UInt32(IN_DELETE_SELF))
    /// `IN_MOVE_SELF`: the watched directory was moved.
    public static let moveSelf = WatchEvents(rawValue: UInt32(IN_MOVE_SELF))
    /// `IN_ONLYDIR`: watch the path only if it is a directory.
    public static let onlyDirectory = WatchEvents(rawValue: UInt32(IN_ONLYDIR))
    /// `IN_DONT_FOLLOW`: do not follow a symbolic link.
    public static let dontFollow = WatchEvents(rawValue: UInt32(IN_DONT_FOLLOW))
  #else
    public static let create = WatchEvents([])
    public static let delete = WatchEvents([])
    public static let movedTo = WatchEvents([])
    public static let movedFrom = WatchEvents([])
    public static let closeWrite = WatchEvents([])
    public static let attributes = WatchEvents([])
    public static let deleteSelf = WatchEvents([])
    public static let moveSelf = WatchEvents([])
    public static let onlyDirectory = WatchEvents([])
    public static let dontFollow = WatchEvents([])
  #endif
}
