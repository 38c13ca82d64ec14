import Foundation

/// A point on the unit sphere. Great-circle order is dot-product order, so nearest-cell
/// search compares dot products instead of evaluating trigonometry per candidate.
public struct UnitVector: Sendable, Equatable {
  public var x: Double
  public var y: Double
  public var z: Double

  /// The point at `latitude`, `longitude` in degrees.
  @inlinable
  public init(latitude: Double, longitude: Double) {
    let phi = latitude * (.pi / 180)
    let lambda = longitude * (.pi / 180)
    let cosPhi = cos(phi)
    self.init(x: cosPhi * cos(lambda), y: cosPhi * sin(lambda), z: sin(phi))
  }

  @inlinable
  public init(x: Double, y: Double, z: Double) {
    self.x = x
    self.y = y
    self.z = z
  }

  @inlinable
  public func dot(_ other: UnitVector) -> Double { x * other.x + y * other.y + z * other.z }

  func cross(_ o: UnitVector) -> UnitVector {
    UnitVector(x: y * o.z - z * o.y, y: z * o.x - x * o.z, z: x * o.y - y * o.x)
  }

  func normalized() -> UnitVector {
    let length = dot(self).squareRoot()
    return UnitVector(x: x / length, y: y / length, z: z / length)
  }

  /// The great-circle angle to `other` in radians, accurate for tiny angles too
  /// (atan2 of the cross and dot products, not acos).
  public func angle(to other: UnitVector) -> Double {
    let c = cross(other)
    return atan2(c.dot(c).squareRoot(), dot(other))
  }

  /// Latitude in degrees.
  public var latitude: Double { atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi }
  /// Longitude in degrees, in (−180, 180].
  public var longitude: Double { atan2(y, x) * 180 / .pi }
}
