import Foundation

/// The Lambert conformal conic projection on an oblate spheroid, with one or two standard
/// parallels (Snyder, *Map Projections: A Working Manual*, §15: equations 15-1, 15-2,
/// 15-7 to 15-11, inverted through `Spheroid`'s series).
///
/// This places the cells of a GRIB Lambert grid defined on an oblate earth (GRIB2 shapes 2,
/// 3, 4, 5, 7, 9), where spherical formulas would put them up to a few kilometres off.
///
/// Plane coordinates are metres with the origin at the cone's apex (the pole in the cone's
/// hemisphere), x towards grid east and y towards grid north, as `LambertConformal` has
/// them on WRF's sphere. A southern cone is the northern one mirrored through the equator
/// and back across the x axis.
public struct SpheroidalLambertConformal: Sendable {
  /// The cone factor n: 0 < n ≤ 1.
  public let cone: Double
  /// The longitude along which grid north is true north, degrees.
  public let standardLongitude: Double
  let spheroid: Spheroid
  /// a · F: ρ = a · F · tⁿ (15-7), the cone's hemisphere taken as north.
  let scale: Double
  /// +1 for a cone about the north pole, −1 for one about the south pole.
  let hemisphere: Double

  /// The projection true at `truelat1` and `truelat2` (equal for one standard parallel) on
  /// the spheroid of semi-axes `major` ≥ `minor` metres.
  ///
  /// Throws `projectionRejected` when the parallels describe no cone: a parallel that is
  /// not strictly between the poles, parallels on both sides of the equator, or both on it.
  public init(
    major: Double, minor: Double, truelat1: Double, truelat2: Double, standardLongitude: Double
  ) throws(GeometryError) {
    spheroid = try Spheroid(major: major, minor: minor)
    guard standardLongitude.isFinite else {
      throw .projectionRejected("the standard longitude \(standardLongitude) is not a longitude")
    }
    for latitude in [truelat1, truelat2] where !(abs(latitude) < 90) {
      throw .projectionRejected("the true latitude \(latitude)° is not strictly between the poles")
    }
    self.standardLongitude = standardLongitude
    hemisphere = truelat1 < 0 ? -1 : 1
    let phi1 = hemisphere * truelat1 * .pi / 180
    let phi2 = hemisphere * truelat2 * .pi / 180
    let (m1, t1) = (spheroid.parallelScale(phi1), spheroid.conformalTangent(phi1))
    // Parallels this close make the secant formula (15-8) 0/0; the tangent cone is its limit.
    let n =
      abs(truelat1 - truelat2) < 1e-9
      ? sin(phi1)
      : (log(m1) - log(spheroid.parallelScale(phi2))) / (log(t1) - log(spheroid.conformalTangent(phi2)))
    guard n.isFinite, n > 1e-6, n <= 1 else {
      throw .projectionRejected(
        "true latitudes \(truelat1)° and \(truelat2)° describe no cone (cone factor \(n)): they must lie on one side of the equator"
      )
    }
    cone = n
    scale = major * m1 / (n * pow(t1, n))
  }

  /// The plane position of a point, metres from the apex; nil for the pole opposite the
  /// apex, which lies at infinity.
  public func project(latitude: Double, longitude: Double) -> (x: Double, y: Double)? {
    let rho = scale * pow(spheroid.conformalTangent(hemisphere * latitude * .pi / 180), cone)
    let theta = cone * LambertConformal.wrappedDegrees(longitude - standardLongitude) * .pi / 180
    guard rho.isFinite else { return nil }
    return (rho * sin(theta), -hemisphere * rho * cos(theta))
  }

  /// The point at a plane position, longitudes in −180…180; nil at the apex (a pole, of no
  /// longitude) and beyond the cone's cut, where no point of the earth lies: a cone of n < 1
  /// opened flat covers only the sector |θ| ≤ n · 180°.
  public func unproject(x: Double, y: Double) -> (latitude: Double, longitude: Double)? {
    let towardsEquator = -hemisphere * y
    let rho = (x * x + towardsEquator * towardsEquator).squareRoot()
    let theta = atan2(x, towardsEquator)
    guard rho > 0, rho.isFinite, abs(theta) <= cone * .pi * (1 + 1e-12) else { return nil }
    let phi = spheroid.latitude(conformalTangent: pow(rho / scale, 1 / cone))
    let longitude = LambertConformal.wrappedDegrees(standardLongitude + theta / cone * 180 / .pi)
    return (hemisphere * phi * 180 / .pi, longitude)
  }
}
