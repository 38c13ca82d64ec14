import Foundation

/// Sunrise and sunset at a point during a span of time, usually one day: a UTC day, or a
/// local day from its first to its last instant.
///
/// Times are apparent: the sun's upper limb on a sea-level horizon, i.e. its centre at
/// −0.833° (34′ of standard refraction plus the 16′ semi-diameter). Each event is found
/// from the hour angle at which the sun reaches that altitude with its position at noon,
/// then again with its position at that first estimate, so the declination's drift
/// during the day does not bias it. Terrain, temperature and pressure change real refraction by more than
/// the method's error, which is seconds.
///
/// At high latitudes a day may hold a sunrise but no sunset (or the reverse), and around
/// the solstices neither: then `polar` says whether the sun stayed up or down throughout.
public struct SolarEvents: Sendable, Hashable {
  /// The first sunrise in the span, as Unix seconds; nil if the sun does not rise in it.
  public let sunrise: Int64?
  /// The first sunset in the span, as Unix seconds; nil if the sun does not set in it.
  public let sunset: Int64?
  /// Set only when the span holds neither a sunrise nor a sunset.
  public let polar: Polar?

  /// Why a span has no sunrise and no sunset.
  public enum Polar: Sendable, Hashable {
    /// The sun stays above the horizon throughout: midnight sun.
    case polarDay
    /// The sun stays below the horizon throughout.
    case polarNight
  }

  /// The altitude of the sun's centre, in degrees, at apparent sunrise and sunset.
  public static let horizonAltitude = -0.833

  /// Whether the sun's centre is above the apparent horizon (`horizonAltitude`) at
  /// `latitude`, `longitude` and `time` (Unix seconds): the daylight sunrise and sunset
  /// bound, and what `is_day` answers.
  public static func isDay(latitude: Double, longitude: Double, at time: Int64) -> Bool {
    Horizon(latitude: latitude, longitude: longitude).isSunUp(at: Double(time))
  }

  /// Seconds from `start` up to `end` (Unix seconds) during which the sun's centre is above
  /// the apparent horizon at the point: from sunrise to sunset, the whole span in a polar
  /// day, none in a polar night, and both ends of a span in which the sun sets before it
  /// rises. A span of a day or less has at most one sunrise and one sunset, except within
  /// days of a polar day's start or end, where a second crossing is not counted.
  public static func daylight(latitude: Double, longitude: Double, from start: Int64, to end: Int64) -> Int64 {
    let sun = SolarEvents(latitude: latitude, longitude: longitude, from: start, to: end)
    return switch (sun.sunrise, sun.sunset) {
    case (nil, nil): sun.polar == .polarDay ? end - start : 0
    case (let rise?, nil): end - rise
    case (nil, let set?): set - start
    case (let rise?, let set?): rise < set ? set - rise : (set - start) + (end - rise)
    }
  }

  /// The events at `latitude` (degrees north, −90…90) and `longitude` (degrees east) from
  /// `start` up to but not including `end`, both Unix seconds.
  public init(latitude: Double, longitude: Double, from start: Int64, to end: Int64) {
    let horizon = Horizon(latitude: latitude, longitude: longitude)
    var sunrise: Double?
    var sunset: Double?
    // An event lies within half a day of its solar noon, and solar noon within 17 minutes
    // of 12:00 mean solar time, so these days' noons cover every event in the span.
    let meanNoonOffset = 43_200 - longitude * 240
    let margin = 12.5 * 3_600
    let span = Double(start)..<Double(end)
    let firstDay = ((span.lowerBound - margin - meanNoonOffset) / 86_400).rounded(.down)
    let lastDay = ((span.upperBound + margin - meanNoonOffset) / 86_400).rounded(.up)
    if firstDay.isFinite, lastDay.isFinite {
      for day in stride(from: firstDay, through: lastDay, by: 1) {
        let (rise, set) = horizon.crossings(day: day, near: span)
        if let rise, span.contains(rise) { sunrise = min(sunrise ?? rise, rise) }
        if let set, span.contains(set) { sunset = min(sunset ?? set, set) }
      }
    }
    self.sunrise = sunrise.map { Int64($0.rounded()) }
    self.sunset = sunset.map { Int64($0.rounded()) }
    if sunrise == nil, sunset == nil {
      // With no crossing in the span the sun is on one side of the horizon all through
      // it, so any instant tells which.
      let middle = Double(start) / 2 + Double(end) / 2
      polar = horizon.isSunUp(at: middle) ? .polarDay : .polarNight
    } else {
      polar = nil
    }
  }
}

/// The sun against the apparent horizon of one point.
private struct Horizon {
  let sinLatitude: Double
  let cosLatitude: Double
  let longitude: Double
  let sinHorizon = sin(SolarEvents.horizonAltitude * .pi / 180)

  init(latitude: Double, longitude: Double) {
    sinLatitude = sin(latitude * .pi / 180)
    cosLatitude = cos(latitude * .pi / 180)
    self.longitude = longitude
  }

  /// Unix seconds of the sunrise and the sunset around the solar noon of `day` (days since
  /// 1970-01-01); nil where the sun does not cross the horizon, or where the crossing is
  /// clearly outside `span` (by more than an hour, far beyond what refining moves it),
  /// which saves a solar position per day that cannot contribute.
  func crossings(day: Double, near span: Range<Double>) -> (rise: Double?, set: Double?) {
    let noon = SolarPosition(unixSeconds: day * 86_400 + 43_200 - longitude * 240)
    func crossing(rising: Bool) -> Double? {
      guard let estimate = event(day: day, rising: rising, sun: noon),
        estimate > span.lowerBound - 3_600, estimate < span.upperBound + 3_600
      else { return nil }
      // The declination moves up to 0.1° between noon and the event, up to a minute of
      // time; recomputed at the estimate it moves so little that another round changes
      // nothing.
      return event(day: day, rising: rising, sun: SolarPosition(unixSeconds: estimate))
    }
    return (crossing(rising: true), crossing(rising: false))
  }

  /// The sunrise or sunset of `day` with the sun at `sun`, or nil if it does not cross.
  private func event(day: Double, rising: Bool, sun: SolarPosition) -> Double? {
    let cosHourAngle =
      (sinHorizon - sinLatitude * sun.sinDeclination) / (cosLatitude * sun.cosDeclination)
    // Written to be false for NaN too (a pole, where the hour angle means nothing).
    guard abs(cosHourAngle) <= 1 else { return nil }
    let solarNoon = day * 86_400 + (720 - 4 * longitude - sun.equationOfTime) * 60
    let halfDay = acos(cosHourAngle) * 180 / .pi * 240
    return rising ? solarNoon - halfDay : solarNoon + halfDay
  }

  /// Whether the sun's centre is above the apparent horizon at `time` (Unix seconds).
  func isSunUp(at time: Double) -> Bool {
    let sun = SolarPosition(unixSeconds: time)
    let secondsOfDay = time - (time / 86_400).rounded(.down) * 86_400
    let solarMinutes = secondsOfDay / 60 + sun.equationOfTime + 4 * longitude
    let hourAngle = (solarMinutes / 4 - 180) * .pi / 180
    let sinAltitude = sinLatitude * sun.sinDeclination + cosLatitude * sun.cosDeclination * cos(hourAngle)
    return sinAltitude > sinHorizon
  }
}
