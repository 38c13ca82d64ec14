/// The inotify events a watch reports (`IN_*`), and its flags. The values are Linux's ABI
/// (<sys/inotify.h>), spelled here so that they exist on every system; off Linux
/// `Posix.inotifyInit` throws and they are never used.
public struct WatchEvents: OptionSet, Sendable {
  /// The `IN_*` bits.
  public let rawValue: UInt32

  /// Events of `rawValue`'s `IN_*` bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `IN_ATTRIB`: metadata changed.
  public static let attributes = WatchEvents(rawValue: 0x0000_0004)
  /// `IN_CLOSE_WRITE`: a file open for writing was closed.
  public static let closeWrite = WatchEvents(rawValue: 0x0000_0008)
  /// `IN_MOVED_FROM`: an entry was renamed out of the directory.
  public static let movedFrom = WatchEvents(rawValue: 0x0000_0040)
  /// `IN_MOVED_TO`: an entry was renamed into the directory.
  public static let movedTo = WatchEvents(rawValue: 0x0000_0080)
  /// `IN_CREATE`: an entry was created in the directory.
  public static let create = WatchEvents(rawValue: 0x0000_0100)
  /// `IN_DELETE`: an entry was deleted.
  public static let delete = WatchEvents(rawValue: 0x0000_0200)
  /// `IN_DELETE_SELF`: the watched directory was deleted.
  public static let deleteSelf = WatchEvents(rawValue: 0x0000_0400)
  /// `IN_MOVE_SELF`: the watched directory was moved.
  public static let moveSelf = WatchEvents(rawValue: 0x0000_0800)
  /// `IN_ONLYDIR`: watch the path only if it is a directory.
  public static let onlyDirectory = WatchEvents(rawValue: 0x0100_0000)
  /// `IN_DONT_FOLLOW`: do not follow a symbolic link.
  public static let dontFollow = WatchEvents(rawValue: 0x0200_0000)
}
