import Forecast
import Foundation
import Meteorology
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

/// The forecast API against generated stores, checked against values read straight from
/// the cubes and statistics computed here.
@Suite struct ForecasterTests {
  static let latitude = 39.4
  static let longitude = -8.1

  /// A store with a run across Lisbon's spring-forward day and a newer, shorter one.
  static func springStore() throws -> (store: String, old: String, new: String) {
    let store = SampleFiles.temporaryDirectory("forecast")
    let old = try TestStores.publish(TestStores.spec(start: "2026-03-28_00:00:00", hours: 72, seed: 11), into: store)
    let new = try TestStores.publish(TestStores.spec(start: "2026-03-29_06:00:00", hours: 12, seed: 12), into: store)
    return (store, old, new)
  }

  /// The value the catalog rule picks at `time`, read from the cubes opened on their own:
  /// the newer run where it covers the hour, else the older.
  static func expected(_ metric: String, at time: Int64, old: Cube, new: Cube) throws -> Double? {
    let cube = time >= new.firstTime && time <= new.lastTime ? new : old
    let location = try cube.locate(latitude: latitude, longitude: longitude, method: .nearest)
    return try cube.value(try cube.metric(metric), at: location, time: time)
  }

  /// A forecaster answers every question from the one catalog it was made with: a run
  /// published and taken in by the store meanwhile does not mix into its answers, and a
  /// forecaster made afterwards answers from the new run.
  @Test func aForecasterKeepsItsCatalogWhileTheStoreTakesInANewerRun() throws {
    let store = SampleFiles.temporaryDirectory("forecast-snapshot")
    defer { SampleFiles.remove(store) }
    let oldPath = try TestStores.publish(
      TestStores.spec(start: "2026-03-28_00:00:00", hours: 72, seed: 11), into: store)
    let live = try ForecastStore(path: store)
    let before = Forecaster(catalog: live.catalog)
    let request = ForecastRequest(latitude: Self.latitude, longitude: Self.longitude)
    let hour = try #require(UTC.parseISO8601("2026-03-29T09:00:00Z"))
    let newPath = try TestStores.publish(
      TestStores.spec(start: "2026-03-29_06:00:00", hours: 12, seed: 12), into: store)
    _ = live.refresh()
    #expect(live.catalog.cubes.count == 2)
    let (old, new) = (try Cube(path: oldPath), try Cube(path: newPath))
    let kept = try before.hourly(request, metrics: [.temp], instants: [hour])
    #expect(kept.provenance.map(\.run) == [old.run])
    #expect(kept.values[0][0] == (try Self.expected("temp", at: hour, old: old, new: old)))
    let after = try Forecaster(catalog: live.catalog).hourly(request, metrics: [.temp], instants: [hour])
    #expect(after.provenance.map(\.run) == [new.run])
    #expect(after.values[0][0] == (try Self.expected("temp", at: hour, old: old, new: new)))
    #expect(kept.values[0][0] != after.values[0][0])
  }

  @Test func dailySummariesFollowLocalDaysAndStitchRuns() throws {
    let (store, oldPath, newPath) = try Self.springStore()
    defer { SampleFiles.remove(store) }
    let (old, new) = (try Cube(path: oldPath), try Cube(path: newPath))
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let lisbon = try LocalTimeZone(identifier: "Europe/Lisbon")
    let request = ForecastRequest(latitude: Self.latitude, longitude: Self.longitude, timeZone: lisbon)
    let metrics = try Forecaster.metrics(["temp", "rain", "hum", "wind_dir"])
    let days = try forecaster.daily(
      request, metrics: metrics, from: try LocalDate(parsing: "2026-03-28"), days: 3)
    #expect(days.map(\.day.hours.count) == [24, 23, 24])

    // 2026-03-29 in Lisbon: 00:00 WET (00 UTC) to 00:00 WEST (23 UTC), 23 hours.
    let dayStart = try #require(UTC.parseISO8601("2026-03-29T00:00:00Z"))
    let hours = (0..<23).map { dayStart + Int64($0) * 3600 }
    let spring = days[1]
    #expect(spring.day.start == dayStart && spring.day.end == dayStart + 23 * 3600)
    for name in ["temp", "rain", "hum"] {
      let metric = try #require(Metric.named(name))
      let values = try hours.map { try #require(try Self.expected(name, at: $0, old: old, new: new)) }
      let sorted = values.sorted()
      let statistics = try #require(spring.statistics(of: metric))
      #expect(statistics.hours == 23 && statistics.isComplete)
      #expect(statistics.median == sorted[11], "\(name)")
      #expect(statistics.maximum == sorted.last && statistics.minimum == sorted.first, "\(name)")
      if name == "rain" {
        let total = try #require(statistics.sum)
        #expect(abs(total - values.reduce(0, +)) < 1e-9)
      }
    }
    // The mean wind, from the hourly components read here.
    let u = try hours.map { try #require(try Self.expected("wind_u", at: $0, old: old, new: new)) }
    let v = try hours.map { try #require(try Self.expected("wind_v", at: $0, old: old, new: new)) }
    let (meanU, meanV) = (u.reduce(0, +) / 23, v.reduce(0, +) / 23)
    var direction = (270 - atan2(meanV, meanU) * 180 / .pi).truncatingRemainder(dividingBy: 360)
    if direction < 0 { direction += 360 }
    #expect(abs(try #require(spring.wind?.direction) - direction) < 1e-6)
    // Both runs answered that day: the newer one from 06 to 18 UTC.
    #expect(Set(spring.provenance.map(\.run)) == ["2026032800", "2026032906"])
    #expect(days[0].provenance.map(\.run) == ["2026032800"])
    // The sun rose and set within the day, sunrise in the morning (UTC ≈ local here).
    let sunrise = try #require(spring.sun.sunrise)
    let sunset = try #require(spring.sun.sunset)
    #expect(sunrise > dayStart + 5 * 3600 && sunrise < dayStart + 8 * 3600 && sunset > sunrise + 11 * 3600)
  }

  @Test func unitsConvertEveryValueByTheExactFactors() throws {
    let (store, _, _) = try Self.springStore()
    defer { SampleFiles.remove(store) }
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let si = ForecastRequest(latitude: Self.latitude, longitude: Self.longitude)
    var us = si
    us.units = .us
    let metrics = try Forecaster.metrics(["temp", "rain", "wind_vel", "atm_press", "hum"])
    let start = try #require(UTC.parseISO8601("2026-03-28T06:00:00Z"))
    let metric = try forecaster.nextHours(si, metrics: metrics, from: start, count: 24)
    let imperial = try forecaster.nextHours(us, metrics: metrics, from: start, count: 24)
    #expect(metric.hours.count == 24 && metric.hours[23].instant == start + 23 * 3600)
    for hour in 0..<24 {
      let c = try #require(metric.values[0][hour])
      #expect(abs(try #require(imperial.values[0][hour]) - (c * 9 / 5 + 32)) < 1e-9)
      #expect(abs(try #require(imperial.values[1][hour]) - (try #require(metric.values[1][hour])) / 25.4) < 1e-12)
      let mph = try #require(metric.values[2][hour]) * 3600 / 1609.344
      #expect(abs(try #require(imperial.values[2][hour]) - mph) < 1e-9)
      let inHg = try #require(metric.values[3][hour]) * 100 / 3386.389
      #expect(abs(try #require(imperial.values[3][hour]) - inHg) < 1e-9)
      #expect(imperial.values[4][hour] == metric.values[4][hour], "percent is not converted")
    }
  }

  @Test func currentConditionsCarryTheDaysRangeAndBatchesKeepGoingPastAFailure() throws {
    let (store, _, _) = try Self.springStore()
    defer { SampleFiles.remove(store) }
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let time = try #require(UTC.parseISO8601("2026-03-28T15:00:00Z"))
    let metrics = try Forecaster.metrics(["temp", "rain", "wind_vel"])
    let requests = [
      ForecastRequest(latitude: Self.latitude, longitude: Self.longitude),
      ForecastRequest(latitude: 38.1294, longitude: 8.9341),
    ]
    let answers = forecaster.batch(requests) { forecaster, request throws(ForecastError) in
      try forecaster.current(request, metrics: metrics, at: time)
    }
    let now = try answers[0].get()
    let temp = try #require(now.value(of: .temp))
    let maximum = try #require(now.temperatureMaximum)
    let minimum = try #require(now.temperatureMinimum)
    #expect(minimum <= temp && temp <= maximum && minimum < maximum)
    #expect(now.provenance?.run == "2026032800")
    guard case .failure(.query(.outsideDomain(_, _, _, let hint))) = answers[1] else {
      Issue.record("expected outside the domain, got \(answers[1])")
      return
    }
    #expect(hint?.contains("did you mean longitude -8.9341") == true)

    // Times no run covers are an error; partly covered requests give nulls.
    let late = try #require(UTC.parseISO8601("2026-04-05T00:00:00Z"))
    let uncovered = #expect(throws: ForecastError.self) {
      try forecaster.current(requests[0], metrics: metrics, at: late)
    }
    #expect(uncovered?.description.hasPrefix("no run covers 2026-04-05T00:00:00Z to 2026-04-05T00:00:00Z") == true)
    #expect(
      uncovered?.description.contains("wrf/d01 2026032800 covers 2026-03-28T00:00:00Z to 2026-03-31T00:00:00Z") == true,
      "\(String(describing: uncovered))")
    let edge = try forecaster.nextHours(
      requests[0], metrics: metrics, from: try #require(UTC.parseISO8601("2026-03-30T22:00:00Z")), count: 4)
    #expect(edge.values[0].map { $0 != nil } == [true, true, true, false])
    #expect(edge.sourceOfHour[3] == nil)
    #expect(throws: ForecastError.outOfRange(parameter: "days", value: 17, allowed: 1...16)) {
      try forecaster.daily(requests[0], metrics: metrics, from: try LocalDate(parsing: "2026-03-28"), days: 17)
    }
    #expect(throws: ForecastError.unknownMetric("tmp")) { try Forecaster.metrics(["temp", "tmp"]) }
  }

  /// Hours between a run's output steps (3-hourly output, a zone whose hours fall at :15
  /// UTC) are interpolated in time, as the cube itself interpolates them.
  @Test func hoursBetweenOutputStepsAreInterpolated() throws {
    let store = SampleFiles.temporaryDirectory("forecast-3h")
    defer { SampleFiles.remove(store) }
    var spec = TestStores.spec(start: "2026-03-28_00:00:00", hours: 48, seed: 5)
    spec.stepMinutes = 180
    let cube = try Cube(path: try TestStores.publish(spec, into: store))
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let kathmandu = try LocalTimeZone(identifier: "Asia/Kathmandu")
    let request = ForecastRequest(latitude: Self.latitude, longitude: Self.longitude, timeZone: kathmandu)
    let metrics = try Forecaster.metrics(["temp", "wind_dir", "rain"])
    let day = try forecaster.day(request, metrics: metrics, date: try LocalDate(parsing: "2026-03-29"))
    #expect(day.hours.count == 24 && day.hours[0].instant % 3600 == 15 * 60)
    let location = try cube.locate(latitude: Self.latitude, longitude: Self.longitude, method: .nearest)
    for (index, hour) in day.hours.enumerated() {
      for (column, metric) in metrics.enumerated() {
        let expected = try cube.value(try cube.metric(metric.name), at: location, time: hour.instant)
        #expect(day.values[column][index] == expected, "\(metric.name) at \(hour.timestamp)")
      }
    }
    let utc = try forecaster.day(
      ForecastRequest(latitude: Self.latitude, longitude: Self.longitude), metrics: metrics,
      date: try LocalDate(parsing: "2026-03-28"))
    for (index, hour) in utc.hours.enumerated() {
      let expected = try cube.value(try cube.metric("temp"), at: location, time: hour.instant)
      #expect(utc.values[0][index] == expected, "temp at \(hour.timestamp)")
    }
  }
}
