import Platform

/// The hidden files `CubeWriter` writes before renaming them into place, and the removal of
/// those whose writer is gone (a `kill -9`, a crash, a power cut during ingest).
///
/// A writer names its file `.<run>.cube.tmp.<host>.<pid>` beside the cube and holds an
/// exclusive `flock` on it from creation until the rename. A file is stale, and removed, when:
///
/// - its host is this machine (on a store shared over NFS another host's PIDs mean nothing
///   here: each host cleans its own files);
/// - no process holds its lock (a live writer always does; the lock dies with its process,
///   whoever reuses the PID and whatever PID namespace the writer ran in);
/// - and its PID is gone, or the file has not changed for `reusedAfter` seconds (the PID now
///   belongs to another process, which holds no lock on it).
///
/// The name pattern is strict, so nothing else that hides in a store is touched: rsync's
/// `.<name>.XXXXXX`, editors' swap files, another tool's temporaries. Files named by earlier
/// versions, `.<run>.cube.tmp.<pid>` with no host and no lock, are removed once unchanged for
/// `legacyAfter` seconds: a writer changes its file at every step, seconds apart.
public enum TemporaryFiles {
  /// Seconds after which an unlocked file whose PID is alive is another process's PID.
  public static let reusedAfter: Int64 = 60
  /// Seconds after which a file written by an earlier version (no host, no lock) is stale.
  public static let legacyAfter: Int64 = 3_600

  /// One stale temporary file.
  public struct Leftover: Sendable, Equatable, CustomStringConvertible {
    /// Why the file is stale.
    public enum Cause: Sendable, Equatable {
      /// No process has the writer's PID.
      case writerGone
      /// A process has the PID but not the file's lock, and the file is old: the PID was reused.
      case pidReused
      /// Written by an earlier version of nwpcube, and untouched for an hour.
      case earlierVersion
    }

    /// The file's path.
    public let path: String
    /// Its size.
    public let bytes: Int64
    /// The PID in its name.
    public let pid: Int32
    public let cause: Cause

    /// What was done, e.g. `removed stale temporary file …`.
    public func described(verb: String) -> String {
      let why =
        switch cause {
        case .writerGone: "left by process \(pid), which no longer exists"
        case .pidReused: "left by process \(pid), which no longer exists (PID \(pid) is now another process)"
        case .earlierVersion: "left by process \(pid) of an earlier nwpcube, unchanged for over an hour"
        }
      return "\(verb) stale temporary file \(path) (\(bytes) bytes), \(why)"
    }

    public var description: String { described(verb: "removed") }
  }

  /// This host's name as it appears in temporary file names: letters, digits and `-` only,
  /// so that the name splits unambiguously at its dots.
  public static let host: String = {
    guard let name = Posix.hostName else { return "unknown-host" }
    let safe = String(String.UnicodeScalarView(name.unicodeScalars.prefix(64).map { isAlphanumeric($0) ? $0 : "-" }))
    return safe.isEmpty ? "unknown-host" : safe
  }()

  /// Where this process writes the cube bound for `destination`.
  public static func path(for destination: String) -> String {
    "\(FileSystem.directory(of: destination))/.\(FileSystem.basename(destination)).tmp.\(host).\(Posix.processID)"
  }

  /// What a directory entry's name says, when it is one of ours.
  enum Name: Equatable {
    /// `.<cube>.tmp.<host>.<pid>`.
    case current(host: String, pid: Int32)
    /// `.<cube>.tmp.<pid>`, from before hosts and locks.
    case legacy(pid: Int32)

    init?(_ name: String) {
      // `.<cube>.tmp.<pid>` splits into at least 4 parts and `.<cube>.tmp.<host>.<pid>` 5, the
      // first of them the run (never empty: `..` starts no name of ours).
      guard name.hasPrefix("."), !name.hasPrefix("..") else { return nil }
      let parts = Array(name.dropFirst().split(separator: ".", omittingEmptySubsequences: false))
      let n = parts.count
      guard n >= 4, parts[n - 1].allSatisfy({ ("0"..."9").contains($0) }), let pid = Int32(parts[n - 1]), pid > 0
      else { return nil }
      if parts[n - 3] == "cube", parts[n - 2] == "tmp" {
        self = .legacy(pid: pid)
      } else if n >= 5, parts[n - 4] == "cube", parts[n - 3] == "tmp", TemporaryFiles.isHostName(parts[n - 2]) {
        self = .current(host: String(parts[n - 2]), pid: pid)
      } else {
        return nil
      }
    }
  }

  /// Whether `text` can be a host as temporary file names carry it.
  static func isHostName(_ text: Substring) -> Bool {
    !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && (isAlphanumeric($0) || $0 == "-") }
  }

  private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
  }

  /// The stale temporary files in the model/domain directories of `store`, left in place.
  public static func stale(in store: String) -> [Leftover] {
    candidates(in: store).compactMap { path, name in inspect(path, name: name, remove: false) }
  }

  /// Removes the stale temporary files of `store` and returns them.
  @discardableResult
  public static func removeStale(in store: String) -> [Leftover] {
    candidates(in: store).compactMap { path, name in inspect(path, name: name, remove: true) }
  }

  /// Every hidden entry of a domain directory whose name is one of ours.
  private static func candidates(in store: String) -> [(String, Name)] {
    var found: [(String, Name)] = []
    for model in FileSystem.entries(of: store) where !model.hasPrefix(".") {
      for domain in FileSystem.entries(of: "\(store)/\(model)") where !domain.hasPrefix(".") {
        let directory = "\(store)/\(model)/\(domain)"
        for entry in FileSystem.entries(of: directory) {
          if let name = Name(entry) { found.append(("\(directory)/\(entry)", name)) }
        }
      }
    }
    return found
  }

  /// Decides whether `path` is stale and, with `remove`, removes it while holding its lock, so
  /// that no other cleaner and no writer acts on it meanwhile.
  static func inspect(_ path: String, name: Name, remove: Bool, now: Int64 = Posix.secondsSince1970) -> Leftover? {
    if case .current(let host, _) = name, host != Self.host { return nil }
    // O_NOFOLLOW: a link planted under our pattern is not ours to follow.
    guard let descriptor = try? Posix.open(path, [.readOnly, .noFollow, .closeOnExec]) else { return nil }
    defer { Posix.close(descriptor) }
    guard let status = try? Posix.fstat(descriptor), status.kind == .regular else { return nil }
    let identity = FileIdentity(status: status)
    let age = now - identity.modifiedNanoseconds / 1_000_000_000
    let lock: LockState
    do {
      try Posix.flock(descriptor, wait: false)
      lock = .free
    } catch {
      lock = error.code == Errno.wouldBlock ? .held : .unknown
    }
    let cause: Leftover.Cause
    switch name {
    case .legacy:
      guard lock != .held, age >= legacyAfter else { return nil }
      cause = .earlierVersion
    case .current(_, let pid):
      guard lock != .held else { return nil }
      if !Posix.processExists(pid) {
        // An empty file may be a writer between creating and locking it (in another PID
        // namespace its PID is not ours to see); a writer sizes its file once locked.
        guard identity.size > 0 || age >= reusedAfter else { return nil }
        cause = .writerGone
      } else {
        // Without a working lock a live PID may be the writer: keep.
        guard lock == .free, age >= reusedAfter else { return nil }
        cause = .pidReused
      }
    }
    let pid: Int32 =
      switch name {
      case .current(_, let pid), .legacy(let pid): pid
      }
    let leftover = Leftover(path: path, bytes: identity.size, pid: pid, cause: cause)
    guard remove else { return leftover }
    // The name must still be this file, not one created since under the same name.
    guard FileIdentity(path: path).map({ $0.device == identity.device && $0.inode == identity.inode }) == true,
      (try? Posix.unlink(path)) != nil
    else { return nil }
    return leftover
  }

  private enum LockState { case free, held, unknown }
}
