import Forecast
import Foundation
import Meteorology
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

/// The daily variables made of hourly conditions, and `is_day`, against values read
/// straight from the cubes and the sun's position computed here.
@Suite struct DailyConditionsTests {
  @Test func wetHoursTheDaysCodeAndDaylightFollowTheHourlyValues() throws {
    let (store, oldPath, newPath) = try ForecasterTests.springStore()
    defer { SampleFiles.remove(store) }
    let (old, new) = (try Cube(path: oldPath), try Cube(path: newPath))
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let lisbon = try LocalTimeZone(identifier: "Europe/Lisbon")
    let request = ForecastRequest(
      latitude: ForecasterTests.latitude, longitude: ForecasterTests.longitude, timeZone: lisbon)
    let variables = try DailyVariable.parse(list: "weather_code,precipitation_hours,daylight_duration,rain_sum")
    #expect(variables == [.weatherCode, .precipitationHours, .daylightDuration, .statistic(.rain, .sum)])
    let days = try forecaster.daily(request, variables: variables, from: try LocalDate(parsing: "2026-03-28"), days: 3)
    var wetDays = 0
    for summary in days {
      let hours = stride(from: summary.day.start, to: summary.day.end, by: 3600).map { $0 }
      let rain = try hours.map {
        try ForecasterTests.expected("rain", at: $0, old: old, new: new)
      }
      let wet = rain.compactMap { $0 }.filter { $0 >= 0.1 - 1e-9 }.count
      if wet > 0 { wetDays += 1 }
      #expect(DailyVariable.precipitationHours.value(in: summary) == Double(wet), "\(summary.day.date)")
      let codes = try hours.compactMap { hour -> WeatherCode? in
        try ForecasterTests.expected("weather_code", at: hour, old: old, new: new).flatMap {
          WeatherCode(rawValue: Int($0))
        }
      }
      #expect(codes.count == hours.count, "every hour of the sample run has a code")
      let expectedCode = WeatherCode.mostSignificant(codes).map { Double($0.rawValue) }
      #expect(DailyVariable.weatherCode.value(in: summary) == expectedCode, "\(summary.day.date)")
      let sun = summary.sun
      let daylight = try #require(sun.sunset) - (try #require(sun.sunrise))
      #expect(DailyVariable.daylightDuration.value(in: summary) == Double(daylight))
    }
    #expect(wetDays > 0, "the sample weather rains on at least one of the days")
  }

  @Test func isDayIsTheSunsStateAtTheCell() throws {
    let (store, _, newPath) = try ForecasterTests.springStore()
    defer { SampleFiles.remove(store) }
    let new = try Cube(path: newPath)
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let request = ForecastRequest(latitude: ForecasterTests.latitude, longitude: ForecasterTests.longitude)
    let start = try #require(UTC.parseISO8601("2026-03-28T00:00:00Z"))
    let series = try forecaster.nextHours(request, metrics: [.isDay], from: start, count: 48)
    let location = try new.locate(
      latitude: ForecasterTests.latitude, longitude: ForecasterTests.longitude, method: .nearest)
    var flips = 0
    for (hour, value) in zip(series.hours, series.values[0]) {
      let up = SolarEvents.isDay(latitude: location.latitude, longitude: location.longitude, at: hour.instant)
      #expect(value == (up ? 1 : 0), "\(UTC.iso8601(hour.instant))")
      if hour.instant > start, value != series.values[0][0] { flips += 1 }
    }
    #expect(flips > 0, "48 hours hold days and nights")
  }
}
