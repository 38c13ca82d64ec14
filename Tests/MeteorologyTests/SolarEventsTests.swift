import Foundation
import Meteorology
import Testing

/// An independent oracle: the sun's altitude from the Astronomical Almanac's low-precision
/// formulas (ecliptic longitude from the mean anomaly, right ascension, Greenwich sidereal
/// time), which share no step with the library's hour-angle and equation-of-time method.
/// The Almanac gives them as good to 0.01° between 1950 and 2050.
private func sunAltitude(latitude: Double, longitude: Double, unixSeconds: Double) -> Double {
  let radian = Double.pi / 180
  let n = unixSeconds / 86_400 + 2_440_587.5 - 2_451_545
  let meanLongitude = 280.460 + 0.9856474 * n
  let g = (357.528 + 0.9856003 * n) * radian
  let lambda = (meanLongitude + 1.915 * sin(g) + 0.020 * sin(2 * g)) * radian
  let epsilon = (23.439 - 0.0000004 * n) * radian
  let rightAscension = atan2(cos(epsilon) * sin(lambda), cos(lambda)) / radian
  let declination = asin(sin(epsilon) * sin(lambda))
  let siderealTime = 280.46061837 + 360.98564736629 * n
  let hourAngle = (siderealTime + longitude - rightAscension) * radian
  let phi = latitude * radian
  return asin(sin(phi) * sin(declination) + cos(phi) * cos(declination) * cos(hourAngle)) / radian
}

/// Scans the span minute by minute for the oracle's altitude crossing −0.833°, and
/// interpolates linearly inside the minute (the altitude is smooth, so the error is well
/// under a second). Returns the first upward and downward crossing, and the altitude's
/// range over the span.
private func scan(
  latitude: Double, longitude: Double, from start: Int64, to end: Int64
)
  -> (sunrise: Double?, sunset: Double?, lowest: Double, highest: Double)
{
  var sunrise: Double?
  var sunset: Double?
  var previous = sunAltitude(latitude: latitude, longitude: longitude, unixSeconds: Double(start)) + 0.833
  var (lowest, highest) = (previous, previous)
  for time in stride(from: Double(start) + 60, through: Double(end), by: 60) {
    let current = sunAltitude(latitude: latitude, longitude: longitude, unixSeconds: time) + 0.833
    lowest = min(lowest, current)
    highest = max(highest, current)
    if (previous < 0) != (current < 0) {
      let crossing = time - 60 + 60 * previous / (previous - current)
      if crossing < Double(end) {
        if current >= 0, sunrise == nil { sunrise = crossing }
        if current < 0, sunset == nil { sunset = crossing }
      }
    }
    previous = current
  }
  return (sunrise, sunset, lowest - 0.833, highest - 0.833)
}

private func utcMidnight(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .gmt
  let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? .distantPast
  return Int64(date.timeIntervalSince1970)
}

/// Checks the library against the scan over one span.
///
/// The tolerance is the oracle's 0.01° divided by the rate the sun climbs at the horizon,
/// at most 15°/h · cos(latitude) · cos(declination): the rate falls towards the poles.
/// Up to 60° the two agree to 5 s (15 s allowed: leaving out the library's refinement at
/// the event's own declination costs up to a minute and fails); at Tromsø to under a minute
/// (60 s allowed), except on the days the sun only grazes the horizon, which no tolerance
/// covers and the tests avoid.
private func expectAgreement(
  latitude: Double, longitude: Double, from start: Int64, to end: Int64, within seconds: Double,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let events = SolarEvents(latitude: latitude, longitude: longitude, from: start, to: end)
  let oracle = scan(latitude: latitude, longitude: longitude, from: start, to: end)
  let place = "at \(latitude), \(longitude) from \(start)"
  #expect((events.sunrise == nil) == (oracle.sunrise == nil), "sunrise \(place)", sourceLocation: sourceLocation)
  #expect((events.sunset == nil) == (oracle.sunset == nil), "sunset \(place)", sourceLocation: sourceLocation)
  if let rise = events.sunrise, let expected = oracle.sunrise {
    #expect(abs(Double(rise) - expected) <= seconds, "sunrise \(place)", sourceLocation: sourceLocation)
  }
  if let set = events.sunset, let expected = oracle.sunset {
    #expect(abs(Double(set) - expected) <= seconds, "sunset \(place)", sourceLocation: sourceLocation)
  }
  #expect((events.polar == nil) == (events.sunrise != nil || events.sunset != nil), sourceLocation: sourceLocation)
}

@Suite struct SolarEventsTests {
  @Test func lisbonThroughTheYear() {
    // UTC days: at 9° W the sun rises after 05:00 UTC and sets before 21:00 UTC all year.
    for (month, day) in [(3, 20), (6, 21), (9, 23), (12, 21), (2, 1), (8, 15)] {
      let start = utcMidnight(2026, month, day)
      expectAgreement(latitude: 38.7223, longitude: -9.1393, from: start, to: start + 86_400, within: 15)
    }
    let solstice = SolarEvents(
      latitude: 38.7223, longitude: -9.1393, from: utcMidnight(2026, 6, 21), to: utcMidnight(2026, 6, 22))
    // A sanity bound that needs no oracle: Lisbon's longest day lasts about 14 h 50 min.
    let length = Double((solstice.sunset ?? 0) - (solstice.sunrise ?? 0)) / 3_600
    #expect(length > 14.6 && length < 15.0)
  }

  @Test func tromsoHasPolarNightPolarDayAndOrdinaryDays() {
    let (latitude, longitude) = (69.6492, 18.9553)
    let winter = utcMidnight(2026, 12, 15)
    let night = SolarEvents(latitude: latitude, longitude: longitude, from: winter, to: winter + 86_400)
    #expect(night.sunrise == nil && night.sunset == nil && night.polar == .polarNight)
    #expect(scan(latitude: latitude, longitude: longitude, from: winter, to: winter + 86_400).highest < -0.833)

    let summer = utcMidnight(2026, 6, 21)
    let day = SolarEvents(latitude: latitude, longitude: longitude, from: summer, to: summer + 86_400)
    #expect(day.sunrise == nil && day.sunset == nil && day.polar == .polarDay)
    #expect(scan(latitude: latitude, longitude: longitude, from: summer, to: summer + 86_400).lowest > -0.833)

    for (month, dayOfMonth) in [(2, 20), (3, 20), (4, 15), (9, 1), (10, 20)] {
      let start = utcMidnight(2026, month, dayOfMonth)
      expectAgreement(latitude: latitude, longitude: longitude, from: start, to: start + 86_400, within: 60)
    }
  }

  @Test func southernHemisphere() {
    // Local days (standard time) so that no event falls near a span's edge.
    let sydney = (latitude: -33.8688, longitude: 151.2093)
    for (month, day) in [(6, 21), (12, 21), (3, 20)] {
      let start = utcMidnight(2026, month, day) - 10 * 3_600
      expectAgreement(
        latitude: sydney.latitude, longitude: sydney.longitude, from: start, to: start + 86_400, within: 15)
    }
    let ushuaia = utcMidnight(2026, 6, 21) + 3 * 3_600
    expectAgreement(latitude: -54.8019, longitude: -68.3030, from: ushuaia, to: ushuaia + 86_400, within: 15)

    // McMurdo Station: dark through the austral winter, sunlit through the summer.
    let mcMurdo = (latitude: -77.846, longitude: 166.676)
    let june = utcMidnight(2026, 6, 21) - 12 * 3_600
    #expect(
      SolarEvents(latitude: mcMurdo.latitude, longitude: mcMurdo.longitude, from: june, to: june + 86_400).polar
        == .polarNight)
    let december = utcMidnight(2026, 12, 21) - 12 * 3_600
    #expect(
      SolarEvents(latitude: mcMurdo.latitude, longitude: mcMurdo.longitude, from: december, to: december + 86_400)
        .polar == .polarDay)
  }

  @Test func agreesWithTheScanAcrossLatitudesLongitudesAndSeasons() {
    for latitude in stride(from: -60.0, through: 60, by: 15) {
      for longitude in [-150.0, -60, 0, 45, 120, 179] {
        for dayOfYear in stride(from: 0, to: 365, by: 40) {
          // From local mean midnight, so that sunrise and sunset lie hours from the edges.
          let start = utcMidnight(2026, 1, 1) + Int64(dayOfYear * 86_400) - Int64(longitude * 240)
          expectAgreement(latitude: latitude, longitude: longitude, from: start, to: start + 86_400, within: 15)
        }
      }
    }
  }

  @Test func aSpanWithoutEventsStillSaysWhichSideTheSunIsOn() {
    // Two hours around Lisbon's noon and two around its midnight: no crossing in either.
    let noon = utcMidnight(2026, 3, 20) + 12 * 3_600
    let midday = SolarEvents(latitude: 38.7223, longitude: -9.1393, from: noon - 3_600, to: noon + 3_600)
    #expect(midday.sunrise == nil && midday.sunset == nil && midday.polar == .polarDay)
    let night = SolarEvents(latitude: 38.7223, longitude: -9.1393, from: noon + 11 * 3_600, to: noon + 13 * 3_600)
    #expect(night.polar == .polarNight)
  }
}
