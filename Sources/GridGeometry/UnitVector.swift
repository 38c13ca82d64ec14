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

  /// Scaled, summed and subtracted vectors, for building rotated frames and points between
  /// cells; the results are unit vectors only where the arithmetic makes them so. Methods
  /// rather than operators: overloading `+`, `-` and `*` slowed the type-checking of every
  /// arithmetic expression in the module.
  func scaled(_ factor: Double) -> UnitVector {
    UnitVector(x: x * factor, y: y * factor, z: z * factor)
  }

  func plus(_ other: UnitVector) -> UnitVector {
    UnitVector(x: x + other.x, y: y + other.y, z: z + other.z)
  }

  func minus(_ other: UnitVector) -> UnitVector {
    UnitVector(x: x - other.x, y: y - other.y, z: z - other.z)
  }

  /// The Euclidean length: 1 for a point on the sphere, the chord for a difference.
  var length: Double { dot(self).squareRoot() }

  func normalized() -> UnitVector {
    let norm = length
    return UnitVector(x: x / norm, y: y / norm, z: z / norm)
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
