import Foundation

/// The Lambert conformal conic projection as WRF uses it (`MAP_PROJ = 1`): a sphere of
/// radius 6370 km, one or two true latitudes and a standard longitude along which grid
/// north is true north.
///
/// Projected coordinates are in metres with the origin at the projection's pole and the
/// axes of a WRF grid: `x` grows towards grid east and `y` towards grid north. Only
/// differences of coordinates mean anything to a grid, so the origin is arbitrary; the
/// pole keeps both directions of the mapping free of a second reference point.
///
/// A southern-hemisphere projection (`truelat1 < 0`) is the northern one mirrored through
/// the equator and back across the x axis, so that its grid north, like WRF's, still
/// points roughly north. The true latitudes must lie strictly between the equator and a
/// pole, where a cone exists; otherwise the results are not finite.
public struct LambertConformal: Sendable {
  /// WRF's `EARTH_RADIUS_M`: the sphere every WRF map projection is computed on, which is
  /// why this is not the mean radius of the WGS84 ellipsoid.
  static let earthRadius = 6_370_000.0

  /// The first true latitude, degrees (`TRUELAT1`).
  public let truelat1: Double
  /// The second true latitude, degrees (`TRUELAT2`).
  public let truelat2: Double
  /// The longitude where grid north is true north, degrees (`STAND_LON`).
  public let standardLongitude: Double
  /// The cone factor `n`: how much of a full turn one turn of longitude becomes on the
  /// map. Always positive; the hemisphere is carried separately.
  public let cone: Double

  /// +1 for a northern-hemisphere cone, −1 for a southern one.
  private let hemisphere: Double
  /// `R · cos φ₁ / n · tan(π/4 + φ₁/2)ⁿ`, so that the distance from the pole is
  /// `ρ = scale / tan(π/4 + φ/2)ⁿ` with latitudes taken in the cone's own hemisphere.
  private let scale: Double

  /// A projection with one (`truelat1 == truelat2`) or two true latitudes.
  ///
  /// True latitudes no more than 0.1° apart are treated as a tangent cone, as WRF does,
  /// because the secant formula is 0/0 there and loses all its digits just before.
  public init(truelat1: Double, truelat2: Double, standardLongitude: Double) {
    self.truelat1 = truelat1
    self.truelat2 = truelat2
    self.standardLongitude = standardLongitude
    hemisphere = truelat1 < 0 ? -1 : 1
    let phi1 = abs(truelat1) * .pi / 180
    let phi2 = abs(truelat2) * .pi / 180
    let cone: Double
    if abs(truelat1 - truelat2) <= 0.1 {
      cone = sin(phi1)
    } else {
      cone = log(cos(phi1) / cos(phi2)) / log(tan(.pi / 4 + phi2 / 2) / tan(.pi / 4 + phi1 / 2))
    }
    self.cone = cone
    scale = Self.earthRadius * cos(phi1) / cone * pow(tan(.pi / 4 + phi1 / 2), cone)
  }

  /// The map position of a point, metres from the projection's pole.
  public func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
    let phi = hemisphere * latitude * .pi / 180
    let rho = scale / pow(tan(.pi / 4 + phi / 2), cone)
    let theta = cone * Self.wrappedDegrees(longitude - standardLongitude) * .pi / 180
    return (rho * sin(theta), -hemisphere * rho * cos(theta))
  }

  /// The point at a map position; the exact inverse of `project(latitude:longitude:)`,
  /// with longitudes in −180…180.
  public func unproject(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
    let towardsEquator = -hemisphere * y
    let rho = (x * x + towardsEquator * towardsEquator).squareRoot()
    let theta = atan2(x, towardsEquator)
    let phi = 2 * atan(pow(scale / rho, 1 / cone)) - .pi / 2
    let longitude = Self.wrappedDegrees(standardLongitude + theta / cone * 180 / .pi)
    return (hemisphere * phi * 180 / .pi, longitude)
  }

  /// The angle α (radians) between grid north and true north at a longitude, in the sense
  /// of WRF's `COSALPHA`/`SINALPHA`: a grid-relative wind (u, v) is earth-relative
  ///
  ///     u_earth = u·cos α − v·sin α
  ///     v_earth = u·sin α + v·cos α
  ///
  /// East of the standard longitude meridians lean towards the pole, so true north turns
  /// anticlockwise from grid north by `n·Δλ` in the northern hemisphere and clockwise in
  /// the southern one; α is the opposite turn, the one that takes grid axes to earth axes.
  /// That is α = −n·Δλ in the north and +n·Δλ in the south, the signs real WRF output
  /// carries (libraries that rotate earth winds to the grid use the opposite sign).
  public func gridRotation(longitude: Double) -> Double {
    -hemisphere * cone * Self.wrappedDegrees(longitude - standardLongitude) * .pi / 180
  }

  /// A longitude difference folded into −180…180, so that grids straddling the
  /// antimeridian rotate and project continuously.
  static func wrappedDegrees(_ degrees: Double) -> Double {
    var wrapped = degrees.truncatingRemainder(dividingBy: 360)
    if wrapped > 180 { wrapped -= 360 }
    if wrapped < -180 { wrapped += 360 }
    return wrapped
  }
}
