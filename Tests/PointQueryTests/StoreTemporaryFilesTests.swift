import CubeFormat
import Foundation
import Testing
import _TestSupport

/// The rule that decides which hidden temporary files in a store are leftovers of dead
/// writers (`TemporaryFiles`): only our pattern, only this host's, never a locked file or a
/// live writer's.
@Suite struct StoreTemporaryFilesTests {
  /// A PID no process has: a child that has exited and been reaped.
  static func deadPID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  /// A store with one domain directory; returns the store and the directory.
  static func store(_ label: String) throws -> (String, String) {
    let store = SampleFiles.temporaryDirectory(label)
    let directory = "\(store)/wrf/d01"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    return (store, directory)
  }

  /// Writes `bytes` bytes at `path`, last modified `age` seconds ago.
  static func file(_ path: String, bytes: Int = 1000, age: TimeInterval = 0) throws {
    try Data(repeating: 7, count: bytes).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
  }

  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  static let host = TemporaryFiles.host

  @Test func aFileOfADeadWriterIsRemovedAndNamed() throws {
    let (store, directory) = try Self.store("tmp-dead")
    defer { SampleFiles.remove(store) }
    let pid = try Self.deadPID()
    let path = "\(directory)/.2026062000.cube.tmp.\(Self.host).\(pid)"
    try Self.file(path, bytes: 4096)
    #expect(TemporaryFiles.stale(in: store).map(\.path) == [path])
    #expect(Self.exists(path))
    let removed = TemporaryFiles.removeStale(in: store)
    #expect(
      removed.map(\.description) == [
        "removed stale temporary file \(path) (4096 bytes), left by process \(pid), which no longer exists"
      ])
    #expect(!Self.exists(path))
  }

  @Test func aLiveWritersFileIsKept() throws {
    let (store, directory) = try Self.store("tmp-live")
    defer { SampleFiles.remove(store) }
    // Our own PID and a fresh file: a writer at work.
    let fresh = "\(directory)/.2026062000.cube.tmp.\(Self.host).\(getpid())"
    try Self.file(fresh)
    // A dead PID, but its lock is held (a writer in another PID namespace).
    let locked = "\(directory)/.2026062006.cube.tmp.\(Self.host).\(try Self.deadPID())"
    try Self.file(locked, age: 3600)
    let descriptor = open(locked, O_RDONLY)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX) == 0)
    // A dead PID and an empty fresh file: a writer between creating and locking it.
    let creating = "\(directory)/.2026062012.cube.tmp.\(Self.host).\(try Self.deadPID())"
    try Self.file(creating, bytes: 0)
    #expect(TemporaryFiles.removeStale(in: store).isEmpty)
    #expect(Self.exists(fresh) && Self.exists(locked) && Self.exists(creating))
  }

  /// A live PID whose file is old and unlocked is another process's PID: the writer locked
  /// its file from creation to rename.
  @Test func anOldUnlockedFileOfALivePIDIsAReusedPIDsAndRemoved() throws {
    let (store, directory) = try Self.store("tmp-reused")
    defer { SampleFiles.remove(store) }
    let path = "\(directory)/.2026062000.cube.tmp.\(Self.host).\(getpid())"
    try Self.file(path, age: Double(TemporaryFiles.reusedAfter) + 5)
    let removed = TemporaryFiles.removeStale(in: store)
    #expect(removed.map(\.path) == [path])
    #expect(removed.first?.cause == .pidReused)
    #expect(!Self.exists(path))
  }

  @Test func foreignNamesAndOtherHostsFilesAreNeverTouched() throws {
    let (store, directory) = try Self.store("tmp-foreign")
    defer { SampleFiles.remove(store) }
    let dead = try Self.deadPID()
    let kept = [
      ".2026062000.cube.tmp.other-host.\(dead)",  // another host's writer on a shared store
      ".2026062000.cube.Ab12Cd",  // rsync's temporary name
      ".2026062000.cube.tmp.\(Self.host).\(dead)x",
      ".2026062000.cube.tmp.\(Self.host).",
      ".cube.tmp.\(Self.host).\(dead)",
      ".2026062000.cube.swp",
      ".2026062000.cube.tmp.\(dead)",  // an earlier version's, changed within the hour
      "2026062000.cube.tmp.\(Self.host).\(dead)",  // not hidden
      "notes",
    ]
    for name in kept { try Self.file("\(directory)/\(name)", age: 120) }
    // The store's root and model directories hold no temporary files of ours.
    try Self.file("\(store)/.2026062000.cube.tmp.\(Self.host).\(dead)")
    #expect(TemporaryFiles.removeStale(in: store).isEmpty)
    for name in kept { #expect(Self.exists("\(directory)/\(name)"), "\(name)") }
  }

  @Test func anEarlierVersionsFileIsRemovedOnceUnchangedForAnHour() throws {
    let (store, directory) = try Self.store("tmp-legacy")
    defer { SampleFiles.remove(store) }
    let path = "\(directory)/.2026062000.cube.tmp.\(getpid())"
    try Self.file(path, age: Double(TemporaryFiles.legacyAfter) + 60)
    let removed = TemporaryFiles.removeStale(in: store)
    #expect(removed.map(\.cause) == [.earlierVersion])
    #expect(
      removed.first?.description
        == "removed stale temporary file \(path) (1000 bytes), left by process \(getpid()) of an earlier nwpcube, unchanged for over an hour"
    )
    #expect(!Self.exists(path))
  }

  /// The name a writer uses is one the rule recognises as this host's.
  @Test func aWritersTemporaryNameCarriesThisHostAndItsPID() {
    let path = TemporaryFiles.path(for: "/store/wrf/d01/2026062000.cube")
    #expect(path == "/store/wrf/d01/.2026062000.cube.tmp.\(Self.host).\(getpid())")
    #expect(!Self.host.isEmpty && !Self.host.contains("."))
  }
}
