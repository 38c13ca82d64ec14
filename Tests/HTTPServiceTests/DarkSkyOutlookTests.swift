import DarkSkyFace
import Forecast
import Foundation
import Synchronization
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// Dark Sky outlooks held between requests: a server that keeps them answers byte for byte
/// what a server computing every answer whole answers, at several moments of an hour, in the
/// next hour and after a run is published; and the cache makes each outlook once per point,
/// hour and catalog, as its metrics count.
@Suite struct DarkSkyOutlookTests {
  /// A clock the test moves, shared by both servers.
  final class TestClock: Sendable {
    private let seconds: Atomic<Int64>
    init(_ start: Int64) { seconds = Atomic(start) }
    var now: Int64 { seconds.load(ordering: .relaxed) }
    func set(_ value: Int64) { seconds.store(value, ordering: .relaxed) }
  }

  static let queries = [
    "39.4,-8.1?units=si", "39.4,-8.1?units=us&exclude=minutely", "38.9,-8.6?units=ca&extend=hourly",
    "38.9,-8.6?units=uk2&exclude=daily,alerts", "39.4,-8.1?exclude=hourly", "38.9,-8.6?units=auto",
  ]

  /// The value of `nwpcube_darksky_outlooks_total{result="…"}` in a `/metrics` text.
  static func outlooks(_ result: String, in metrics: String) -> Int? {
    let prefix = "nwpcube_darksky_outlooks_total{result=\"\(result)\"} "
    return metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
  }

  @Test func heldOutlooksAnswerWhatWholeAnswersAnswerThroughHoursAndPublishes() async throws {
    let store = SampleFiles.temporaryDirectory("darksky-outlooks")
    defer { SampleFiles.remove(store) }
    try TestStores.publish(TestStores.spec(start: "2026-10-23_12:00:00", hours: 216, seed: 41), into: store)
    let hour = try #require(UTC.seconds(year: 2026, month: 10, day: 24, hour: 10))
    let clock = TestClock(hour)
    var settings = ServiceSettings(store: store, clock: { clock.now }, places: SampleService.places)
    settings.alerts = SampleService.alerts
    let held = try await LiveServer.start(settings)
    settings.darkSkyOutlooks = 0
    let whole = try await LiveServer.start(settings)

    var bodies: [String: String] = [:]
    func compare(at instant: Int64) async throws {
      clock.set(instant)
      for query in Self.queries {
        let (a, b) = (
          try await held.client.get("/forecast/k/\(query)"), try await whole.client.get("/forecast/k/\(query)")
        )
        #expect(a.status == 200 && b.status == 200, "\(query): \(a.body.prefix(200)) \(b.body.prefix(200))")
        #expect(a.body == b.body, "\(query) at \(UTC.iso8601(instant)): the held outlook's answer differs")
        // `currently` is read for each request: the same query a few minutes later differs.
        if let earlier = bodies[query] { #expect(earlier != a.body, "\(query): the whole document was held") }
        bodies[query] = a.body
      }
    }
    // Three moments of one hour, then the next hour.
    for minutes in [7, 31, 58, 67] { try await compare(at: hour + Int64(minutes) * 60 + 13) }
    let count = Self.queries.count
    var metrics = try await held.client.get("/metrics").body
    #expect(Self.outlooks("miss", in: metrics) == 2 * count, "one outlook per query and hour")
    #expect(Self.outlooks("hit", in: metrics) == 2 * count)
    #expect(Self.outlooks("miss", in: try await whole.client.get("/metrics").body) == nil)

    // A newer run: both servers take it in, and the held outlooks of the old catalog go unused.
    try TestStores.publish(TestStores.spec(start: "2026-10-24_06:00:00", hours: 200, seed: 42), into: store)
    for server in [held, whole] {
      // `/metrics` counts the runs of the catalog answers come from (`/v1/runs` lists the
      // store's files, which are there before the server's next scan).
      try await server.waitUntil("the new run is served") {
        try await server.client.get("/metrics").body.split(separator: "\n").contains {
          $0.hasPrefix("nwpcube_runs ") && Double($0.dropFirst("nwpcube_runs ".count)) == 2
        }
      }
    }
    bodies = [:]
    try await compare(at: hour + 67 * 60 + 13)
    for query in Self.queries {
      #expect(bodies[query]?.contains("wrf/d01 2026102406") == true, "\(query) answered from the old run")
    }
    metrics = try await held.client.get("/metrics").body
    #expect(Self.outlooks("miss", in: metrics) == 3 * count)
    #expect(Self.outlooks("hit", in: metrics) == 2 * count)
  }

  @Test func aFullCacheDropsPastHoursAndCatalogsFirst() throws {
    let cache = DarkSkyOutlookCache(capacity: 2, metrics: ServiceMetrics())
    let start = try #require(UTC.seconds(year: 2026, month: 6, day: 21, hour: 10))
    func query(_ latitude: Double, _ time: Int64) -> DarkSkyQuery {
      DarkSkyQuery(request: ForecastRequest(latitude: latitude, longitude: -8.9), time: time, units: .si)
    }
    let made = Mutex(0)
    func fetch(_ latitude: Double, _ time: Int64, catalog: UInt64 = 1) throws -> Int {
      let query = query(latitude, time)
      let key = try #require(DarkSkyOutlookCache.Key(query, catalog: catalog))
      let before = made.withLock { $0 }
      _ = try cache.entry(key) { () throws(ForecastError) in
        made.withLock { $0 += 1 }
        let outlook = DarkSkyOutlook(sources: [])
        return DarkSkyOutlookCache.Entry(
          outlook: outlook, written: DarkSkyDocument.WrittenBlocks(outlook, query: query))
      }
      return made.withLock { $0 } - before
    }
    #expect(try fetch(38, start + 60) == 1)
    #expect(try fetch(39, start + 120) == 1)
    #expect(try fetch(38, start + 3_599) == 0, "the same point in the same hour is held")
    #expect(try fetch(38, start + 3_600) == 1, "the next hour is a new outlook")
    #expect(cache.count == 1, "a full cache drops the past hour's outlooks")
    #expect(try fetch(38, start + 3_600, catalog: 2) == 1, "a new catalog is a new outlook")
    #expect(try fetch(39, start + 3_600, catalog: 2) == 1)
    #expect(cache.count == 2)
    #expect(try fetch(40, start + 3_600, catalog: 2) == 1)
    #expect(cache.count == 1, "nothing past to drop: everything goes")
    let timeMachine = DarkSkyQuery(
      request: ForecastRequest(latitude: 38, longitude: -8.9), time: start, isTimeMachine: true)
    #expect(DarkSkyOutlookCache.Key(timeMachine, catalog: 1) == nil, "a Time Machine day is never held")
  }
}
