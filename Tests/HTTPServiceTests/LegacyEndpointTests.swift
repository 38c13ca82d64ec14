import FaceKit
import Forecast
import Foundation
import LegacyFace
import Meteorology
import PointQuery
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// The iPhone app's four endpoints against a real server over the sample run, called with
/// the original documentation's example parameters (longitude sign corrected), checked for
/// the shapes the app expects and against the library's own answers.
@Suite struct LegacyEndpointTests {
  static let point = "lon=-8.9341&lat=38.1294"
  static let metricNames = LegacyAnswers.metrics.map(\.name)

  static func forecaster() throws -> Forecaster { try #require(SampleService.forecaster) }

  static var request: ForecastRequest {
    ForecastRequest(latitude: SampleService.latitude, longitude: SampleService.longitude)
  }

  /// `value` as the server prints it: rounded to the metric's display precision.
  static func shown(_ value: Double?, _ metric: Metric) -> Double? {
    value.map { Double(JSONText.number($0, decimals: metric.decimals)) ?? .nan }
  }

  /// A JSON number or null as `Double?`; fails the test on anything else.
  static func number(_ value: Any?, _ context: String) throws -> Double? {
    if value is NSNull { return nil }
    return try #require((value as? NSNumber)?.doubleValue, "\(context): \(String(describing: value)) is not a number")
  }

  static func response(_ path: String) async throws -> Any {
    let answer = try await SampleService.server().client.get(path)
    #expect(answer.status == 200, "\(path): \(answer.body)")
    #expect(answer.mediaType == "application/json")
    let object = try #require(answer.json as? [String: Any], "\(path): \(answer.body)")
    #expect(Array(object.keys) == ["response"])
    return try #require(object["response"])
  }

  @Test(arguments: ["20260620_00", "20260621_12", "20260622_23", "20260623_00"])
  func quickPrevByDateHasEveryMetricNowAndTheDaysTemperatureRange(date: String) async throws {
    let response = try #require(
      try await Self.response("/QuickPrevByDate.php?\(Self.point)&date=\(date)") as? [String: [String: Any]])
    #expect(Set(response.keys) == Set(Self.metricNames))
    let fields = try #require(LegacyParameters.dateFields(date))
    let time = try #require(
      UTC.seconds(year: fields.year, month: fields.month, day: fields.day, hour: fields.hour ?? 0))
    let expected = try Self.forecaster().current(Self.request, metrics: LegacyAnswers.metrics, at: time)
    for (metric, value) in zip(LegacyAnswers.metrics, expected.values) {
      let object = try #require(response[metric.name])
      #expect(Set(object.keys) == (metric == .temp ? ["max", "min", "now"] : ["now"]), "\(metric)")
      let now = try #require(try Self.number(object["now"], "\(metric).now"), "\(metric) has no value now")
      #expect(now == Self.shown(value, metric), "\(metric) at \(date)")
    }
    let temp = try #require(response["temp"])
    let now = try #require(try Self.number(temp["now"], "temp.now"))
    let max = try #require(try Self.number(temp["max"], "temp.max"))
    let min = try #require(try Self.number(temp["min"], "temp.min"))
    #expect(max >= now && now >= min)
    #expect(max == Self.shown(expected.temperatureMaximum, .temp))
    #expect(min == Self.shown(expected.temperatureMinimum, .temp))

    // The same value read straight from the cube, without the forecast library.
    let cube = try #require(try Self.forecaster().catalog.cubes.first)
    let location = try cube.locate(
      latitude: SampleService.latitude, longitude: SampleService.longitude, method: .nearest)
    #expect(now == Self.shown(try cube.value(try cube.metric("temp"), at: location, time: time), .temp))
  }

  @Test func prevByDateAndMetricGives24ValuesFromMidnightUTC() async throws {
    let day = try LocalDate(parsing: "2026-06-21")
    for metric in LegacyAnswers.metrics {
      for date in ["20260621", "20260621_17"] {
        let response = try #require(
          try await Self.response("/PrevByDateAndMetric.php?\(Self.point)&metric=\(metric.name)&date=\(date)")
            as? [String: Any])
        #expect(Array(response.keys) == ["points"])
        let points = try #require(response["points"] as? [Any])
        #expect(points.count == 24)
        let expected = try Self.forecaster().day(Self.request, metrics: [metric], date: day).values[0]
        for (hour, point) in points.enumerated() {
          #expect(
            try Self.number(point, "\(metric)[\(hour)]") == Self.shown(expected[hour], metric), "\(metric) \(hour)")
        }
      }
    }
  }

  @Test(arguments: [0, 3, 7])
  func medianPrevByDaysGivesDaysPlusOneSummaries(days: Int) async throws {
    let response = try #require(
      try await Self.response("/MedianPrevByDays.php?\(Self.point)&date=20260620&days=\(days)") as? [[String: Any]])
    #expect(response.count == days + 1)
    let summaries = try Self.forecaster().daily(
      Self.request, metrics: LegacyAnswers.metrics, from: try LocalDate(parsing: "2026-06-20"), days: days + 1)
    for (index, (day, summary)) in zip(response, summaries).enumerated() {
      #expect(Set(day.keys) == Set(Self.metricNames))
      for metric in LegacyAnswers.metrics {
        let object = try #require(day[metric.name] as? [String: Any], "day \(index) \(metric)")
        let keys: Set<String> =
          switch metric {
          case .temp: ["max", "min", "median"]
          case .rain: ["median", "sum"]
          default: ["median"]
          }
        #expect(Set(object.keys) == keys, "day \(index) \(metric)")
        let median = try Self.number(object["median"], "day \(index) \(metric).median")
        if metric == .windDir {
          #expect(median == Self.shown(summary.wind?.direction, metric), "day \(index): the mean vector's direction")
        } else {
          #expect(median == Self.shown(summary.statistics(of: metric)?.median, metric), "day \(index) \(metric)")
        }
      }
      let temp = try #require(day["temp"] as? [String: Any])
      if let max = try Self.number(temp["max"], "max"), let min = try Self.number(temp["min"], "min"),
        let median = try Self.number(temp["median"], "median")
      {
        #expect(max >= median && median >= min)
      }
      let rain = try #require(day["rain"] as? [String: Any])
      #expect(try Self.number(rain["sum"], "sum") == Self.shown(summary.statistics(of: .rain)?.sum, .rain))
    }
    // The run covers 2026-06-20…22 whole: those days have every value.
    for day in response.prefix(3) {
      for metric in Self.metricNames {
        #expect((day[metric] as? [String: Any])?.values.allSatisfy { $0 is NSNumber } == true, "\(metric)")
      }
    }
  }

  @Test func prevForNextHoursByMetricGivesThe24HoursFromDate() async throws {
    let start = try #require(UTC.seconds(year: 2026, month: 6, day: 21, hour: 12))
    for metric in LegacyAnswers.metrics {
      let response = try #require(
        try await Self.response("/PrevForNextHoursByMetric.php?\(Self.point)&metric=\(metric.name)&date=20260621_12")
          as? [String: Any])
      let points = try #require(response["points"] as? [Any])
      #expect(points.count == 24)
      let expected = try Self.forecaster().nextHours(Self.request, metrics: [metric], from: start, count: 24).values[0]
      for (hour, point) in points.enumerated() {
        let value = try Self.number(point, "\(metric)[\(hour)]")
        #expect(value != nil, "\(metric) hour \(hour) is inside the run")
        #expect(value == Self.shown(expected[hour], metric), "\(metric) \(hour)")
      }
    }
  }

  @Test func theDocumentationsUncorrectedLongitudeIsOutsideWithASignHint() async throws {
    let client = try await SampleService.server().client
    for path in [
      "/QuickPrevByDate.php?lon=8.9341&lat=38.1294&date=20260621_12",
      "/PrevByDateAndMetric.php?lon=8.9341&lat=38.1294&metric=temp&date=20260621",
      "/MedianPrevByDays.php?lon=8.9341&lat=38.1294&date=20260621&days=3",
      "/PrevForNextHoursByMetric.php?lon=8.9341&lat=38.1294&metric=temp&date=20260621_12",
    ] {
      let answer = try await client.get(path)
      #expect(answer.status == 404, "\(path)")
      let message = try #require(answer.errorMessage, "\(path): \(answer.body)")
      #expect(message.contains("outside the domain"))
      #expect(message.contains("did you mean longitude -8.9341?"))
    }
  }

  @Test func badParametersGet400NamingTheParameterAndItsFormat() async throws {
    let client = try await SampleService.server().client
    let cases: [(String, String, String)] = [
      ("/QuickPrevByDate.php?lon=-8.9341&date=20260621_12", "lat", "missing"),
      ("/QuickPrevByDate.php?\(Self.point)&date=20131301_25", "date", "yyyyMMdd_HH"),
      ("/QuickPrevByDate.php?\(Self.point)&date=20260621", "date", "yyyyMMdd_HH"),
      ("/PrevByDateAndMetric.php?\(Self.point)&metric=temperature&date=20260621", "metric", "known metrics"),
      ("/PrevByDateAndMetric.php?\(Self.point)&metric=temp&date=2026-06-21", "date", "yyyyMMdd"),
      ("/MedianPrevByDays.php?\(Self.point)&date=20260621&days=8", "days", "0…7"),
      ("/MedianPrevByDays.php?\(Self.point)&date=20260621&days=-1", "days", "0…7"),
      ("/MedianPrevByDays.php?\(Self.point)&date=20260621", "days", "missing"),
      ("/PrevForNextHoursByMetric.php?lon=-8.9341&lat=NaN&metric=temp&date=20260621_12", "lat", "−90…90"),
      ("/PrevForNextHoursByMetric.php?lon=inf&lat=38.1294&metric=temp&date=20260621_12", "lon", "−180…360"),
    ]
    for (path, parameter, allowed) in cases {
      let answer = try await client.get(path)
      #expect(answer.status == 400, "\(path)")
      let message = try #require(answer.errorMessage, "\(path): \(answer.body)")
      #expect(message.hasPrefix("\(parameter):"), "\(path): \(message)")
      #expect(message.contains(allowed), "\(path): \(message)")
    }
  }

  @Test func parametersTheAppMayAddAreIgnored() async throws {
    let answer = try await SampleService.server().client.get(
      "/QuickPrevByDate.php?\(Self.point)&date=20260621_12&appVersion=1.2&_=1718000000")
    #expect(answer.status == 200, "\(answer.body)")
  }

  @Test func timesNoRunCoversAre404NamingWhatTheRunCovers() async throws {
    let answer = try await SampleService.server().client.get("/QuickPrevByDate.php?\(Self.point)&date=20260625_12")
    #expect(answer.status == 404)
    #expect(answer.errorMessage?.contains("2026-06-20T00:00:00Z to 2026-06-23T00:00:00Z") == true, "\(answer.body)")
  }
}
