import Foundation

/// The sun's declination and the equation of time at an instant, from the low-precision
/// solar coordinates of Meeus (Astronomical Algorithms, ch. 25) that NOAA's solar
/// calculator uses: good to about 0.01° in declination and a few seconds of time between
/// 1900 and 2100, well inside the minute a sunrise is quoted to.
struct SolarPosition {
  /// Radians.
  let declination: Double
  /// Apparent minus mean solar time, in minutes.
  let equationOfTime: Double

  init(unixSeconds: Double) {
    let degree = Double.pi / 180
    let julianDay = unixSeconds / 86_400 + 2_440_587.5
    let t = (julianDay - 2_451_545) / 36_525
    let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
    let meanAnomaly = 357.52911 + t * (35_999.05029 - t * 0.0001537)
    let eccentricity = 0.016708634 - t * (0.000042037 + t * 0.0000001267)
    let m = meanAnomaly * degree
    let centre =
      sin(m) * (1.914602 - t * (0.004817 + t * 0.000014)) + sin(2 * m) * (0.019993 - t * 0.000101)
      + sin(3 * m) * 0.000289
    // Nutation and aberration, through the longitude of the Moon's ascending node.
    let node = (125.04 - 1934.136 * t) * degree
    let apparentLongitude = (meanLongitude + centre - 0.00569 - 0.00478 * sin(node)) * degree
    let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    let obliquity = (meanObliquity + 0.00256 * cos(node)) * degree
    declination = asin(sin(obliquity) * sin(apparentLongitude))

    let y = pow(tan(obliquity / 2), 2)
    let l0 = meanLongitude * degree
    let radians =
      y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
      - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m)
    // One degree of hour angle is four minutes of time.
    equationOfTime = 4 * radians / degree
  }
}
