import CFileSystemType
import CubeFormat
import Platform
import Synchronization

/// Change notification (Linux inotify) for the directories of one scan of a store. Whether
/// anything in them changed since is one system call on one descriptor (about 0.3 µs),
/// however many directories the store has, where comparing stamps costs a `stat` (about
/// 1 µs) per directory.
///
/// The scan watches each directory before listing it, so a change made during the scan is
/// either in the listing or queued. The queue is only measured, never read: reading would
/// drain it, and another reader sharing the scan could then find it empty and answer from
/// the old catalog while the one that drained it is still deciding. Once something is
/// queued the scan stays stale for every reader; the scan that replaces it makes its own
/// watch, and this descriptor closes when the last holder of the old scan lets go.
///
/// Where events could miss a change, `init` returns nil or `add` false, and the scan
/// compares stamps instead; off Linux (no inotify) `init` always returns nil.
final class StoreWatch: Sendable {
  private let descriptor: Int32
  private let root: String
  /// The directory the root path named when it was watched, when that path passes through
  /// a symbolic link. inotify watches directories, not paths: swapping the link (a
  /// blue/green deployment) queues nothing, and the watches stay on the old tree. One
  /// `stat` of the root per check finds the swap, still cheaper than a `stat` per
  /// directory.
  private let rootTarget: FileIdentity?
  /// Set by the first check that finds a change, so that later checks make no system call.
  /// Relaxed ordering is enough: the queue itself stays non-empty, so a reader that misses
  /// the flag still finds the change.
  private let changed = Atomic<Bool>(false)

  /// What publishing and pruning do to a store: a cube is renamed into place (moved in),
  /// a model or domain appears with `mkdir`, a cube copied in is complete when its writer
  /// closes it, a cube is deleted. Not modifications: a cube being written to a hidden
  /// temporary file would queue an event per write.
  private static let events: WatchEvents = [
    .create, .delete, .movedTo, .movedFrom, .closeWrite, .attributes, .deleteSelf, .moveSelf,
  ]

  /// inotify reports only the changes made through this machine's kernel. On network and
  /// cluster file systems, and on FUSE ones (sshfs, s3fs, …), a run published by another
  /// host would never be noticed, so stores there compare stamps. `f_type` values from
  /// <linux/magic.h> and the file systems' sources: NFS, SMB, CIFS, SMB2, FUSE, Ceph, 9P,
  /// Lustre, AFS, GFS2, OCFS2.
  private static let remoteFileSystems: Set<UInt32> = [
    0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x6573_5546, 0x00C3_6400, 0x0102_1997, 0x0BD0_0BD0, 0x5346_414F,
    0x0116_1970, 0x7461_636F,
  ]

  /// Watches the store's root; nil where notification is unavailable (no inotify, the
  /// per-user limit of instances or watches reached) or unreliable (a network file
  /// system).
  init?(root: String) {
    guard !Self.isRemote(root) else { return nil }
    var target: FileIdentity? = nil
    if Self.passesThroughSymbolicLink(root) {
      // Taken before the watch: a swap in between then shows as a different target, and
      // the store is rescanned.
      guard let identity = FileIdentity(path: root) else { return nil }
      target = identity
    }
    guard let descriptor = try? Posix.inotifyInit() else { return nil }
    do {
      try Posix.inotifyAddWatch(descriptor, root, Self.events.union(.onlyDirectory))
    } catch {
      Posix.close(descriptor)
      return nil
    }
    self.descriptor = descriptor
    self.root = root
    rootTarget = target
  }

  deinit { Posix.close(descriptor) }

  /// Watches a model or domain directory; called before listing it. False when the scan
  /// must compare stamps instead: the directory is a symbolic link (its target can be
  /// swapped like the root's; rare inside a store, so not worth a `stat` per check), it is
  /// on a network file system, or the watch cannot be added.
  func add(_ directory: String) -> Bool {
    do {
      try Posix.inotifyAddWatch(descriptor, directory, Self.events.union([.onlyDirectory, .dontFollow]))
      return !Self.isRemote(directory)
    } catch {
      switch error.code {
      // Gone since its parent was listed: the removal is queued on the parent's watch.
      case Errno.noSuchFile: return true
      // A file, with nothing below it to watch (its replacement by a directory is queued on
      // the parent's watch), or a symbolic link.
      case Errno.notDirectory: return !Self.isSymbolicLink(directory)
      default: return false
      }
    }
  }

  /// Whether anything in the watched directories may have changed. An overflowing queue
  /// holds an overflow event, so it counts as a change too, as does a failing check.
  func hasChanged() -> Bool {
    if changed.load(ordering: .relaxed) { return true }
    let quiet = (try? Posix.queuedBytes(descriptor)) == 0 && rootIsWhereItWas
    if quiet { return false }
    changed.store(true, ordering: .relaxed)
    return true
  }

  private var rootIsWhereItWas: Bool {
    guard let rootTarget else { return true }
    guard let now = FileIdentity(path: root) else { return false }
    return now.device == rootTarget.device && now.inode == rootTarget.inode
  }

  static func isRemote(fileSystemType: UInt32) -> Bool { remoteFileSystems.contains(fileSystemType) }

  private static func isRemote(_ path: String) -> Bool { isRemote(fileSystemType: nwp_file_system_type(path)) }

  private static func passesThroughSymbolicLink(_ path: String) -> Bool {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if isSymbolicLink(prefix) { return true }
    }
    return false
  }

  private static func isSymbolicLink(_ path: String) -> Bool {
    (try? Posix.lstat(path))?.kind == .symbolicLink
  }
}
