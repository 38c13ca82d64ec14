import Foundation

/// Wind vectors: rotation to earth-relative components, speed and meteorological direction.
public enum Wind {
  /// Earth-relative (u, v) from grid-relative components, given the cosine and sine of the
  /// grid's rotation (WRF's COSALPHA/SINALPHA convention).
  public static func earthRelative(
    u: Double, v: Double, cosAlpha: Double, sinAlpha: Double
  ) -> (u: Double, v: Double) {
    (u * cosAlpha - v * sinAlpha, u * sinAlpha + v * cosAlpha)
  }

  /// Speed in the units of the components.
  @inlinable
  public static func speed(u: Double, v: Double) -> Double {
    (u * u + v * v).squareRoot()
  }

  /// The direction the wind blows from, in degrees clockwise from north, in [0, 360).
  @inlinable
  public static func direction(u: Double, v: Double) -> Double {
    // atan2 is in [−180°, 180°], so this is in [90°, 450°]: one subtraction wraps it.
    let degrees = 270 - atan2(v, u) * (180 / .pi)
    return degrees >= 360 ? degrees - 360 : degrees
  }
}
