import Foundation
import PointQuery
import SampleRun
import Testing
import UTCTime
import _TestSupport

@testable import Store

/// How a live store notices runs published and pruned, by each method of change detection.
/// Every change is made before the next `refresh()` and must be seen by it: no waiting.
@Suite struct StoreChangeTests {
  static let first = TestStores.spec(start: "2026-06-20_00:00:00", hours: 6, seed: 1)
  static let second = TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 2)

  /// What a store asked for `wanted` uses: notification is Linux only.
  static func expected(_ wanted: ChangeDetection) -> ChangeDetection {
    #if os(Linux)
      wanted
    #else
      .stamps
    #endif
  }

  static func runs(_ store: ForecastStore) -> [String] { store.refresh().cubes.map(\.run) }

  /// Runs `body` on a new store holding `runs` of one model, opened with `detection`.
  /// `aged` dates its directories back as `ageDirectories` does.
  static func withStore(
    _ runs: [SampleRunSpec] = [first], detection: ChangeDetection, aged: Bool = false,
    _ body: (_ store: String, ForecastStore) throws -> Void
  ) throws {
    let store = SampleFiles.temporaryDirectory("store-change")
    defer { SampleFiles.remove(store) }
    for run in runs { try TestStores.publish(run, into: store) }
    if aged { try ageDirectories(of: store) }
    let forecast = try ForecastStore(path: store, verifyChecksums: true, changeDetection: detection)
    #expect(forecast.changeDetection == expected(detection))
    try body(store, forecast)
  }

  @Test(arguments: ChangeDetection.allCases)
  func aPublishedRunIsSeenOnTheNextRefresh(_ detection: ChangeDetection) throws {
    try Self.withStore(detection: detection) { store, forecast in
      #expect(Self.runs(forecast) == ["2026062000"])
      try TestStores.publish(Self.second, into: store)
      #expect(Self.runs(forecast) == ["2026062006", "2026062000"])
    }
  }

  @Test(arguments: ChangeDetection.allCases)
  func aPrunedRunIsGoneOnTheNextRefresh(_ detection: ChangeDetection) throws {
    try Self.withStore([Self.first, Self.second], detection: detection) { store, forecast in
      #expect(Self.runs(forecast) == ["2026062006", "2026062000"])
      let old = try #require(forecast.cubes.last).file.path
      let decisions = try StorePruning.prune(store: store, keep: 1)
      #expect(decisions.contains { $0.path == old && $0.action == .delete })
      #expect(Self.runs(forecast) == ["2026062006"])
    }
  }

  /// The model's and domain's directories appear after the store was opened; the rescan must
  /// also watch them, or the next run published into them would go unnoticed.
  @Test(arguments: ChangeDetection.allCases)
  func aModelAddedLaterIsSeenAndSoAreItsLaterRuns(_ detection: ChangeDetection) throws {
    try Self.withStore(detection: detection) { store, forecast in
      try TestStores.publish(Self.first, into: store, model: "other")
      #expect(forecast.refresh().cubes.map(\.name).sorted() == ["other/d01", "wrf/d01"])
      try TestStores.publish(Self.second, into: store, model: "other")
      #expect(forecast.refresh().cubes.filter { $0.name == "other/d01" }.map(\.run) == ["2026062006", "2026062000"])
      #expect(forecast.changeDetection == Self.expected(detection))
    }
  }

  @Test(arguments: ChangeDetection.allCases)
  func anUnchangedStoreIsNotRescanned(_ detection: ChangeDetection) throws {
    try Self.withStore(detection: detection, aged: true) { _, forecast in
      let scannedAt = forecast.scannedAt
      let time = try #require(UTC.parseWRF("2026-06-20_03:00:00"))
      for _ in 0..<20 {
        // Reading cubes touches the store's files without changing them.
        forecast.refresh()
        let (cube, location) = try forecast.select(latitude: 39.4, longitude: -8.1, time: time, method: .nearest)
        _ = try cube.value(try cube.metric("temp"), at: location, time: time)
      }
      #expect(forecast.scannedAt == scannedAt)
      #expect(forecast.changeDetection == Self.expected(detection))
    }
  }

  /// Two readers holding the same scan: the first to check finds the change, and the second
  /// must find it too rather than an already emptied queue.
  @Test(arguments: ChangeDetection.allCases)
  func readersSharingAScanBothSeeOneChange(_ detection: ChangeDetection) throws {
    try Self.withStore(detection: detection, aged: true) { store, _ in
      let scan = try StoreScan(
        store: store, previous: nil, verifyChecksums: false, strict: true, changeDetection: detection)
      #expect(scan.changeDetection == Self.expected(detection))
      let (reader, other) = (scan, scan)
      #expect(!reader.isStale())
      #expect(!other.isStale())
      #expect(FileManager.default.createFile(atPath: "\(store)/wrf/d01/notes", contents: nil))
      #expect(reader.isStale())
      #expect(other.isStale())
      #expect(reader.isStale())
    }
  }

  /// Every rescan replaces the scan and, with notification, its inotify instance: the old
  /// one must be closed.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fdinfo")), arguments: ChangeDetection.allCases)
  func rescansLeakNoDescriptors(_ detection: ChangeDetection) throws {
    try Self.withStore(detection: detection) { store, forecast in
      let held = try Self.descriptors(on: store)
      #expect(held == (forecast.changeDetection == .notification ? 1 : 0))
      var scannedAt = forecast.scannedAt
      for index in 0..<200 {
        try #require(FileManager.default.createFile(atPath: "\(store)/wrf/d01/notes-\(index)", contents: nil))
        try #require(Self.runs(forecast) == ["2026062000"])
        try #require(forecast.scannedAt != scannedAt, "rescan \(index)")
        scannedAt = forecast.scannedAt
      }
      #expect(try Self.descriptors(on: store) == held)
    }
  }

  /// A blue/green deployment points the store's path at another tree by swapping a link.
  @Test(arguments: ChangeDetection.allCases)
  func aSwappedRootLinkIsSeenOnTheNextRefresh(_ detection: ChangeDetection) throws {
    let base = SampleFiles.temporaryDirectory("change-link")
    defer { SampleFiles.remove(base) }
    try TestStores.publish(Self.first, into: "\(base)/blue")
    try TestStores.publish(Self.second, into: "\(base)/green")
    let manager = FileManager.default
    try manager.createSymbolicLink(atPath: "\(base)/current", withDestinationPath: "\(base)/blue")
    let forecast = try ForecastStore(path: "\(base)/current", verifyChecksums: true, changeDetection: detection)
    #expect(forecast.changeDetection == Self.expected(detection))
    #expect(Self.runs(forecast) == ["2026062000"])
    // Atomically, as a deployment does it: a new link renamed over the old one.
    try manager.createSymbolicLink(atPath: "\(base)/next", withDestinationPath: "\(base)/green")
    #expect(rename("\(base)/next", "\(base)/current") == 0)
    #expect(Self.runs(forecast) == ["2026062006"])
  }

  /// A model directory that links elsewhere: its target's path can change without an event
  /// in the store, so the store compares stamps.
  @Test func aLinkedModelDirectoryMakesTheStoreCompareStamps() throws {
    let base = SampleFiles.temporaryDirectory("change-linked-model")
    defer { SampleFiles.remove(base) }
    try TestStores.publish(Self.first, into: "\(base)/elsewhere")
    let manager = FileManager.default
    try manager.createDirectory(atPath: "\(base)/store", withIntermediateDirectories: false)
    try manager.createSymbolicLink(atPath: "\(base)/store/wrf", withDestinationPath: "\(base)/elsewhere/wrf")
    let forecast = try ForecastStore(path: "\(base)/store", verifyChecksums: true, changeDetection: .notification)
    #expect(forecast.changeDetection == .stamps)
    #expect(Self.runs(forecast) == ["2026062000"])
    try TestStores.publish(Self.second, into: "\(base)/elsewhere")
    #expect(Self.runs(forecast) == ["2026062006", "2026062000"])
  }

  @Test func networkFileSystemsAreNotWatched() {
    #expect(StoreWatch.isRemote(fileSystemType: 0x6969))  // NFS
    #expect(StoreWatch.isRemote(fileSystemType: 0xFF53_4D42))  // CIFS
    #expect(StoreWatch.isRemote(fileSystemType: 0x6573_5546))  // FUSE
    #expect(!StoreWatch.isRemote(fileSystemType: 0xEF53))  // ext4
    #expect(!StoreWatch.isRemote(fileSystemType: 0x5846_5342))  // XFS
    #expect(!StoreWatch.isRemote(fileSystemType: 0x0102_1994))  // tmpfs
  }

  /// Dates the directories of a one-model store an hour back, so that the stamps' rule of
  /// rescanning directories modified within the last second does not apply.
  static func ageDirectories(of store: String) throws {
    let anHourAgo = Date(timeIntervalSinceNow: -3600)
    for directory in [store, "\(store)/wrf", "\(store)/wrf/d01"] {
      try FileManager.default.setAttributes([.modificationDate: anHourAgo], ofItemAtPath: directory)
    }
  }

  /// The open descriptors that refer to `store`: files below it, and inotify instances
  /// watching its root (their `fdinfo` names each watched inode).
  static func descriptors(on store: String) throws -> Int {
    let manager = FileManager.default
    let root = try #require(try manager.attributesOfItem(atPath: store)[.systemFileNumber] as? Int)
    let watched = "ino:\(String(root, radix: 16)) sdev:"
    return try manager.contentsOfDirectory(atPath: "/proc/self/fd").filter { descriptor in
      let target = (try? manager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")) ?? ""
      if target.hasPrefix(store) { return true }
      guard target == "anon_inode:inotify" else { return false }
      let info = (try? String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)) ?? ""
      return info.contains(watched)
    }.count
  }
}
