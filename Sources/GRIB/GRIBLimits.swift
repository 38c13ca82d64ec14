/// The sizes the GRIB reader accepts, checked before anything of that size is allocated.
///
/// A GRIB message can declare a grid far larger than itself: a constant field packs any
/// number of points into no bits at all, so a file of a few hundred bytes may claim
/// 40,000 × 40,000 points. Every buffer the reader fills (coordinates, values) is sized
/// from counts that passed these limits.
public enum GRIBLimits {
  /// Points along either side of a grid: as many as a cube allows (`CubeLimits.sides`).
  public static let sides: ClosedRange<Int> = 1...100_000
  /// Points in one grid: 50 million, ten times ECMWF's 0.1° global grid (6.5 million) and
  /// twenty-five times HRRR's. The decoded values of one such message take 400 MB as
  /// doubles, the most one decode may ask for.
  public static let points: ClosedRange<Int> = 1...50_000_000

  /// What is wrong with a grid of `width` × `height` points, nil when both limits hold.
  static func problem(width: Int, height: Int) -> String? {
    guard sides.contains(width), sides.contains(height) else {
      return "\(width) × \(height) points: each side must be in \(sides.lowerBound)…\(sides.upperBound)"
    }
    // Both sides are at most 100,000 here, so the product cannot overflow.
    guard points.contains(width * height) else {
      return "\(width) × \(height) = \(width * height) points is more than the \(points.upperBound) a grid may have"
    }
    return nil
  }
}
