import Foundation

/// The Moon's phase as the fraction of the lunation elapsed: 0 at new moon, 0.25 at first
/// quarter, 0.5 at full moon, 0.75 at last quarter, as Dark Sky's `moonPhase` gives it.
///
/// The fraction is the Moon's elongation from the Sun in ecliptic longitude over 360°. The
/// Sun's longitude is the mean longitude plus the equation of the centre; the Moon's is
/// its mean longitude plus the largest periodic terms of the lunar theory (ELP-2000/82 as
/// abridged in Meeus, *Astronomical Algorithms*, ch. 47), enough for about 0.1° of
/// elongation, i.e. the instant of a new or full moon to within about 15 minutes. Terms
/// common to both longitudes (nutation, aberration) cancel in the difference.
public enum MoonPhase {
  /// The lunation fraction, 0 ≤ phase < 1, at `time` (Unix seconds).
  public static func fraction(at time: Int64) -> Double {
    // Julian centuries of 36,525 days from J2000.0 (2000-01-01 12:00 TT; the ~70 s between
    // TT and UTC move the Moon 0.01°, far below the method's error).
    let t = (Double(time) / 86_400 + 2_440_587.5 - 2_451_545) / 36_525
    let sunMeanLongitude = 280.46646 + 36_000.76983 * t
    let sunAnomaly = radians(357.52911 + 35_999.05029 * t)
    let sunLongitude =
      sunMeanLongitude + (1.914602 - 0.004817 * t) * sin(sunAnomaly) + 0.019993 * sin(2 * sunAnomaly)
      + 0.000289 * sin(3 * sunAnomaly)

    let moonMeanLongitude = 218.3164477 + 481_267.88123421 * t
    let elongation = radians(297.8501921 + 445_267.1114034 * t)
    let moonAnomaly = radians(134.9633964 + 477_198.8675055 * t)
    let latitudeArgument = radians(93.2720950 + 483_202.0175233 * t)
    // The Earth's orbital eccentricity shrinking, which scales the terms with the Sun's anomaly.
    let e = 1 - 0.002516 * t
    let (d, m, mp, f) = (elongation, sunAnomaly, moonAnomaly, latitudeArgument)
    // Coefficients in degrees: the terms of more than 0.004°.
    let periodic =
      6.288774 * sin(mp) + 1.274027 * sin(2 * d - mp) + 0.658314 * sin(2 * d) + 0.213618 * sin(2 * mp)
      - 0.185116 * e * sin(m) - 0.114332 * sin(2 * f) + 0.058793 * sin(2 * d - 2 * mp)
      + 0.057066 * e * sin(2 * d - m - mp) + 0.053322 * sin(2 * d + mp) + 0.045758 * e * sin(2 * d - m)
      - 0.040923 * e * sin(m - mp) - 0.034720 * sin(d) - 0.030383 * e * sin(m + mp)
      + 0.015327 * sin(2 * d - 2 * f) - 0.012528 * sin(mp + 2 * f) + 0.010980 * sin(mp - 2 * f)
      + 0.010675 * sin(4 * d - mp) + 0.010034 * sin(3 * mp) + 0.008548 * sin(4 * d - 2 * mp)
      - 0.007888 * e * sin(2 * d + m - mp) - 0.006766 * e * sin(2 * d + m) - 0.005163 * sin(d - mp)
      + 0.004987 * e * sin(d + m) + 0.004036 * e * sin(2 * d - m + mp)
    let moonLongitude = moonMeanLongitude + periodic
    let degrees = (moonLongitude - sunLongitude).truncatingRemainder(dividingBy: 360)
    let fraction = (degrees < 0 ? degrees + 360 : degrees) / 360
    // A value a rounding step below 1 is the new moon again.
    return fraction < 1 ? fraction : 0
  }

  private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}
