import Foundation
import GridGeometry
import Testing

/// The ellipsoidal Lambert conformal conic and Mercator projections against Snyder's
/// worked examples and against their definitions.
@Suite struct SpheroidalProjectionTests {
  /// Clarke 1866, the spheroid of Snyder's examples.
  static let clarke = (major: 6_378_206.4, minor: 6_378_206.4 * (1 - 0.00676866).squareRoot())

  /// Snyder's example (p. 296): Clarke 1866, standard parallels 33° and 45° N, origin 23° N
  /// 96° W; 35° N 75° W lies at x = 1,894,410.9 m, y = 1,564,649.5 m from the origin.
  @Test func lambertGivesSnydersWorkedExample() throws {
    let conic = try SpheroidalLambertConformal(
      major: Self.clarke.major, minor: Self.clarke.minor, truelat1: 33, truelat2: 45, standardLongitude: -96)
    let origin = try #require(conic.project(latitude: 23, longitude: -96))
    let point = try #require(conic.project(latitude: 35, longitude: -75))
    #expect(abs(point.x - origin.x - 1_894_410.9) < 0.2, "x \(point.x - origin.x)")
    #expect(abs(point.y - origin.y - 1_564_649.5) < 0.2, "y \(point.y - origin.y)")
  }

  /// Snyder's example (p. 267): Clarke 1866, central meridian 180°, true at the equator;
  /// 35° N 75° W lies at x = 11,688,673.7 m, y = 4,139,145.6 m.
  @Test func mercatorGivesSnydersWorkedExample() throws {
    let mercator = try SpheroidalMercator(
      major: Self.clarke.major, minor: Self.clarke.minor, trueLatitude: 0, standardLongitude: -180)
    let point = try #require(mercator.project(latitude: 35, longitude: -75))
    #expect(abs(point.x - 11_688_673.7) < 0.2, "x \(point.x)")
    #expect(abs(point.y - 4_139_145.6) < 0.2, "y \(point.y)")
  }

  /// WGS 84's semi-axes.
  static let wgs84 = (major: 6_378_137.0, minor: 6_356_752.314245)

  /// Conformal projections true at a parallel: there, a short step along the parallel is as
  /// long on the map as on the spheroid (a · cos φ / √(1 − e² sin² φ) per radian), for one
  /// and two standard parallels in either hemisphere and for Mercator.
  @Test(arguments: [(35.0, 65.0), (50, 50), (-30, -60), (-45, -45)])
  func lambertIsTrueAtItsStandardParallels(_ truelat1: Double, _ truelat2: Double) throws {
    let conic = try SpheroidalLambertConformal(
      major: Self.wgs84.major, minor: Self.wgs84.minor, truelat1: truelat1, truelat2: truelat2, standardLongitude: 10)
    for latitude in [truelat1, truelat2] {
      #expect(abs(try Self.scale(latitude) { conic.project(latitude: $0, longitude: $1) } - 1) < 1e-9, "\(latitude)")
    }
  }

  @Test func mercatorIsTrueAtItsLatitude() throws {
    let mercator = try SpheroidalMercator(
      major: Self.wgs84.major, minor: Self.wgs84.minor, trueLatitude: -20, standardLongitude: 0)
    #expect(abs(try Self.scale(-20) { mercator.project(latitude: $0, longitude: $1) } - 1) < 1e-9)
  }

  /// The map length of 10⁻⁴° of longitude along `latitude` over its length on WGS 84.
  static func scale(
    _ latitude: Double, _ project: (Double, Double) -> (x: Double, y: Double)?
  ) throws -> Double {
    let (a, b) = (try #require(project(latitude, 4.99995)), try #require(project(latitude, 5.00005)))
    let e2 = 1 - (wgs84.minor / wgs84.major) * (wgs84.minor / wgs84.major)
    let phi = latitude * .pi / 180
    let parallel = wgs84.major * cos(phi) / (1 - e2 * sin(phi) * sin(phi)).squareRoot() * 1e-4 * .pi / 180
    return ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() / parallel
  }

  /// The inverse undoes the forward projection to 10⁻⁹° over the whole of each map.
  /// The poles the projections send to infinity have no plane position, the south pole as
  /// well as the north (where tan(π/2) in doubles is finite): Mercator's both, a northern
  /// cone's south pole and a southern cone's north pole.
  @Test func polesAtInfinityHaveNoPlanePosition() throws {
    let mercator = try SpheroidalMercator(
      major: Self.wgs84.major, minor: Self.wgs84.minor, trueLatitude: 0, standardLongitude: 0)
    #expect(mercator.project(latitude: 90, longitude: 10) == nil)
    #expect(mercator.project(latitude: -90, longitude: 10) == nil)
    #expect(mercator.project(latitude: -89.999, longitude: 10) != nil)
    let north = try SpheroidalLambertConformal(
      major: Self.wgs84.major, minor: Self.wgs84.minor, truelat1: 30, truelat2: 60, standardLongitude: 0)
    #expect(north.project(latitude: -90, longitude: 10) == nil)
    #expect(north.project(latitude: 90, longitude: 10) != nil)
    let south = try SpheroidalLambertConformal(
      major: Self.wgs84.major, minor: Self.wgs84.minor, truelat1: -30, truelat2: -60, standardLongitude: 0)
    #expect(south.project(latitude: 90, longitude: 10) == nil)
    #expect(south.project(latitude: -90, longitude: 10) != nil)
  }

  @Test func inversesUndoTheProjections() throws {
    let conic = try SpheroidalLambertConformal(
      major: Self.wgs84.major, minor: Self.wgs84.minor, truelat1: -35, truelat2: -65, standardLongitude: 150)
    let mercator = try SpheroidalMercator(
      major: Self.wgs84.major, minor: Self.wgs84.minor, trueLatitude: 30, standardLongitude: 0)
    var worst = 0.0
    for latitude in stride(from: -85.0, through: 85, by: 5) {
      for longitude in stride(from: -175.0, through: 175, by: 17.5) {
        for (forward, inverse) in [
          (conic.project, conic.unproject), (mercator.project, mercator.unproject),
        ] {
          let position = try #require(forward(latitude, longitude))
          let back = try #require(inverse(position.x, position.y))
          worst = max(worst, abs(back.latitude - latitude), abs(back.longitude - longitude))
        }
      }
    }
    #expect(worst < 1e-9, "off by up to \(worst)°")
  }

  /// The apex and the gap beyond the cone's cut are no place; true latitudes across the
  /// equator or at a pole are no cone.
  @Test func placesAndConesThatDoNotExistAreRefused() throws {
    let conic = try SpheroidalLambertConformal(
      major: Self.wgs84.major, minor: Self.wgs84.minor, truelat1: 60, truelat2: 60, standardLongitude: 0)
    #expect(conic.unproject(x: 0, y: 0) == nil)
    // Straight past the apex from the standard meridian: θ = 180° > n · 180°.
    #expect(conic.unproject(x: 1, y: 1_000_000) == nil)
    #expect(conic.unproject(x: 1, y: -1_000_000) != nil)
    #expect(throws: GeometryError.self) {
      try SpheroidalLambertConformal(
        major: Self.wgs84.major, minor: Self.wgs84.minor, truelat1: 30, truelat2: -30, standardLongitude: 0)
    }
    #expect(throws: GeometryError.self) {
      try SpheroidalLambertConformal(
        major: Self.wgs84.major, minor: Self.wgs84.minor, truelat1: 90, truelat2: 90, standardLongitude: 0)
    }
    #expect(throws: GeometryError.self) {
      try SpheroidalLambertConformal(
        major: 6_356_752, minor: 6_378_137, truelat1: 30, truelat2: 60, standardLongitude: 0)
    }
  }
}
