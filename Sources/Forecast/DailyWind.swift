import Meteorology

/// One day's wind from its hourly earth-relative components.
///
/// The direction is that of the mean vector: the hourly u and v are averaged, then turned
/// into the direction the wind blows from. Averaging angles instead would make a day of
/// 350° and 10° a southerly (180°). Hours where either component is missing (nil, or NaN
/// in a buffer) are left out, as for a median; `known` says how many remain.
public struct DailyWind: Sendable, Hashable {
  /// Hours in the day, missing ones included.
  public let hours: Int
  /// Hours with both components.
  public let known: Int
  /// Where the mean wind blows from, degrees clockwise from north in [0, 360). Nil when
  /// no hour is known, or when the mean vector vanishes (a calm day, or winds that
  /// cancel), where no direction means anything.
  public let direction: Double?
  /// The mean of the hourly speeds, in the components' unit.
  public let meanSpeed: Double?
  /// The length of the mean vector, in the components' unit: near `meanSpeed` when the
  /// wind held its direction, far below it when it turned, so it says how much
  /// `direction` can be trusted.
  public let resultantSpeed: Double?

  /// The day's wind from hourly eastward (`u`) and northward (`v`) components, nil where
  /// missing; NaN counts as missing too.
  /// - Precondition: `u` and `v` hold the same hours.
  public init(u: [Double?], v: [Double?]) {
    precondition(u.count == v.count, "u has \(u.count) hours and v \(v.count)")
    self.init(hours: u.count) { index in
      guard let east = u[index], let north = v[index] else { return nil }
      return (east, north)
    }
  }

  /// The day's wind from hourly eastward (`u`) and northward (`v`) components, NaN where
  /// missing (the form `Cube.series(_:at:steps:into:)` writes).
  /// - Precondition: `u` and `v` hold the same hours.
  public init(u: UnsafeBufferPointer<Double>, v: UnsafeBufferPointer<Double>) {
    precondition(u.count == v.count, "u has \(u.count) hours and v \(v.count)")
    self.init(hours: u.count) { index in (u[index], v[index]) }
  }

  private init(hours: Int, component: (Int) -> (u: Double, v: Double)?) {
    var known = 0
    var (sumU, sumV, sumSpeed) = (0.0, 0.0, 0.0)
    for index in 0..<hours {
      guard let (u, v) = component(index), !u.isNaN, !v.isNaN else { continue }
      known += 1
      sumU += u
      sumV += v
      sumSpeed += Wind.speed(u: u, v: v)
    }
    self.hours = hours
    self.known = known
    guard known > 0 else {
      (direction, meanSpeed, resultantSpeed) = (nil, nil, nil)
      return
    }
    let (meanU, meanV) = (sumU / Double(known), sumV / Double(known))
    let resultant = Wind.speed(u: meanU, v: meanV)
    meanSpeed = sumSpeed / Double(known)
    resultantSpeed = resultant
    // Relative to the mean speed, so that the rule holds in any unit; rounding leaves
    // cancelling winds a residue around 1e-16 of their speed.
    direction = resultant > 1e-9 * sumSpeed / Double(known) ? Wind.direction(u: meanU, v: meanV) : nil
  }
}
