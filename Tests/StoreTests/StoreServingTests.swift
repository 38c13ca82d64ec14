import Foundation
import PointQuery
import Synchronization
import Testing
import UTCTime
import _TestSupport

@testable import Store

/// A store opened for serving starts whatever it holds, and a store with no cube that can
/// answer says so (the service's 503), never "outside the domains".
@Suite struct StoreServingTests {
  static let first = TestStores.spec(start: "2026-06-20_00:00:00", hours: 6, seed: 1)
  static let second = TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 2)
  static let time = UTC.parseWRF("2026-06-20_03:00:00") ?? 0

  /// Replaces `cube` by its first `count - cut` bytes, by rename as a publisher would.
  static func truncate(_ cube: String, by cut: Int) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: cube))
    try bytes.prefix(bytes.count - cut).write(to: URL(fileURLWithPath: "\(cube).staged"))
    #expect(rename("\(cube).staged", cube) == 0)
  }

  static func select(_ store: ForecastStore) throws(QueryError) {
    _ = try store.select(latitude: 39.4, longitude: -8.1, time: time, method: .nearest)
  }

  @Test func aServingStoreLeavesOutAnUnreadableCubeWhereAStrictOneRefusesIt() throws {
    let store = SampleFiles.temporaryDirectory("serving-skip")
    defer { SampleFiles.remove(store) }
    try TestStores.publish(Self.first, into: store)
    let bad = try TestStores.publish(Self.second, into: store)
    try Self.truncate(bad, by: 100)
    let strict = #expect(throws: QueryError.self) { try ForecastStore(path: store) }
    #expect(strict?.description.hasPrefix("\(bad): truncated") == true, "\(String(describing: strict))")

    let seen = ScanLog()
    let serving = try ForecastStore(serving: store, onScan: seen.record)
    #expect(serving.cubes.map(\.run) == ["2026062000"])
    #expect(serving.catalog.problems.count == 1)
    #expect(serving.catalog.problems.first?.hasPrefix("\(bad): truncated") == true)
    #expect(seen.catalogs == [["2026062000"]])
    try Self.select(serving)
  }

  @Test func aStoreWithNoCubeThatCanAnswerThrowsTheStoresErrorNotOutsideDomain() throws {
    let store = SampleFiles.temporaryDirectory("serving-empty")
    defer { SampleFiles.remove(store) }
    let seen = ScanLog()
    let serving = try ForecastStore(serving: store, onScan: seen.record)
    #expect(throws: QueryError.emptyStore(store)) { try Self.select(serving) }
    #expect(throws: QueryError.emptyStore(store)) { try ForecastStore(path: store) }

    let cube = try TestStores.publish(Self.first, into: store)
    serving.refresh()
    try Self.select(serving)
    try Self.truncate(cube, by: 17)
    serving.refresh()
    let error = #expect(throws: QueryError.self) { try Self.select(serving) }
    guard case .noReadableCube(let path, let problems) = error else {
      Issue.record("expected noReadableCube, got \(String(describing: error))")
      return
    }
    #expect(path == store)
    #expect(problems.count == 1 && problems[0].hasPrefix("\(cube): truncated"))
    #expect(
      error?.description.hasPrefix(
        "\(store): no readable cube in this store: its only cube cannot be opened; \(cube): truncated")
        == true)
    // Every scan was told: the empty one, the one with the run, the one without.
    #expect(seen.catalogs == [[], ["2026062000"], []])
  }

  /// A bad cube is opened, logged (one problem in one catalog) and counted once; later
  /// rescans, made for other runs, skip it without verifying it again, until its file
  /// changes.
  @Test func aRejectedCubeIsVerifiedAndCountedOnceNotAtEveryRescan() throws {
    let store = SampleFiles.temporaryDirectory("serving-rejected")
    defer { SampleFiles.remove(store) }
    let bad = try TestStores.publish(Self.first, into: store)
    try Self.truncate(bad, by: 17)
    let serving = try ForecastStore(serving: store)
    #expect((serving.cubesOpened, serving.cubesRejected) == (1, 1))
    try TestStores.publish(Self.second, into: store)
    #expect(serving.refresh().cubes.map(\.run) == ["2026062006"])
    // Only the new run was opened; the bad cube is still named, not opened again.
    #expect((serving.cubesOpened, serving.cubesRejected) == (2, 1))
    #expect(serving.catalog.problems.count == 1 && serving.catalog.problems[0].hasPrefix("\(bad): truncated"))
    #expect(FileManager.default.createFile(atPath: "\(store)/wrf/d01/notes", contents: nil))
    serving.refresh()
    #expect((serving.cubesOpened, serving.cubesRejected) == (2, 1))
    // Replaced by another bad file: a new file, verified and counted again.
    try Self.truncate(bad, by: 18)
    serving.refresh()
    #expect((serving.cubesOpened, serving.cubesRejected) == (3, 2))
    #expect(serving.catalog.problems.count == 1)
  }

  @Test func aStoreDirectoryThatCannotBeReadIsTheOnlyErrorOfAServingStore() throws {
    let base = SampleFiles.temporaryDirectory("serving-missing")
    defer { SampleFiles.remove(base) }
    #expect(throws: QueryError.unreadableStore("\(base)/none", reason: "No such file or directory")) {
      try ForecastStore(serving: "\(base)/none")
    }
    #expect(FileManager.default.createFile(atPath: "\(base)/file", contents: nil))
    #expect(throws: QueryError.unreadableStore("\(base)/file", reason: "not a directory")) {
      try ForecastStore(serving: "\(base)/file")
    }
  }
}

/// The runs of each catalog a store's scans made, in order.
final class ScanLog: Sendable {
  private let seen = Mutex<[[String]]>([])

  var catalogs: [[String]] { seen.withLock { $0 } }

  func record(_ catalog: RunCatalog) { seen.withLock { $0.append(catalog.cubes.map(\.run)) } }
}
