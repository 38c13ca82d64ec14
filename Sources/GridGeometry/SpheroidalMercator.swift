import Foundation

/// The normal Mercator projection on an oblate spheroid, true at one latitude (Snyder,
/// *Map Projections: A Working Manual*, §7: equations 7-6, 7-7, 7-9 and 7-10 with the
/// scale of 15-9's m at the true latitude, inverted through `Spheroid`'s series).
///
/// Plane coordinates are metres: x east from the standard longitude, y north from the
/// equator.
public struct SpheroidalMercator: Sendable {
  /// The longitude x is measured from, degrees.
  public let standardLongitude: Double
  let spheroid: Spheroid
  /// a · m(φ_true): metres per radian of longitude and of isometric latitude.
  let scale: Double

  /// The projection true at `trueLatitude` on the spheroid of semi-axes `major` ≥ `minor`
  /// metres; throws `projectionRejected` for a true latitude not strictly between the poles.
  public init(major: Double, minor: Double, trueLatitude: Double, standardLongitude: Double) throws(GeometryError) {
    spheroid = try Spheroid(major: major, minor: minor)
    guard abs(trueLatitude) < 90, standardLongitude.isFinite else {
      throw .projectionRejected(
        "a Mercator projection true at \(trueLatitude)° from \(standardLongitude)° is no projection")
    }
    self.standardLongitude = standardLongitude
    scale = major * spheroid.parallelScale(trueLatitude * .pi / 180)
  }

  /// The plane position of a point; nil at a pole, which lies at infinity.
  public func project(latitude: Double, longitude: Double) -> (x: Double, y: Double)? {
    let y = -scale * log(spheroid.conformalTangent(latitude * .pi / 180))
    guard y.isFinite else { return nil }
    return (scale * LambertConformal.wrappedDegrees(longitude - standardLongitude) * .pi / 180, y)
  }

  /// The point at a plane position, longitudes in −180…180; nil where y is not finite.
  public func unproject(x: Double, y: Double) -> (latitude: Double, longitude: Double)? {
    guard x.isFinite, y.isFinite else { return nil }
    let phi = spheroid.latitude(conformalTangent: exp(-y / scale))
    return (phi * 180 / .pi, LambertConformal.wrappedDegrees(standardLongitude + x / scale * 180 / .pi))
  }
}
