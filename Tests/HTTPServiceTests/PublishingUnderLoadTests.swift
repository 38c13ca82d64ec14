import Foundation
import Logging
import PointQuery
import ServiceLifecycle
import Store
import Synchronization
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// Runs published and pruned while readers query in a loop, with the store refreshed by
/// the service `nwpcube serve` runs (`StoreRefreshService`, in a real `ServiceGroup`).
///
/// The bound is one of events, not of time: once the service has swapped in the catalog of
/// a scan (and told `onScan`), every read that begins after it answers from that catalog
/// or a later one. Waits have deadlines that only guard against a hang.
@Suite struct PublishingUnderLoadTests {
  static let latitude = 39.4
  static let longitude = -8.1
  /// Every run below covers it, so the newest one in the catalog answers.
  static let time = UTC.parseWRF("2026-06-20_15:00:00") ?? 0
  static let runs = [
    ("2026-06-20_00:00:00", "2026062000"), ("2026-06-20_06:00:00", "2026062006"), ("2026-06-20_12:00:00", "2026062012"),
  ]

  @Test func eachNewCubeIsVerifiedOnceReadersNeverErrAndSwitchAtTheNextScan() async throws {
    let store = SampleFiles.temporaryDirectory("publishing-under-load")
    defer { SampleFiles.remove(store) }
    func publish(_ index: Int) throws -> String {
      try TestStores.publish(
        TestStores.spec(start: Self.runs[index].0, hours: 18, seed: UInt64(index + 1)), into: store)
    }
    let first = try publish(0)
    let scans = ScanEvents()
    let forecast = try ForecastStore(serving: store, onScan: scans.record)
    let logger = Logger(label: "nwpcube.test.publishing")
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(services: [StoreRefreshService(store: forecast)], logger: logger))
    let service = Task { try await group.run() }

    let log = ReadLog()
    let readers = (0..<4).map { reader in
      Task.detached {
        while !log.stop.load(ordering: .relaxed) {
          // The scans told before this read began: its answer is from their last or a later one.
          let told = scans.count
          do {
            let (cube, location) = try forecast.select(
              latitude: Self.latitude, longitude: Self.longitude, time: Self.time, method: .nearest)
            let value = try cube.value(try cube.metric("temp"), at: location, time: Self.time)
            log.record(.init(reader: reader, told: told, run: cube.run, ok: value != nil))
          } catch {
            log.record(.init(reader: reader, told: told, run: "error: \(error)", ok: false))
          }
          await Task.yield()
        }
      }
    }
    /// Waits until the service has swapped in a catalog whose runs are `expected`, then until
    /// the readers have read 100 more times.
    func served(_ expected: [String]) async throws {
      try await scans.waitFor { $0 == expected }
      let reads = log.count
      try await waitUntil { log.count >= reads + 100 }
    }

    try await served(["2026062000"])
    _ = try publish(1)
    try await served(["2026062006", "2026062000"])
    #expect(try StorePruning.prune(store: store, keep: 1).contains { $0.path == first && $0.action == .delete })
    try await served(["2026062006"])
    _ = try publish(2)
    try await served(["2026062012", "2026062006"])
    _ = try StorePruning.prune(store: store, keep: 1)
    try await served(["2026062012"])
    log.stop.store(true, ordering: .relaxed)
    for reader in readers { await reader.value }
    await group.triggerGracefulShutdown()
    try await service.value

    // Three cubes were published; each was opened and verified once, by one scan, however
    // many readers were reading and however many rescans the pruning caused.
    #expect(forecast.cubesOpened == 3)
    #expect(forecast.cubesRejected == 0)
    let reads = log.entries
    let failed = reads.filter { !$0.ok }
    #expect(failed.isEmpty, "\(failed.prefix(3))")
    // Every read answered from the newest run of the last catalog told before it began, or
    // from a newer one.
    let newest = scans.catalogs.map { $0.first ?? "" }
    let late = reads.filter { $0.told > 0 && $0.run < newest[$0.told - 1] }
    #expect(late.isEmpty, "\(late.prefix(3))")
    for run in Self.runs.map(\.1) { #expect(reads.contains { $0.run == run }, "\(run)") }
  }

}

/// Waits for `condition`, with a deadline that only guards against a hang. It is long: on
/// two cores the whole suite shares Swift's two cooperative threads, and the refresh
/// service and the readers may wait behind most of it before they run (a 300 s guard was
/// once reached in a full run, while the test alone takes a second).
private func waitUntil(_ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(1800)
  while !condition() {
    try #require(ContinuousClock.now < deadline, "waited 1800 s")
    try await Task.sleep(for: .milliseconds(5))
  }
}

/// The runs of each catalog the store's scans made, in order, as `onScan` told them.
private final class ScanEvents: Sendable {
  private let seen = Mutex<[[String]]>([])

  var catalogs: [[String]] { seen.withLock { $0 } }
  var count: Int { seen.withLock { $0.count } }

  func record(_ catalog: RunCatalog) { seen.withLock { $0.append(catalog.cubes.map(\.run)) } }

  /// Waits until the last catalog told satisfies `condition`.
  func waitFor(_ condition: @escaping ([String]) -> Bool) async throws {
    try await waitUntil { catalogs.last.map(condition) ?? false }
  }
}

/// What the readers read, and the flag that stops them.
private final class ReadLog: Sendable {
  struct Read: Sendable {
    let reader: Int
    /// How many scans had been told when the read began.
    let told: Int
    let run: String
    let ok: Bool
  }

  let stop = Atomic<Bool>(false)
  private let reads = Mutex<[Read]>([])

  var entries: [Read] { reads.withLock { $0 } }
  var count: Int { reads.withLock { $0.count } }

  func record(_ read: Read) { reads.withLock { $0.append(read) } }
}
