import DarkSkyFace
import Forecast
import Foundation
import Meteorology
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// Dark Sky's `/forecast/{key}/{latitude},{longitude}[,{time}]` on a real server: its units
/// against the library's values converted with factors written here, `exclude`, `extend`,
/// the Time Machine, and local midnights on DST days.
@Suite struct DarkSkyEndpointTests {
  static let point = "\(SampleService.latitude),\(SampleService.longitude)"

  /// A store with one long run (long enough for 8 local days) and a server over it whose
  /// clock is inside the run, with the bundled gazetteer (so the zone is Europe/Lisbon).
  struct LongRun: Sendable {
    let store: String
    let now: Int64

    init(start: String, hours: Int, seed: UInt64, now: Int64) {
      let store = SampleFiles.temporaryDirectory("darksky-\(seed)")
      _ = try? TestStores.publish(TestStores.spec(start: start, hours: hours, seed: seed), into: store)
      self.store = store
      self.now = now
    }

    func server() async throws -> LiveServer {
      try await LiveServer.start(ServiceSettings(store: store, clock: { [now] in now }, places: SampleService.places))
    }

    var forecaster: Forecaster? { (try? ForecastStore(path: store)).map { Forecaster(catalog: $0.catalog) } }
  }

  /// From 2026-10-23 12 UTC for 216 hours: Lisbon's clocks go back on 2026-10-25.
  static let october = LongRun(
    start: "2026-10-23_12:00:00", hours: 216, seed: 31, now: UTC.seconds(year: 2026, month: 10, day: 24, hour: 10) ?? 0)
  /// From 2026-03-28 00 UTC for 84 hours: Lisbon's clocks go forward on 2026-03-29.
  static let march = LongRun(
    start: "2026-03-28_00:00:00", hours: 84, seed: 32, now: UTC.seconds(year: 2026, month: 3, day: 28, hour: 6) ?? 0)
  /// A point inside the small runs' grid, near Abrantes.
  static let runPoint = "39.4,-8.1"

  static func get(_ target: String, server: LiveServer? = nil) async throws -> [String: Any] {
    let live: LiveServer
    if let server { live = server } else { live = try await SampleService.server() }
    let answer = try await live.client.get(target)
    #expect(answer.status == 200, "\(target): \(answer.body.prefix(300))")
    #expect(answer.mediaType == "application/json")
    return try #require(answer.json as? [String: Any], "\(target): \(answer.body.prefix(300))")
  }

  /// The message of a Dark Sky error body, exactly `{"code": status, "error": message}`.
  static func error(_ target: String, status: Int = 400, server: LiveServer? = nil) async throws -> String {
    let live: LiveServer
    if let server { live = server } else { live = try await SampleService.server() }
    let answer = try await live.client.get(target)
    #expect(answer.status == status, "\(target): \(answer.body.prefix(300))")
    let object = try #require(answer.json as? [String: Any], "\(target): \(answer.body.prefix(300))")
    #expect(object.count == 2 && object["code"] as? Int == status, "\(target): \(answer.body)")
    return try #require(object["error"] as? String)
  }

  static func data(_ object: [String: Any], _ block: String) -> [[String: Any]] {
    ((object[block] as? [String: Any])?["data"] as? [[String: Any]]) ?? []
  }

  /// Independent conversions from °C, m/s, mm/h, m and %, per unit system.
  struct Oracle {
    let temperature: (Double) -> Double
    let wind: (Double) -> Double
    let rate: (Double) -> Double
    let distance: (Double) -> Double

    static func of(_ units: String) -> Oracle {
      let fahrenheit: (Double) -> Double = { $0 * 1.8 + 32 }
      let celsius: (Double) -> Double = { $0 }
      let mph: (Double) -> Double = { $0 / 0.44704 }
      let miles: (Double) -> Double = { $0 / 1609.344 }
      let km: (Double) -> Double = { $0 / 1000 }
      switch units {
      case "us": return Oracle(temperature: fahrenheit, wind: mph, rate: { $0 / 25.4 }, distance: miles)
      case "ca": return Oracle(temperature: celsius, wind: { $0 * 3.6 }, rate: { $0 }, distance: km)
      case "uk2": return Oracle(temperature: celsius, wind: mph, rate: { $0 }, distance: miles)
      default: return Oracle(temperature: celsius, wind: { $0 }, rate: { $0 }, distance: km)
      }
    }
  }

  static let metrics: [Metric] = [
    .temp, .apparentTemp, .dewPoint, .hum, .atmPress, .windVel, .windGusts, .cloud, .visibility, .rain,
    .precipitationProbability,
  ]

  /// Checks a data point at `time` against the library's values at `time` (the hour's
  /// amounts at `amountTime`), converted by `oracle`.
  static func check(
    _ point: [String: Any], library values: (Metric) -> Double?, amounts: (Metric) -> Double?, oracle: Oracle,
    label: String
  ) {
    func expect(_ key: String, _ expected: Double?, decimals: Int) {
      guard let expected else {
        #expect(point[key] == nil, "\(label) \(key) should be absent")
        return
      }
      let got = point[key] as? Double
      let tolerance = 0.5 * pow(10, -Double(decimals)) + 1e-9
      #expect(
        got.map { abs($0 - expected) <= tolerance } == true, "\(label) \(key): \(String(describing: got)) ≠ \(expected)"
      )
    }
    expect("temperature", values(.temp).map(oracle.temperature), decimals: 2)
    expect("apparentTemperature", values(.apparentTemp).map(oracle.temperature), decimals: 2)
    expect("dewPoint", values(.dewPoint).map(oracle.temperature), decimals: 2)
    expect("humidity", values(.hum).map { $0 / 100 }, decimals: 2)
    expect("pressure", values(.atmPress), decimals: 1)
    expect("windSpeed", values(.windVel).map(oracle.wind), decimals: 2)
    expect("windGust", values(.windGusts).map(oracle.wind), decimals: 2)
    expect("cloudCover", values(.cloud).map { $0 / 100 }, decimals: 2)
    expect("visibility", values(.visibility).map { oracle.distance(min($0, 16_093.44)) }, decimals: 2)
    expect("precipIntensity", amounts(.rain).map(oracle.rate), decimals: 4)
    expect("precipProbability", amounts(.precipitationProbability).map { $0 / 100 }, decimals: 2)
  }

  @Test func eachUnitSystemGivesItsDocumentedUnitsWithExactFactors() async throws {
    let forecaster = try #require(SampleService.forecaster)
    let request = ForecastRequest(latitude: SampleService.latitude, longitude: SampleService.longitude, units: .si)
    let now = SampleService.now
    for units in ["us", "si", "ca", "uk2"] {
      let object = try await Self.get("/forecast/k/\(Self.point)?units=\(units)")
      #expect((object["flags"] as? [String: Any])?["units"] as? String == units)
      let oracle = Oracle.of(units)
      let hours = Self.data(object, "hourly")
      #expect(!hours.isEmpty)
      let times = try hours.map { try #require($0["time"] as? Int64) }
      let series = try forecaster.hourly(
        request, metrics: Self.metrics, instants: [now] + times + times.map { $0 + 3_600 })
      func value(_ metric: Metric, _ index: Int) -> Double? {
        series.values[Self.metrics.firstIndex(of: metric) ?? 0][index]
      }
      let currently = try #require(object["currently"] as? [String: Any])
      #expect(currently["time"] as? Int64 == now)
      Self.check(
        currently, library: { value($0, 0) }, amounts: { value($0, 0) }, oracle: oracle, label: "\(units) currently")
      for (index, hour) in hours.enumerated() {
        Self.check(
          hour, library: { value($0, 1 + index) }, amounts: { value($0, 1 + times.count + index) }, oracle: oracle,
          label: "\(units) hour \(times[index])")
      }
      // The first hour is the current local hour; then one an hour.
      #expect(times.first == now - now % 3_600)
      #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 3_600 })
    }
  }

  @Test func excludeRemovesExactlyTheBlocksNamed() async throws {
    let all = try await Self.get("/forecast/k/\(Self.point)")
    for key in ["latitude", "longitude", "timezone", "offset", "currently", "minutely", "hourly", "daily", "flags"] {
      #expect(all[key] != nil, "\(key) missing")
    }
    #expect(all["alerts"] == nil, "no warnings, no alerts block")
    for block in ["currently", "minutely", "hourly", "daily", "alerts", "flags"] {
      let object = try await Self.get("/forecast/k/\(Self.point)?exclude=\(block)")
      #expect(object[block] == nil, "\(block)")
      let others = Set(all.keys).subtracting([block])
      #expect(Set(object.keys) == others, "exclude=\(block): \(object.keys.sorted())")
    }
    let none = try await Self.get("/forecast/k/\(Self.point)?exclude=currently,minutely,hourly,daily,alerts,flags")
    #expect(Set(none.keys) == ["latitude", "longitude", "timezone", "offset"])
    let message = try await Self.error("/forecast/k/\(Self.point)?exclude=hourly,weekly")
    #expect(
      message == "exclude: unknown block 'weekly'; give a comma-separated list of currently, minutely, hourly, "
        + "daily, alerts, flags")
  }

  @Test func theMinutelyBlockHas61MinutesOfTheHoursRates() async throws {
    let forecaster = try #require(SampleService.forecaster)
    let object = try await Self.get("/forecast/k/\(Self.point)?units=si")
    let minutes = Self.data(object, "minutely")
    #expect(minutes.count == 61)
    let now = SampleService.now
    let times = try minutes.map { try #require($0["time"] as? Int64) }
    #expect(times.first == now - now % 60)
    #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 60 })
    // The sample run is hourly: each minute has the rate of the model hour holding it.
    let request = ForecastRequest(latitude: SampleService.latitude, longitude: SampleService.longitude)
    let hourEnds = times.map { $0 - $0 % 3_600 + 3_600 }
    let rain = try forecaster.hourly(request, metrics: [.rain], instants: hourEnds).values[0]
    for (minute, expected) in zip(minutes, rain) {
      let got = minute["precipIntensity"] as? Double
      #expect(got.map { abs($0 - (expected ?? .nan)) <= 0.00005 } == true, "\(minute)")
    }
    #expect((object["flags"] as? [String: Any])?["nwpcube-minutely-step"] as? Int == 3_600)
    let summary = try #require((object["minutely"] as? [String: Any])?["summary"] as? String)
    #expect(summary.hasSuffix(".") && (summary.contains("for the hour") || summary.contains(" min.")), "\(summary)")
  }

  @Test func aTimeMachineRequestInsideARunAnswersAndOneOutsideIsRefused() async throws {
    let noon = try #require(UTC.seconds(year: 2026, month: 6, day: 21, hour: 12))
    for location in [
      "\(Self.point),\(noon)", "\(Self.point),2026-06-21T12:00:00Z", "\(Self.point),2026-06-21T13:00:00+01:00",
    ] {
      let object = try await Self.get("/forecast/k/\(location)")
      #expect((object["currently"] as? [String: Any])?["time"] as? Int64 == noon, "\(location)")
      #expect(object["minutely"] == nil)
      let hours = Self.data(object, "hourly")
      // The sample server has no zone finder for this point beyond the gazetteer: Lisbon.
      #expect(object["timezone"] as? String == "Europe/Lisbon")
      #expect(hours.count == 24 && hours.first?["time"] as? Int64 == noon - 13 * 3_600, "\(location)")
      #expect(Self.data(object, "daily").count == 1)
    }
    // Without a zone the time is the point's local time: 13:00 in Lisbon is 12 UTC.
    let local = try await Self.get("/forecast/k/\(Self.point),2026-06-21T13:00:00")
    #expect((local["currently"] as? [String: Any])?["time"] as? Int64 == noon)
    let outside = try await Self.error("/forecast/k/\(Self.point),2026-01-01T00:00:00Z")
    #expect(
      outside.hasPrefix(
        "time: '2026-01-01T00:00:00Z' (2026-01-01T00:00:00Z) is outside every run in the store; give a time inside "
          + "one: wrf/d01"), "\(outside)")
  }

  @Test func dailyTimesAreLocalMidnightsAcrossTheOctoberChangeAndHourlyExtends() async throws {
    let run = Self.october
    let server = try await run.server()
    defer { Task { try? await server.stop() } }
    let object = try await Self.get("/forecast/k/\(Self.runPoint)?units=si", server: server)
    #expect(object["timezone"] as? String == "Europe/Lisbon")
    let days = Self.data(object, "daily")
    #expect(days.count == 8)
    let times = try days.map { try #require($0["time"] as? Int64) }
    try Self.expectLocalMidnights(times, from: (2026, 10, 24))
    let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
    let expected: [Int64] = [24, 25, 24, 24, 24, 24, 24].map { Int64($0) * 3_600 }
    #expect(gaps == expected, "\(gaps)")
    for day in days {
      let time = try #require(day["time"] as? Int64)
      let sunrise = try #require(day["sunriseTime"] as? Int64)
      let sunset = try #require(day["sunsetTime"] as? Int64)
      #expect(time < sunrise && sunrise < sunset && sunset < time + 25 * 3_600)
      let phase = try #require(day["moonPhase"] as? Double)
      #expect((0...1).contains(phase))
      for key in ["temperatureHigh", "temperatureLow", "temperatureMin", "temperatureMax", "precipIntensity"] {
        #expect(day[key] is Double, "\(key) in \(time)")
      }
      let (low, high) = (day["temperatureMin"] as? Double ?? .nan, day["temperatureMax"] as? Double ?? .nan)
      #expect(low <= high)
    }
    #expect(Self.data(object, "hourly").count == 48)
    let extended = try await Self.get("/forecast/k/\(Self.runPoint)?extend=hourly", server: server)
    let hours = Self.data(extended, "hourly")
    #expect(hours.count == 168)
    #expect(hours.first?["time"] as? Int64 == run.now)
    let summary = try #require((extended["daily"] as? [String: Any])?["summary"] as? String)
    #expect(summary.contains("high temperatures"), "\(summary)")
    // A Time Machine request on the day itself has its 25 hours.
    let change = try await Self.get("/forecast/k/\(Self.runPoint),2026-10-25T12:00:00", server: server)
    #expect(Self.data(change, "hourly").count == 25)
    #expect(Self.data(change, "daily").first?["time"] as? Int64 == times[1])
  }

  @Test func dailyTimesAreLocalMidnightsAcrossTheMarchChange() async throws {
    let server = try await Self.march.server()
    defer { Task { try? await server.stop() } }
    let object = try await Self.get("/forecast/k/\(Self.runPoint)", server: server)
    let times = try Self.data(object, "daily").map { try #require($0["time"] as? Int64) }
    // The run covers three whole local days; only those are shown.
    #expect(times.count == 3)
    try Self.expectLocalMidnights(times, from: (2026, 3, 28))
    let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
    #expect(gaps == [24 * 3_600, 23 * 3_600])
    let change = try await Self.get("/forecast/k/\(Self.runPoint),2026-03-29T12:00:00", server: server)
    #expect(Self.data(change, "hourly").count == 23)
  }

  /// Each time is 00:00 in Europe/Lisbon of consecutive dates from `first` (by Foundation's
  /// calendar, independent of nwpcube's zone code).
  static func expectLocalMidnights(_ times: [Int64], from first: (Int, Int, Int)) throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "Europe/Lisbon"))
    let start = try #require(calendar.date(from: DateComponents(year: first.0, month: first.1, day: first.2)))
    for (index, time) in times.enumerated() {
      let date = try #require(calendar.date(byAdding: .day, value: index, to: start))
      #expect(Int64(date.timeIntervalSince1970) == time, "day \(index)")
    }
  }

  @Test func unitsAutoGoesByTheNearestPlacesCountry() async throws {
    // Portugal and Spain: si.
    let object = try await Self.get("/forecast/k/\(Self.point)?units=auto")
    #expect((object["flags"] as? [String: Any])?["units"] as? String == "si")
    // uk, Dark Sky's older name for uk2, which Pirate Weather's client sends.
    let uk = try await Self.get("/forecast/k/\(Self.point)?units=uk")
    #expect((uk["flags"] as? [String: Any])?["units"] as? String == "uk2")
    #expect(DarkSkyUnits.forCountry("US") == .us && DarkSkyUnits.forCountry("CA") == .ca)
    #expect(DarkSkyUnits.forCountry("GB") == .uk2 && DarkSkyUnits.forCountry("PT") == .si)
    #expect(DarkSkyUnits.forCountry(nil) == .si)
  }

  @Test func everyIconIsOneOfDarkSkysTenAndEverySummaryIsASentenceOrTitle() async throws {
    let object = try await Self.get("/forecast/k/\(Self.point)")
    var points = Self.data(object, "hourly") + Self.data(object, "daily")
    points += [object["currently"] as? [String: Any] ?? [:]]
    for block in ["minutely", "hourly", "daily"] { points.append(object[block] as? [String: Any] ?? [:]) }
    for point in points {
      let icon = try #require(point["icon"] as? String, "\(point)")
      #expect(DarkSkySummary.icons.contains(icon), "\(icon)")
      #expect((point["summary"] as? String)?.isEmpty == false)
    }
  }

  @Test func aServerWithKeysTakesTheKeyFromThePathAndRefusesOthersInDarkSkysShape() async throws {
    let server = try await KeyedService.server()
    let open = try await SampleService.server()
    let alice = KeyedService.key("alice")
    for name in ["alice", "bob"] {
      let answered = try await server.client.get("/forecast/\(KeyedService.key(name))/\(Self.point)")
      let expected = try await open.client.get("/forecast/any/\(Self.point)")
      #expect(answered.status == 200 && answered.body == expected.body, "\(name): \(answered.body.prefix(200))")
    }
    for key in [KeyedService.wrongKey, String(alice.dropLast()), alice + "x", alice.uppercased()] {
      let refused = try await Self.error("/forecast/\(key)/\(Self.point)", status: 401, server: server)
      #expect(refused == "path segment 2: not a valid API key", "\(key): \(refused)")
    }
    let empty = try await Self.error("/forecast//\(Self.point)", status: 401, server: server)
    #expect(
      empty == "path segment 2: empty; this server requires an API key: give it as path segment 2", "\(empty)")
    let challenged = try await server.client.get("/forecast/\(KeyedService.wrongKey)/\(Self.point)")
    #expect(challenged.headers["www-authenticate"] == #"APIKey realm="nwpcube", path-segment="2""#)
  }

  @Test func badRequestsAreRefusedByNameInDarkSkysShape() async throws {
    let cases: [(String, String)] = [
      (
        "/forecast/k/abc",
        "location: 'abc' has 1 comma-separated part; give latitude,longitude or latitude,longitude,time"
      ),
      ("/forecast/k/91,0", "latitude: '91' is out of range; give a latitude in decimal degrees, −90…90"),
      ("/forecast/k/0,181", "longitude: '181' is out of range; give an east-positive longitude"),
      ("/forecast/k/1,2,3,4", "location: '1,2,3,4' has 4 comma-separated parts; give latitude,longitude"),
      ("/forecast/k/38.1,-8.9,yesterday", "time: 'yesterday' is not a time; give Unix seconds"),
      ("/forecast/k/38.1,-8.9,2026-02-30T00:00:00", "time: '2026-02-30T00:00:00' is not a time"),
      ("/forecast/k/\(Self.point)?units=metric", "units: 'metric' is not allowed; give us, si, ca, uk2, uk, auto"),
      ("/forecast/k/\(Self.point)?extend=daily", "extend: 'daily' is not allowed; give hourly"),
      ("/forecast/k/\(Self.point)?lang=fr", "lang: 'fr' is not available; summaries are written in English only"),
    ]
    for (target, prefix) in cases {
      let message = try await Self.error(target)
      #expect(message.hasPrefix(prefix), "\(target): \(message)")
    }
    // Parameters Dark Sky did not have are ignored, as Dark Sky ignored them.
    _ = try await Self.get("/forecast/k/\(Self.point)?version=2&solar=1")
    // A point outside the domain is a question without an answer.
    let outside = try await Self.error("/forecast/k/60,40", status: 404)
    #expect(outside.hasPrefix("point 60.0, 40.0 is outside the domain"), "\(outside)")
  }
}
