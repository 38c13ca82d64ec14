extension Posix {
  /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`: a new inotify instance, closed with `close`.
  /// Throws `Errno.notImplemented` off Linux.
  public static func inotifyInit() throws(Errno) -> Int32 {
    #if os(Linux)
      let descriptor = system_inotify_init()
      guard descriptor >= 0 else { throw .current("inotify_init1") }
      return descriptor
    #else
      throw Errno(Errno.notImplemented, call: "inotify_init1")
    #endif
  }

  /// `inotify_add_watch(2)`: watches `path` for `events` (and its flags) on the instance.
  public static func inotifyAddWatch(_ descriptor: Int32, _ path: String, _ events: WatchEvents) throws(Errno) {
    #if os(Linux)
      guard system_inotify_add_watch(descriptor, path, events.rawValue) >= 0 else {
        throw .current("inotify_add_watch")
      }
    #else
      throw Errno(Errno.notImplemented, call: "inotify_add_watch")
    #endif
  }

  /// `ioctl(FIONREAD)`: the bytes queued for reading on the descriptor (events queued on an
  /// inotify instance), without reading them.
  public static func queuedBytes(_ descriptor: Int32) throws(Errno) -> Int {
    #if os(Linux)
      guard let queued = system_queuedBytes(descriptor) else { throw .current("ioctl") }
      return queued
    #else
      throw Errno(Errno.notImplemented, call: "ioctl")
    #endif
  }
}
