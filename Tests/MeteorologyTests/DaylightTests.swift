import Meteorology
import Testing
import UTCTime

/// Daylight and `is_day` against a brute force: the sun's state sampled every 20 seconds.
@Suite struct DaylightTests {
  /// Seconds of the day with the sun up, counting each 20 s sample by its state.
  static func sampled(latitude: Double, longitude: Double, from start: Int64, to end: Int64) -> Int64 {
    var up: Int64 = 0
    for time in stride(from: start, to: end, by: 20)
    where SolarEvents.isDay(latitude: latitude, longitude: longitude, at: time + 10) {
      up += 20
    }
    return up
  }

  @Test(arguments: [
    (38.72, -9.14, "2026-06-21"),  // Lisbon, midsummer
    (38.72, -9.14, "2026-12-21"),  // Lisbon, midwinter
    (69.65, 18.96, "2026-06-21"),  // Tromsø, polar day
    (69.65, 18.96, "2026-12-21"),  // Tromsø, polar night
    (69.65, 18.96, "2026-05-18"),  // Tromsø, the polar day's first days
    (-33.87, 151.21, "2026-03-29"),  // Sydney
    (0, -78.5, "2026-09-23"),  // the equator at the equinox
  ])
  func daylightIsTheTimeTheSunIsUp(latitude: Double, longitude: Double, date: String) throws {
    let start = try #require(UTC.parseISO8601(date + "T00:00:00Z"))
    let end = start + 86_400
    let daylight = SolarEvents.daylight(latitude: latitude, longitude: longitude, from: start, to: end)
    let sampled = Self.sampled(latitude: latitude, longitude: longitude, from: start, to: end)
    // Sampling resolves a crossing to 20 s; the crossings themselves are quoted to the second.
    #expect(abs(daylight - sampled) <= 40, "\(latitude), \(longitude) on \(date): \(daylight) s vs \(sampled) s")
    #expect((0...86_400).contains(daylight))
  }

  @Test func isDayFlipsAtSunriseAndSunset() throws {
    let start = try #require(UTC.parseISO8601("2026-06-21T00:00:00Z"))
    let sun = SolarEvents(latitude: 38.72, longitude: -9.14, from: start, to: start + 86_400)
    let (rise, set) = (try #require(sun.sunrise), try #require(sun.sunset))
    #expect(!SolarEvents.isDay(latitude: 38.72, longitude: -9.14, at: rise - 5))
    #expect(SolarEvents.isDay(latitude: 38.72, longitude: -9.14, at: rise + 5))
    #expect(SolarEvents.isDay(latitude: 38.72, longitude: -9.14, at: set - 5))
    #expect(!SolarEvents.isDay(latitude: 38.72, longitude: -9.14, at: set + 5))
  }
}
