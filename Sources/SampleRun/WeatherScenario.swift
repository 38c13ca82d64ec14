import Foundation

/// The synoptic story of the sample run, on the flat Iberian map (kilometres from
/// 39.5 N 8 W) and in hours since the run start.
///
/// A summer Azores high sits to the south-west, a heat low builds over the Spanish
/// interior every afternoon, and an Atlantic low tracks east along the north of the
/// domain dragging a cold front whose rain band crosses Portugal on the first and
/// second days.
///
/// The seed shifts the timing and track a little, so that different seeds give different
/// but equally plausible runs.
struct WeatherScenario: Sendable {
  /// Unit normal of the front, pointing the way it moves (east-south-east).
  static let frontNormal = (east: cos(-15 * Double.pi / 180), north: sin(-15 * Double.pi / 180))
  /// Kilometres per hour the front advances.
  static let frontSpeed = 18.0

  /// Where the front is at the run start, along its normal (km).
  let frontStart: Double
  /// The low's position at the run start and its drift (km, km/h).
  let lowStart: (east: Double, north: Double)
  let lowDrift: (east: Double, north: Double)
  /// Random pressure ripples riding on the pattern, so that isobars are not too perfect.
  let pressureNoise: SmoothNoise

  init(seed: UInt64) {
    var generator = SplitMix64(seed: seed ^ 0x5CE7_A210)
    // The band starts over the Atlantic inside the domain, so that even a run of a few
    // hours has rain, reaches the Portuguese coast about 18 hours in and leaves the
    // domain on the third day.
    frontStart = -480 + 30 * generator.nextSigned()
    lowStart = (-750 + 80 * generator.nextSigned(), 680 + 60 * generator.nextSigned())
    lowDrift = (18 + 2 * generator.nextSigned(), -3 + generator.nextSigned())
    pressureNoise = SmoothNoise(seed: generator.next(), spacing: 320)
  }

  /// The time-dependent part of the pattern at one instant.
  struct Moment {
    let hours: Double
    let solar: SolarGeometry
    let frontPosition: Double
    let low: (east: Double, north: Double)
    /// 0…1: how deep the afternoon heat low is.
    let heatLow: Double
  }

  func moment(start: WRFDate, minutes: Double) -> Moment {
    let hours = minutes / 60
    let solar = SolarGeometry(start: start, minutes: minutes)
    let afternoon = cos(2 * Double.pi * (solar.hourUTC - 16.5) / 24)
    return Moment(
      hours: hours, solar: solar, frontPosition: frontStart + Self.frontSpeed * hours,
      low: (lowStart.east + lowDrift.east * hours, lowStart.north + lowDrift.north * hours),
      heatLow: 0.35 + 0.65 * max(0, afternoon))
  }

  /// Position along the front's normal, km; the front is where this equals
  /// `frontPosition`.
  static func acrossFront(east: Double, north: Double) -> Double {
    east * frontNormal.east + north * frontNormal.north
  }

  /// Position along the front, km, growing towards its northern (active) end.
  static func alongFront(east: Double, north: Double) -> Double {
    -east * frontNormal.north + north * frontNormal.east
  }

  /// How strongly the front rains at a point: full in the north, fading out over
  /// southern Portugal and weakening as it moves inland.
  static func rainStrength(along: Double, across: Double) -> Double {
    IberianRelief.smoothstep((along + 250) / 400)
      * (1 - 0.4 * IberianRelief.smoothstep((across - 150) / 450))
  }

  /// How far south the front's cloud and moisture reach: wider than its rain.
  static func cloudStrength(along: Double) -> Double {
    IberianRelief.smoothstep((along + 420) / 450)
  }

  /// Sea-level pressure, hPa.
  func seaLevelPressure(east: Double, north: Double, at moment: Moment) -> Double {
    let azores = 9 * Self.gaussian(east + 1200, north - 150, 1000)
    let low = -10 * Self.gaussian(east - moment.low.east, north - moment.low.north, 430)
    let across = Self.acrossFront(east: east, north: north) - moment.frontPosition
    let trough =
      -2.5 * Self.cloudStrength(along: Self.alongFront(east: east, north: north))
      * exp(-across * across / (2 * 110 * 110))
    let heat = -5 * moment.heatLow * Self.gaussian(east - 330, north - 20, 260)
    let ripple = 0.7 * pressureNoise.value(east: east - 20 * moment.hours, north: north)
    return 1014 + azores + low + trough + heat + ripple
  }

  private static func gaussian(_ dx: Double, _ dy: Double, _ sigma: Double) -> Double {
    exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
  }
}
