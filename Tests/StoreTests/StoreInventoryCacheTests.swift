import Foundation
import Testing
import _TestSupport

@testable import Store

/// `/v1/runs` lists the store through `StoreInventoryCache`, which reads a cube's header
/// again only when its file changed. Whatever happens to the store, the cached listing must
/// be the one a fresh `StoreInventory.runs(in:)` reads from disk at the same moment.
@Suite struct StoreInventoryCacheTests {
  /// The facts of a listing a client sees: name, run, hours, size and problem of each cube.
  static func described(_ runs: [StoredRun]) -> [String] {
    runs.map { "\($0.name) \($0.run) \($0.header?.stepCount ?? -1) \($0.bytes) \($0.problem ?? "")" }
  }

  @Test func aCachedListingFollowsRunsPublishedReplacedDamagedAndRemoved() throws {
    let store = SampleFiles.temporaryDirectory("inventory-cache")
    defer { SampleFiles.remove(store) }
    let cache = StoreInventoryCache()
    func expectSame(_ step: String) {
      let fresh = Self.described(StoreInventory.runs(in: store))
      #expect(Self.described(cache.runs(in: store)) == fresh, "\(step)")
      // Asked again with nothing changed: the kept headers.
      #expect(Self.described(cache.runs(in: store)) == fresh, "\(step), again")
    }
    expectSame("empty")
    let first = try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 6, seed: 1), into: store)
    expectSame("one run")
    try TestStores.publish(TestStores.spec(start: "2026-06-20_06:00:00", hours: 6, seed: 2), into: store)
    expectSame("two runs")
    #expect(cache.runs(in: store).map(\.run) == ["2026062006", "2026062000"])
    let shorter = try #require(cache.runs(in: store).first { $0.run == "2026062000" }?.header?.stepCount)
    // The same run published again, longer: same name, another file.
    try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 9, seed: 3), into: store)
    expectSame("a run replaced")
    #expect(cache.runs(in: store).first { $0.run == "2026062000" }?.header?.stepCount == shorter + 3)
    // Damaged in place: its size changes, so its header is read again and found wanting.
    let handle = try #require(FileHandle(forWritingAtPath: first))
    try handle.truncate(atOffset: 100)
    try handle.close()
    expectSame("a run truncated")
    #expect(cache.runs(in: store).contains { $0.problem != nil })
    try FileManager.default.removeItem(atPath: first)
    expectSame("a run removed")
    #expect(cache.runs(in: store).map(\.run) == ["2026062006"])
  }
}
