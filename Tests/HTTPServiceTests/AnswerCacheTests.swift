import Foundation
import NIOCore
import Synchronization
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// Answers sent again from the answer cache: a server that keeps them answers byte for byte
/// what a server making every answer answers at the same clock (`generationtime_ms` aside),
/// takes in a published run, makes a new answer when the clock leaves the answer's quantum,
/// stays within its bytes, and never keeps an error.
@Suite struct AnswerCacheTests {
  typealias TestClock = DarkSkyOutlookTests.TestClock

  /// A store of one run around `hour`, and two servers over it on one clock: one keeping
  /// answers, one making each.
  struct Servers {
    let store: String
    let clock: TestClock
    let held: LiveServer
    let fresh: LiveServer

    static let hour = UTC.seconds(year: 2026, month: 10, day: 24, hour: 10) ?? 0

    static func start(_ name: String, heldBytes: Int = 64 << 20) async throws -> Servers {
      let store = SampleFiles.temporaryDirectory(name)
      try TestStores.publish(TestStores.spec(start: "2026-10-23_12:00:00", hours: 216, seed: 41), into: store)
      let clock = TestClock(hour + 7 * 60 + 13)
      var settings = ServiceSettings(store: store, clock: { clock.now }, places: SampleService.places)
      settings.alerts = SampleService.alerts
      settings.answerCacheBytes = heldBytes
      let held = try await LiveServer.start(settings)
      settings.answerCacheBytes = 0
      let fresh = try await LiveServer.start(settings)
      return Servers(store: store, clock: clock, held: held, fresh: fresh)
    }

    func stop() async throws {
      try await held.stop()
      try await fresh.stop()
      SampleFiles.remove(store)
    }
  }

  /// Requests of every face the cache serves.
  static let targets = [
    "/v1/forecast?latitude=39.4&longitude=-8.1&hourly=temperature_2m,precipitation,weather_code"
      + "&daily=temperature_2m_max,precipitation_sum&current=temperature_2m,wind_speed_10m&timezone=Europe/Lisbon"
      + "&forecast_days=3",
    "/v1/forecast?latitude=39.4&longitude=-8.1&hourly=temperature_2m,relative_humidity_2m&format=csv",
    "/v1/forecast?latitude=38.9,39.4&longitude=-8.6,-8.1&minutely_15=temperature_2m&past_hours=2"
      + "&forecast_hours=6&hourly=temperature_2m&timezone=auto",
    "/forecast/k/39.4,-8.1?units=si", "/forecast/k/38.9,-8.6?units=ca&extend=hourly",
    "/forecast/k/39.4,-8.1,2026-10-25T12:00:00?units=si&exclude=minutely",
    "/data/2.5/forecast?lat=39.4&lon=-8.1&units=metric&appid=k", "/data/2.5/weather?lat=38.9&lon=-8.6&appid=k",
    "/QuickPrevByDate.php?lon=-8.1&lat=39.4&date=20261024_12",
    "/PrevByDateAndMetric.php?lon=-8.1&lat=39.4&metric=temp&date=20261025",
  ]

  /// `body` without Open-Meteo's `generationtime_ms`, the one member that says how long this
  /// very answer took to make.
  static func comparable(_ body: String) -> String {
    body.replacing(#/"generationtime_ms":[0-9.eE+\-]+/#, with: "\"generationtime_ms\":_")
  }

  /// The value of the sample `name` (with its labels) in a `/metrics` text; nil when absent.
  static func metric(_ name: String, in metrics: String) -> Double? {
    metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
  }

  static let hit = "nwpcube_answer_cache_total{result=\"hit\"}"
  static let miss = "nwpcube_answer_cache_total{result=\"miss\"}"

  @Test func aHeldAnswerIsTheAnswerAFreshServerMakes() async throws {
    let servers = try await Servers.start("answer-cache-same")
    for target in Self.targets {
      let made = try await servers.held.client.get(target)
      let held = try await servers.held.client.get(target)
      let fresh = try await servers.fresh.client.get(target)
      #expect(made.status == 200 && fresh.status == 200, "\(target): \(made.body.prefix(300))")
      #expect(held.bodyBytes == made.bodyBytes, "\(target): the held answer is not the one made")
      #expect(held.headers["content-type"] == fresh.headers["content-type"])
      #expect(Self.comparable(held.body) == Self.comparable(fresh.body), "\(target): held and fresh answers differ")
    }
    // FlatBuffers: a binary `generationtime_ms`, so the held answer is compared with the
    // one made, and both with the fresh one's length.
    let flat = "/v1/forecast?latitude=39.4&longitude=-8.1&hourly=temperature_2m&format=flatbuffers"
    let (made, held) = (try await servers.held.client.get(flat), try await servers.held.client.get(flat))
    #expect(made.status == 200 && held.bodyBytes == made.bodyBytes)
    #expect(try await servers.fresh.client.get(flat).bodyBytes.count == made.bodyBytes.count)

    // The alert links name the host and scheme asked: each header set has its own answer.
    let point = "/forecast/k/39.4,-8.1?units=si"
    let proxied = try await servers.held.client.get(point, headers: ["X-Forwarded-Proto: https"])
    let proxiedFresh = try await servers.fresh.client.get(point, headers: ["X-Forwarded-Proto: https"])
    #expect(proxied.body == proxiedFresh.body, "an answer held for one scheme was sent for another")

    let metrics = try await servers.held.client.get("/metrics").body
    #expect(Self.metric(Self.hit, in: metrics) == Double(Self.targets.count + 1))
    #expect(Self.metric(Self.miss, in: metrics) == Double(Self.targets.count + 2))
    #expect(Self.metric(Self.hit, in: try await servers.fresh.client.get("/metrics").body) == nil)
    try await servers.stop()
  }

  @Test func aHeadGetsTheHeadersOfTheHeldGet() async throws {
    let servers = try await Servers.start("answer-cache-head")
    let target = "/v1/forecast?latitude=39.4&longitude=-8.1&hourly=temperature_2m&forecast_days=2"
    // HEAD first (made), then GET and HEAD again (both held).
    let first = try await servers.held.client.raw("HEAD", target)
    let get = try await servers.held.client.get(target)
    let second = try await servers.held.client.raw("HEAD", target)
    func headers(_ bytes: [UInt8]) -> [String: String] {
      let text = String(decoding: bytes, as: UTF8.self)
      var fields: [String: String] = [:]
      for line in text.split(separator: "\r\n").dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      return fields
    }
    let (a, b) = (headers(first), headers(second))
    #expect(a["content-length"] == String(get.bodyBytes.count), "HEAD's length is not the GET body's")
    #expect(a["content-length"] == b["content-length"] && a["content-type"] == b["content-type"])
    #expect(a["content-type"] == get.headers["content-type"])
    #expect(a["x-request-id"] != nil && a["x-request-id"] != b["x-request-id"], "each answer has its own id")
    let metrics = try await servers.held.client.get("/metrics").body
    #expect(Self.metric(Self.hit, in: metrics) == 2)
    try await servers.stop()
  }

  @Test func aPublishBetweenTwoRequestsGivesTheNewRunsAnswer() async throws {
    let servers = try await Servers.start("answer-cache-publish")
    let targets = [Self.targets[0], Self.targets[3], Self.targets[8]]
    var before: [String] = []
    for target in targets { before.append(try await servers.held.client.get(target).body) }
    try TestStores.publish(TestStores.spec(start: "2026-10-24_06:00:00", hours: 200, seed: 42), into: servers.store)
    for server in [servers.held, servers.fresh] {
      try await server.waitUntil("the new run is served") {
        Self.metric("nwpcube_runs", in: try await server.client.get("/metrics").body) == 2
      }
    }
    for (target, old) in zip(targets, before) {
      let (held, fresh) = (try await servers.held.client.get(target), try await servers.fresh.client.get(target))
      #expect(Self.comparable(held.body) == Self.comparable(fresh.body), "\(target): not the new run's answer")
      #expect(Self.comparable(held.body) != Self.comparable(old), "\(target): the old run's answer was sent")
    }
    #expect(try await servers.held.client.get(Self.targets[3]).body.contains("wrf/d01 2026102406"))
    try await servers.stop()
  }

  @Test func aClockInTheNextQuantumGivesANewAnswer() async throws {
    let servers = try await Servers.start("answer-cache-clock")
    let hour = Servers.hour
    let forecast = "/v1/forecast?latitude=39.4&longitude=-8.1&current=temperature_2m&timezone=Europe/Lisbon"
    let darkSky = "/forecast/k/39.4,-8.1?units=si&exclude=minutely"
    func answers(at instant: Int64) async throws -> (forecast: String, darkSky: String) {
      servers.clock.set(instant)
      let (f, d) = (try await servers.held.client.get(forecast).body, try await servers.held.client.get(darkSky).body)
      let (g, e) = (try await servers.fresh.client.get(forecast).body, try await servers.fresh.client.get(darkSky).body)
      #expect(Self.comparable(f) == Self.comparable(g), "\(UTC.iso8601(instant)): Open-Meteo")
      #expect(d == e, "\(UTC.iso8601(instant)): Dark Sky")
      return (f, d)
    }
    let first = try await answers(at: hour + 7 * 60 + 13)
    // The same second: both held.
    _ = try await answers(at: hour + 7 * 60 + 13)
    // The same quarter hour, another second: Open-Meteo's held, Dark Sky's made again.
    let later = try await answers(at: hour + 14 * 60 + 59)
    #expect(later.forecast == first.forecast, "the same quarter hour sends the held answer")
    #expect(later.darkSky != first.darkSky, "currently.time moves with the second")
    // The next quarter hour: a new current interval.
    let next = try await answers(at: hour + 15 * 60)
    #expect(Self.comparable(next.forecast) != Self.comparable(first.forecast))
    #expect(next.forecast.contains("\"time\":\"2026-10-24T11:15\""), "\(next.forecast.prefix(400))")
    let metrics = try await servers.held.client.get("/metrics").body
    #expect(Self.metric(Self.hit, in: metrics) == 3, "Open-Meteo twice, Dark Sky once")
    #expect(Self.metric(Self.miss, in: metrics) == 5)
    try await servers.stop()
  }

  @Test func aBoundedCacheStaysWithinItsBytes() async throws {
    let budget = 16_384
    let servers = try await Servers.start("answer-cache-bounded", heldBytes: budget)
    for hour in 0..<24 {
      for latitude in ["39.4", "38.9", "39.1"] {
        let target = "/QuickPrevByDate.php?lon=-8.1&lat=\(latitude)&date=20261024_\(hour < 10 ? "0" : "")\(hour)"
        let (held, fresh) = (try await servers.held.client.get(target), try await servers.fresh.client.get(target))
        #expect(held.status == 200 && held.body == fresh.body, "\(target)")
        let metrics = try await servers.held.client.get("/metrics").body
        let bytes = try #require(Self.metric("nwpcube_answer_cache_bytes", in: metrics))
        #expect(bytes <= Double(budget), "\(Int(bytes)) bytes held after \(target)")
      }
    }
    // 72 answers of about 600 bytes each with their keys: the cache was full many times over.
    let metrics = try await servers.held.client.get("/metrics").body
    #expect((Self.metric("nwpcube_answer_cache_evictions_total", in: metrics) ?? 0) > 0)
    try await servers.stop()
  }

  @Test func errorsAndTheOffSwitchAreNotCached() async throws {
    let servers = try await Servers.start("answer-cache-errors")
    let bad = [
      "/v1/forecast?latitude=99&longitude=-8.1&hourly=temperature_2m",
      "/forecast/k/39.4,-8.1?units=parsecs", "/data/2.5/weather?lat=39.4&appid=k",
      "/QuickPrevByDate.php?lon=-8.1&lat=39.4&date=2026",
    ]
    for target in bad {
      for _ in 0..<2 {
        let (held, fresh) = (try await servers.held.client.get(target), try await servers.fresh.client.get(target))
        #expect((400..<500).contains(held.status), "\(target): \(held.status)")
        #expect(held.status == fresh.status && held.body == fresh.body, "\(target)")
      }
    }
    let metrics = try await servers.held.client.get("/metrics").body
    #expect(Self.metric(Self.hit, in: metrics) == nil || Self.metric(Self.hit, in: metrics) == 0)
    #expect(Self.metric(Self.miss, in: metrics) == Double(2 * bad.count), "each error was made")
    #expect(Self.metric("nwpcube_answer_cache_bytes", in: metrics) ?? 0 == 0)
    // The server with the cache off keeps nothing and counts nothing.
    _ = try await servers.fresh.client.get(Self.targets[0])
    _ = try await servers.fresh.client.get(Self.targets[0])
    let off = try await servers.fresh.client.get("/metrics").body
    #expect(!off.contains("nwpcube_answer_cache"), "the cache is off")
    try await servers.stop()
  }

  @Test func aFullCacheDropsOldCatalogsAndPastQuantaFirstThenTheOldest() throws {
    let cache = AnswerCache(bytes: 1 << 20, entries: 3, metrics: ServiceMetrics())
    let made = Mutex<[String]>([])
    func fetch(_ name: String, catalog: UInt64, quantum: AnswerCache.Quantum, now: Int64) throws {
      let key = AnswerCache.Key(target: "/" + name, catalog: catalog, quantum: quantum.start)
      _ = try cache.answer(key, now: now, quantum: quantum) {
        made.withLock { $0.append(name) }
        return AnswerCache.Answer(headers: [:], body: ByteBuffer(string: name))
      }
    }
    func wasMade(_ name: String, catalog: UInt64, quantum: AnswerCache.Quantum, now: Int64) throws -> Bool {
      let before = made.withLock { $0.count }
      try fetch(name, catalog: catalog, quantum: quantum, now: now)
      return made.withLock { $0.count } > before
    }
    let quarter = AnswerCache.Quantum.of(1_000, seconds: 900)
    let second = AnswerCache.Quantum.of(1_000, seconds: 1)
    try fetch("a", catalog: 1, quantum: quarter, now: 1_000)
    try fetch("b", catalog: 1, quantum: second, now: 1_000)
    try fetch("c", catalog: 2, quantum: quarter, now: 1_000)
    #expect(cache.count == 3)
    // Full: the older catalog's answers go, and the answer whose second has passed.
    try fetch("d", catalog: 2, quantum: AnswerCache.Quantum.of(1_001, seconds: 1), now: 1_001)
    #expect(cache.count == 2)
    #expect(try !wasMade("c", catalog: 2, quantum: quarter, now: 1_001), "c is still held")
    try fetch("e", catalog: 2, quantum: quarter, now: 1_001)
    // Full, nothing stale: the oldest stored (c) goes.
    try fetch("f", catalog: 2, quantum: quarter, now: 1_001)
    #expect(cache.count == 3)
    #expect(try wasMade("c", catalog: 2, quantum: quarter, now: 1_001), "the oldest answer was dropped")
    #expect(try wasMade("a", catalog: 1, quantum: quarter, now: 1_001), "the old catalog's answer was dropped")

    // Bytes: many small answers in a 4 KiB cache stay within it.
    let small = AnswerCache(bytes: 4_096, entries: 1_000, metrics: ServiceMetrics())
    for index in 0..<200 {
      let key = AnswerCache.Key(target: "/\(index)", catalog: 1, quantum: 0)
      _ = try small.answer(key, now: 0, quantum: .forever) {
        AnswerCache.Answer(headers: [:], body: ByteBuffer(repeating: 65, count: 320))
      }
      #expect(small.bytes <= 4_096)
    }
    #expect(small.count > 1 && small.count < 200)
    // An answer larger than a quarter of the cache is never held.
    let big = AnswerCache.Key(target: "/big", catalog: 1, quantum: 0)
    _ = try small.answer(big, now: 0, quantum: .forever) {
      AnswerCache.Answer(headers: [:], body: ByteBuffer(repeating: 66, count: 1_100))
    }
    var remade = false
    _ = try small.answer(big, now: 0, quantum: .forever) {
      remade = true
      return AnswerCache.Answer(headers: [:], body: ByteBuffer(repeating: 66, count: 1_100))
    }
    #expect(remade, "a large answer was held")
  }

  @Test func anAnswerCacheSizeOutsideItsRangeIsRefused() throws {
    try expectServeRefuses("--answer-cache", ["-1", "65537"]) { value in
      "--answer-cache \(value) is not a number of MiB in 0…65536 (0 turns it off)"
    }
  }

  /// The Open-Meteo answer is held for a UTC quarter hour, which is exact only if no zone
  /// changes its offset inside one and every offset is a whole number of quarter hours.
  @Test func everyZoneChangesItsOffsetOnAQuarterHourInTheComingYears() throws {
    let start = Date(timeIntervalSince1970: Double(UTC.seconds(year: 2024, month: 1, day: 1, hour: 0) ?? 0))
    let end = Date(timeIntervalSince1970: Double(UTC.seconds(year: 2040, month: 1, day: 1, hour: 0) ?? 0))
    var odd: [String] = []
    for identifier in TimeZone.knownTimeZoneIdentifiers {
      guard let zone = TimeZone(identifier: identifier) else { continue }
      var instant = start
      if zone.secondsFromGMT(for: instant) % 900 != 0 { odd.append("\(identifier) offset") }
      while let next = zone.nextDaylightSavingTimeTransition(after: instant), next < end {
        let seconds = Int64(next.timeIntervalSince1970)
        if seconds % 900 != 0 || zone.secondsFromGMT(for: next) % 900 != 0 {
          odd.append("\(identifier) \(UTC.iso8601(seconds))")
        }
        instant = next
      }
    }
    #expect(odd.isEmpty, "\(odd.prefix(20))")
  }
}
