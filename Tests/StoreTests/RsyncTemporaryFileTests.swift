import Foundation
import Testing
import _TestSupport

@testable import Store

/// A replica's store filled by rsync (docs/deploy.md) never answers from rsync's temporary
/// files. rsync writes each file as `.<name>.XXXXXX` in its target directory and renames it
/// into place; with `--delay-updates` it then moves it into `.~tmp~/` in that directory and
/// renames the lot at the end; `--partial-dir` keeps an interrupted file in that directory.
/// All are hidden names, which the store's scan, its inventory and pruning leave alone.
@Suite struct RsyncTemporaryFileTests {
  static let old = TestStores.spec(start: "2026-06-20_00:00:00", hours: 6, seed: 1)
  static let new = TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 2)
  /// Long, so that a throttled rsync is still writing it when the test looks.
  static let big = TestStores.spec(start: "2026-06-20_12:00:00", hours: 96, seed: 3)

  /// What every reader of the store sees: the runs the scan answers from (a strict scan,
  /// which throws on any `.cube` it cannot open), the runs the inventory lists, and the
  /// files pruning would touch.
  static func seen(_ store: String) throws -> (served: [String], listed: [String], pruned: [String]) {
    let served = try ForecastStore(path: store).cubes.map(\.run).sorted()
    let listed = StoreInventory.runs(in: store).map(\.run).sorted()
    let pruned = StorePruning.plan(store: store, keep: 1).filter { $0.action != .keep }.map(\.path)
    return (served, listed, pruned)
  }

  static func copy(_ source: String, to target: String) throws {
    try FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: source, toPath: target)
  }

  @Test func rsyncsTemporaryNamesAreNeverServedListedOrPruned() throws {
    let scratch = SampleFiles.temporaryDirectory("rsync-names")
    defer { SampleFiles.remove(scratch) }
    let store = "\(scratch)/store"
    try TestStores.publish(Self.old, into: store)
    // A complete cube under each name rsync gives a file before it is in place: the scan
    // must skip them by name, since their contents alone would pass.
    let complete = try TestStores.publish(Self.new, into: "\(scratch)/source")
    let domain = "\(store)/wrf/d01"
    for name in [
      ".2026062006.cube.Xa81Qz",  // rsync's own temporary file
      ".~tmp~/2026062006.cube",  // --delay-updates, waiting for the end of the transfer
      ".rsync-partial/2026062006.cube",  // --partial-dir=.rsync-partial
    ] {
      try Self.copy(complete, to: "\(domain)/\(name)")
    }
    // --delay-updates makes `.~tmp~` in each directory it writes to, models' included.
    try Self.copy(complete, to: "\(store)/wrf/.~tmp~/2026062006.cube")
    try Self.copy(complete, to: "\(store)/.~tmp~/d01/2026062006.cube")
    // A partial file is also hidden: a truncated copy must not even be looked at.
    let truncated = try Data(contentsOf: URL(fileURLWithPath: complete)).prefix(4_096)
    try truncated.write(to: URL(fileURLWithPath: "\(domain)/.2026062012.cube.k3Jd9w"))

    let (served, listed, pruned) = try Self.seen(store)
    #expect(served == ["2026062000"])
    #expect(listed == ["2026062000"])
    #expect(pruned.isEmpty, "\(pruned)")
  }

  static let rsync = ["/usr/bin/rsync", "/bin/rsync", "/usr/local/bin/rsync"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Starts rsync from `source` to `target` (both directories, trailing slash added).
  static func startRsync(_ options: [String], _ source: String, _ target: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: rsync ?? "rsync")
    process.arguments = ["-a"] + options + ["\(source)/", "\(target)/"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// The hidden files under `directory`, relative to it.
  static func hiddenFiles(_ directory: String) -> [String] {
    let all = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
    return all.filter { path in
      path.split(separator: "/").contains { $0.hasPrefix(".") }
        && !((try? FileManager.default.attributesOfItem(atPath: "\(directory)/\(path)")[.type]) as? FileAttributeType
          == .typeDirectory)
    }.sorted()
  }

  /// Waits until rsync has left files matching `wanted` in `target`, then kills it with
  /// SIGKILL, as a replica's pull dies, so that its temporary files stay where they are.
  static func interrupt(_ rsync: Process, in target: String, when wanted: ([String]) -> Bool) throws -> [String] {
    defer {
      if rsync.isRunning { kill(rsync.processIdentifier, SIGKILL) }
      rsync.waitUntilExit()
    }
    // The deadline only guards against a hang.
    let deadline = Date().addingTimeInterval(300)
    while !wanted(hiddenFiles(target)) {
      guard rsync.isRunning, Date() < deadline else {
        Issue.record("rsync ended before leaving the files wanted: \(hiddenFiles(target))")
        return []
      }
      usleep(5_000)
    }
    kill(rsync.processIdentifier, SIGKILL)
    return hiddenFiles(target)
  }

  @Test(.enabled(if: rsync != nil, "rsync is not installed"))
  func aRealRsyncInterruptedMidTransferLeavesNothingTheStoreServesAndTheNextPullCleansUp() throws {
    let scratch = SampleFiles.temporaryDirectory("rsync-real")
    defer { SampleFiles.remove(scratch) }
    let (source, replica) = ("\(scratch)/ingest", "\(scratch)/replica")
    try TestStores.publish(Self.old, into: source)
    try #require(try Self.startRsync([], source, replica).waitUntilExitStatus() == 0)
    #expect(try Self.seen(replica).served == ["2026062000"])
    try TestStores.publish(Self.new, into: source)
    try TestStores.publish(Self.big, into: source)
    let bigBytes = try #require(StoreInventory.runs(in: source).first { $0.run == "2026062012" }).bytes
    // Slow enough that the big cube takes many seconds, whatever the machine's speed.
    let throttle = "--bwlimit=\(max(bigBytes / 1_024 / 20, 1))"

    // rsync's default: each file under a temporary name in its own directory.
    let plain = try Self.interrupt(
      try Self.startRsync([throttle], source, replica), in: replica,
      when: { $0.contains { $0.hasPrefix("wrf/d01/.2026062012.cube.") } })
    #expect(plain.allSatisfy { $0.hasPrefix("wrf/d01/.") }, "\(plain)")
    // The run rsync completed before it was killed is in place; the big one is not.
    #expect(try Self.seen(replica).served == ["2026062000", "2026062006"])
    #expect(try Self.seen(replica).listed == ["2026062000", "2026062006"])

    // --delay-updates: completed files wait in `.~tmp~/` until the whole transfer is done.
    // rsync sends files in name order: this small, earlier run first, then the big one.
    try TestStores.publish(TestStores.spec(start: "2026-06-19_18:00:00", hours: 6, seed: 4), into: source)
    let delayed = try Self.interrupt(
      try Self.startRsync([throttle, "--delay-updates"], source, replica), in: replica,
      when: { $0.contains("wrf/d01/.~tmp~/2026061918.cube") })
    #expect(delayed.contains("wrf/d01/.~tmp~/2026061918.cube"), "\(delayed)")
    let (served, listed, pruned) = try Self.seen(replica)
    #expect(served == ["2026062000", "2026062006"])
    #expect(listed == ["2026062000", "2026062006"])
    #expect(pruned.allSatisfy { !$0.contains("/.") }, "\(pruned)")

    // The next pull, as deploy/nwpcube-pull runs it, completes and removes what the killed
    // ones left (`--delete-after` deletes hidden files the source does not have).
    try #require(
      try Self.startRsync(["--delay-updates", "--delete-after"], source, replica).waitUntilExitStatus() == 0)
    #expect(try Self.seen(replica).served == ["2026061918", "2026062000", "2026062006", "2026062012"])
    #expect(Self.hiddenFiles(replica).isEmpty, "\(Self.hiddenFiles(replica))")
  }
}

extension Process {
  /// Waits for the process and returns its exit status.
  fileprivate func waitUntilExitStatus() -> Int32 {
    waitUntilExit()
    return terminationStatus
  }
}
