import Forecast
import Foundation
import Meteorology
import OpenMeteoFace
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// `/v1/forecast` against a real server over the sample run (whose clock stands at
/// 2026-06-21 10:07 UTC): the same documents the library renders, several points at once,
/// units, current conditions, CSV and the limits.
@Suite struct ForecastEndpointTests {
  static let point = "latitude=38.1294&longitude=-8.9341"

  static func get(_ query: String) async throws -> HTTPTestResponse {
    try await SampleService.server().client.get("/v1/forecast?\(query)")
  }

  static func object(_ answer: HTTPTestResponse) throws -> [String: Any] {
    try #require(answer.json as? [String: Any], "\(answer.status): \(answer.body.prefix(300))")
  }

  static func request(
    latitude: Double = SampleService.latitude, longitude: Double = SampleService.longitude,
    zone: String = "UTC", units: UnitSystem = .si
  ) throws -> ForecastRequest {
    ForecastRequest(
      latitude: latitude, longitude: longitude, timeZone: try LocalTimeZone(identifier: zone), units: units,
      cellSelection: ForecastParameters.defaultCellSelection)
  }

  @Test func answersAreInOpenMeteosLayoutWithNwpcubesExtras() async throws {
    let answer = try await Self.get(
      "\(Self.point)&hourly=temp,rain,wind_dir&daily=temp_max,rain_sum,wind_dir_dominant,sunrise"
        + "&current=temp,hum&timezone=Europe/Lisbon&start_date=2026-06-20&end_date=2026-06-22")
    #expect(answer.status == 200)
    #expect(answer.mediaType == "application/json")
    #expect(answer.body.hasPrefix("{\"latitude\":38.1294,\"longitude\":-8.9341,\"generationtime_ms\":"))
    let object = try Self.object(answer)
    #expect(object["utc_offset_seconds"] as? Int == 3600)
    #expect(object["timezone"] as? String == "Europe/Lisbon")
    #expect(object["timezone_abbreviation"] as? String == "WEST")
    let hourly = try #require(object["hourly"] as? [String: Any])
    #expect((hourly["time"] as? [String])?.count == 72)
    #expect((hourly["time"] as? [String])?.first == "2026-06-20T00:00")
    let current = try #require(object["current"] as? [String: Any])
    #expect(current["time"] as? String == "2026-06-21T11:00")
    #expect(current["interval"] as? Int == 900)
    #expect((object["current_units"] as? [String: String])?["interval"] == "seconds")
    #expect((object["hourly_units"] as? [String: String])?["temp"] == "°C")
    let sources = try #require(object["sources"] as? [[String: Any]])
    #expect(sources.first?["run"] as? String == "2026062000")
    #expect(sources.first?["domain"] as? String == "d01")
    #expect(object["cell"] is [String: Any])
  }

  @Test func severalPointsGiveAnArrayOfTheirAnswers() async throws {
    let both = try await Self.get(
      "latitude=38.1294,41.1579&longitude=-8.9341,-8.6291&daily=temp_max&start_date=2026-06-21&end_date=2026-06-21")
    let answers = try #require(both.json as? [[String: Any]], "\(both.body)")
    #expect(answers.count == 2)
    let first = try await Self.get("\(Self.point)&daily=temp_max&start_date=2026-06-21&end_date=2026-06-21")
    let second = try await Self.get(
      "latitude=41.1579&longitude=-8.6291&daily=temp_max&start_date=2026-06-21&end_date=2026-06-21")
    let timed = #/"generationtime_ms":[0-9.e-]+/#
    func untimed(_ text: String) -> String { text.replacing(timed, with: "\"generationtime_ms\":0") }
    #expect(untimed(both.body) == "[\(untimed(first.body)),\(untimed(second.body))]")

    let csv = try await Self.get(
      "latitude=38.1294,41.1579&longitude=-8.9341,-8.6291&hourly=temp&start_date=2026-06-21&end_date=2026-06-21"
        + "&format=csv")
    #expect(csv.mediaType == "text/csv")
    let lines = csv.body.split(separator: "\n")
    #expect(lines.first == "location_id,latitude,longitude,utc_offset_seconds,timezone,timezone_abbreviation")
    #expect(lines.filter { $0.hasPrefix("0,2026-06-21T") }.count == 24)
    #expect(lines.filter { $0.hasPrefix("1,2026-06-21T") }.count == 24)
  }

  @Test func unitsFollowThePresetAndItsOverrides() async throws {
    let answer = try await Self.get(
      "\(Self.point)&hourly=temp,wind_vel,rain,atm_press&units=uk&temperature_unit=fahrenheit&pressure_unit=inHg"
        + "&start_date=2026-06-21&end_date=2026-06-21")
    let object = try Self.object(answer)
    let units = try #require(object["hourly_units"] as? [String: String])
    #expect(
      units["temp"] == "°F" && units["wind_vel"] == "mp/h" && units["rain"] == "mm" && units["atm_press"] == "inHg")
    let celsius = try await Self.get("\(Self.point)&hourly=temp&start_date=2026-06-21&end_date=2026-06-21")
    let f = try #require((object["hourly"] as? [String: Any])?["temp"] as? [NSNumber])
    let c = try #require((try Self.object(celsius)["hourly"] as? [String: Any])?["temp"] as? [NSNumber])
    for (fahrenheit, celsius) in zip(f, c) {
      #expect(abs(fahrenheit.doubleValue - (celsius.doubleValue * 9 / 5 + 32)) < 0.02)
    }
  }

  @Test func daysCountFromTodayInTheZoneByDefault() async throws {
    let answer = try await Self.get("\(Self.point)&daily=temp_max&past_days=1&forecast_days=2")
    let daily = try #require(try Self.object(answer)["daily"] as? [String: Any])
    #expect(daily["time"] as? [String] == ["2026-06-20", "2026-06-21", "2026-06-22"])
    let week = try await Self.get("\(Self.point)&daily=temp_max")
    #expect(((try Self.object(week)["daily"] as? [String: Any])?["time"] as? [String])?.count == 7)
  }

  @Test func limitsAndMistakesAreRefusedWithTheirReason() async throws {
    let many = Array(repeating: "38.5", count: 101).joined(separator: ",")
    let manyLongitudes = Array(repeating: "-8.5", count: 101).joined(separator: ",")
    let cases: [(String, Int, String)] = [
      ("latitude=\(many)&longitude=\(manyLongitudes)&hourly=temp", 400, "at most 100"),
      ("\(Self.point)&hourly=temp&forecast_days=17", 400, "forecast_days: 17 is out of range"),
      ("\(Self.point)&hourly=temp&forecast_days=10&past_days=10", 400, "at most 16 days"),
      ("\(Self.point)&hourly=temp&start_date=2026-06-01&end_date=2026-06-30", 400, "at most 16"),
      ("\(Self.point)&hourly=temp&start_date=2026-06-20", 400, "end_date: missing"),
      ("\(Self.point)&hourly=temp&start_date=2026-06-20&forecast_days=2", 400, "cannot be combined"),
      ("\(Self.point)", 400, "nothing to answer"),
      ("\(Self.point)&hourly=temp&models=gfs", 400, "models: unknown model 'gfs'; this store has best_match, wrf/d01"),
      ("\(Self.point)&hourly=temp&start_hour=2026-06-21T06:00", 400, "end_hour: missing"),
      ("\(Self.point)&hourly=temp&forecast_hours=400", 400, "forecast_hours: 400 is out of range"),
      ("\(Self.point)&hourly=temp&timeformat=unix", 400, "timeformat: 'unix' is not allowed; give iso8601 or unixtime"),
      ("\(Self.point)&hourly=temp&cell_selection=coast", 400, "cell_selection: 'coast' is not allowed"),
      ("\(Self.point)&hourly=temp&elevation=high", 400, "elevation: 'high' is not a decimal number"),
      ("\(Self.point)&hourly=temperature", 400, "hourly: unknown variable 'temperature'; supported: temperature_2m"),
      ("\(Self.point)&daily=temp_mean", 400, "daily: unknown variable 'temp_mean'; supported: weather_code"),
      ("\(Self.point)&hourly=temp&timezone=Mars/Olympus", 400, "timezone: unknown time zone"),
      ("\(Self.point)&hourly=temp&wind_speed_unit=knots", 400, "wind_speed_unit: unknown unit"),
      ("\(Self.point)&hourly=temp&forecast_day=3", 400, "forecast_day: unknown parameter"),
      ("latitude=38.1294,41.1&longitude=-8.9341&hourly=temp", 400, "one longitude per latitude"),
      ("latitude=38.1294,38.1294&longitude=-8.9341,8.9341&hourly=temp", 404, "location_id 1"),
      ("\(Self.point)&hourly=temp&start_date=2026-07-01&end_date=2026-07-02", 404, "no run covers"),
    ]
    for (query, status, reason) in cases {
      let answer = try await Self.get(query)
      #expect(answer.status == status, "\(query.prefix(100)): \(answer.body)")
      #expect(answer.openMeteoReason?.contains(reason) == true, "\(query.prefix(100)): \(answer.body)")
    }
  }
}
