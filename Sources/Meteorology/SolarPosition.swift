import Foundation

/// The sun's declination and the equation of time at an instant, from the low-precision
/// solar coordinates of Meeus (Astronomical Algorithms, ch. 25) that NOAA's solar
/// calculator uses: good to about 0.01° in declination and a few seconds of time between
/// 1900 and 2100, well inside the minute a sunrise is quoted to.
struct SolarPosition {
  /// Sine and cosine of the declination: what the hour angle and altitude formulas use.
  let sinDeclination: Double
  let cosDeclination: Double
  /// Apparent minus mean solar time, in minutes.
  let equationOfTime: Double

  init(unixSeconds: Double) {
    let degree = Double.pi / 180
    let julianDay = unixSeconds / 86_400 + 2_440_587.5
    let t = (julianDay - 2_451_545) / 36_525
    let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
    let meanAnomaly = (357.52911 + t * (35_999.05029 - t * 0.0001537)) * degree
    let eccentricity = 0.016708634 - t * (0.000042037 + t * 0.0000001267)
    // Multiple angles from one sine and cosine: sunrise and sunset call this often.
    let (sinM, cosM) = (sin(meanAnomaly), cos(meanAnomaly))
    let sin2M = 2 * sinM * cosM
    let sin3M = sinM * (3 - 4 * sinM * sinM)
    let centre =
      sinM * (1.914602 - t * (0.004817 + t * 0.000014)) + sin2M * (0.019993 - t * 0.000101) + sin3M * 0.000289
    // Nutation and aberration, through the longitude of the Moon's ascending node.
    let node = (125.04 - 1934.136 * t) * degree
    let apparentLongitude = (meanLongitude + centre - 0.00569 - 0.00478 * sin(node)) * degree
    let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    let obliquity = (meanObliquity + 0.00256 * cos(node)) * degree
    let cosObliquity = cos(obliquity)
    sinDeclination = sin(obliquity) * sin(apparentLongitude)
    cosDeclination = (1 - sinDeclination * sinDeclination).squareRoot()

    // y = tan²(ε/2), by the half-angle identity.
    let y = (1 - cosObliquity) / (1 + cosObliquity)
    let (sin2L, cos2L) = (sin(2 * meanLongitude * degree), cos(2 * meanLongitude * degree))
    let radians =
      y * sin2L - 2 * eccentricity * sinM + 4 * eccentricity * y * sinM * cos2L - y * y * sin2L * cos2L
      - 1.25 * eccentricity * eccentricity * sin2M
    // One degree of hour angle is four minutes of time.
    equationOfTime = 4 * radians / degree
  }
}
