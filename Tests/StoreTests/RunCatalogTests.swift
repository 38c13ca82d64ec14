import Foundation
import PointQuery
import Store
import Synchronization
import Testing
import UTCTime
import _TestSupport

/// Many runs in one store: which run answers each hour, live reloading and pruning.
@Suite struct RunCatalogTests {
  /// A point well inside the small test grid (centred at 39.5, −8).
  static let latitude = 39.4
  static let longitude = -8.1

  @Test func eachHourAnswersFromTheNewestRunCoveringIt() throws {
    let store = SampleFiles.temporaryDirectory("catalog")
    defer { SampleFiles.remove(store) }
    // A long run, a shorter newer one inside it, and a newest one that ends earlier still.
    let runs: [(start: String, hours: Int)] = [
      ("2026-06-20_00:00:00", 48), ("2026-06-20_12:00:00", 18), ("2026-06-21_00:00:00", 6),
    ]
    let paths = try runs.enumerated().map { index, run in
      try TestStores.publish(TestStores.spec(start: run.start, hours: run.hours, seed: UInt64(index + 1)), into: store)
    }
    let forecast = try ForecastStore(path: store)
    // The rule, computed independently: the latest start among the runs covering the hour.
    let spans = try zip(runs, paths).map { run, path -> (id: String, first: Int64, last: Int64, path: String) in
      let first = try #require(UTC.parseWRF(run.start))
      return (UTC.runIdentifier(first), first, first + Int64(run.hours) * 3600, path)
    }
    let direct = try paths.map { try Cube(path: $0) }
    let first = spans[0].first
    for hour in 0...48 {
      let time = first + Int64(hour) * 3600
      let expected = spans.filter { $0.first <= time && time <= $0.last }.max { $0.first < $1.first }
      let (cube, location) = try forecast.select(
        latitude: Self.latitude, longitude: Self.longitude, time: time, method: .nearest)
      #expect(cube.run == expected?.id, "hour \(hour)")
      // The answer is that run's own value, read from its file opened on its own.
      let own = try #require(direct.first { $0.file.path == expected?.path })
      let ownLocation = try own.locate(latitude: Self.latitude, longitude: Self.longitude, method: .nearest)
      for name in ["temp", "rain", "wind_dir"] {
        let answered = try cube.value(try cube.metric(name), at: location, time: time)
        #expect(answered == (try own.value(try own.metric(name), at: ownLocation, time: time)), "hour \(hour) \(name)")
      }
    }
    // An hour no run covers names every run's coverage.
    let late = #expect(throws: QueryError.self) {
      try forecast.select(
        latitude: Self.latitude, longitude: Self.longitude, time: spans[0].last + 3600, method: .nearest)
    }
    #expect(late?.description.contains("is outside every run at this point") == true)
    #expect(
      late?.description.contains("wrf/d01 2026062012 covers 2026-06-20T12:00:00Z to 2026-06-21T06:00:00Z") == true)
  }

  @Test func pruneKeepsTheNewestRunsAndOlderOnesStillNeeded() throws {
    let store = SampleFiles.temporaryDirectory("prune")
    defer { SampleFiles.remove(store) }
    let long = try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 12, seed: 1), into: store)
    let middle = try TestStores.publish(TestStores.spec(start: "2026-06-20_06:00:00", hours: 3, seed: 2), into: store)
    let newest = try TestStores.publish(TestStores.spec(start: "2026-06-20_09:00:00", hours: 6, seed: 3), into: store)
    let plan = StorePruning.plan(store: store, keep: 1)
    let actions = Dictionary(uniqueKeysWithValues: plan.map { ($0.path, $0.action) })
    #expect(actions[newest] == .keep)
    // Ends at 09 UTC, before the newest run's 15 UTC: covered, so deleted.
    #expect(actions[middle] == .delete)
    // Ends at 12 UTC, also before 15 UTC: covered too.
    #expect(actions[long] == .delete)
    #expect(FileManager.default.fileExists(atPath: middle), "plan deletes nothing")

    // With a newest run that ends before the long one, the long one stays.
    let shortStore = SampleFiles.temporaryDirectory("prune-short")
    defer { SampleFiles.remove(shortStore) }
    let keeper = try TestStores.publish(
      TestStores.spec(start: "2026-06-20_00:00:00", hours: 12, seed: 1), into: shortStore)
    let short = try TestStores.publish(
      TestStores.spec(start: "2026-06-20_06:00:00", hours: 3, seed: 2), into: shortStore)
    let decisions = try StorePruning.prune(store: shortStore, keep: 1)
    let shortActions = Dictionary(uniqueKeysWithValues: decisions.map { ($0.path, $0.action) })
    #expect(shortActions[short] == .keep)
    #expect(shortActions[keeper] == .keepStillNeeded(until: try #require(UTC.parseWRF("2026-06-20_12:00:00"))))
    #expect(FileManager.default.fileExists(atPath: keeper))
  }

  @Test func readersSwitchToANewRunWithoutErrorsWhilePruneRemovesTheOldOne() async throws {
    let store = SampleFiles.temporaryDirectory("live")
    defer { SampleFiles.remove(store) }
    let old = try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 12, seed: 1), into: store)
    let forecast = try ForecastStore(path: store)
    let time = try #require(UTC.parseWRF("2026-06-20_09:00:00"))
    let oldCube = try forecast.select(latitude: Self.latitude, longitude: Self.longitude, time: time, method: .nearest)
    let oldTemp = try oldCube.0.value(try oldCube.0.metric("temp"), at: oldCube.1, time: time)

    let shared = ReaderLog()
    let readers = (0..<2).map { reader in
      Task.detached {
        while !shared.stop.load(ordering: .relaxed) {
          do {
            let (cube, location) = try forecast.select(
              latitude: Self.latitude, longitude: Self.longitude, time: time, method: .nearest)
            let value = try cube.value(try cube.metric("temp"), at: location, time: time)
            shared.record(reader: reader, run: cube.run, ok: value != nil)
          } catch {
            shared.record(reader: reader, run: "error: \(error)", ok: false)
          }
          await Task.yield()
        }
      }
    }
    func count(_ run: String) -> Int { shared.entries.withLock { $0.filter { $0.run == run }.count } }
    // Wait (without a deadline that could make the test flaky on a slow machine) until the
    // readers have answered from the old run, publish the new one, then wait until they
    // answer from it.
    while count("2026062000") < 20 { await Task.yield() }
    _ = try TestStores.publish(TestStores.spec(start: "2026-06-20_06:00:00", hours: 12, seed: 2), into: store)
    #expect(forecast.refresh().cubes.map(\.run) == ["2026062006", "2026062000"])
    while count("2026062006") < 20 { await Task.yield() }
    let decisions = try StorePruning.prune(store: store, keep: 1)
    #expect(decisions.contains { $0.path == old && $0.action == .delete })
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(forecast.refresh().cubes.map(\.run) == ["2026062006"])
    // Each cube was opened and verified once, the new one by the first refresh only.
    #expect(forecast.cubesOpened == 2)
    let afterPrune = count("2026062006")
    while count("2026062006") < afterPrune + 50 { await Task.yield() }
    shared.stop.store(true, ordering: .relaxed)
    for reader in readers { await reader.value }

    let seen = shared.entries.withLock { $0 }
    #expect(seen.allSatisfy { $0.ok }, "\(seen.filter { !$0.ok }.prefix(3))")
    // Once a reader saw the new run it never went back to the old one.
    for reader in 0..<2 {
      let own = seen.filter { $0.reader == reader }.map(\.run)
      let firstNew = try #require(own.firstIndex(of: "2026062006"), "reader \(reader)")
      #expect(own[firstNew...].allSatisfy { $0 == "2026062006" }, "reader \(reader)")
    }
    // A reader still holding the old cube reads it after its file is gone, unchanged.
    #expect(try oldCube.0.value(try oldCube.0.metric("temp"), at: oldCube.1, time: time) == oldTemp)
  }
}

/// What the concurrent readers saw, and the flag that stops them.
private final class ReaderLog: Sendable {
  let stop = Atomic<Bool>(false)
  let entries = Mutex<[(reader: Int, run: String, ok: Bool)]>([])

  func record(reader: Int, run: String, ok: Bool) {
    entries.withLock { $0.append((reader, run, ok)) }
  }
}
