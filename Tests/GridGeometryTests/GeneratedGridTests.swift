import Foundation
import GridGeometry
import Testing
import _TestSupport

/// Grids the real sample files do not cover, generated here from their projection
/// formulas: a polar-stereographic grid over the North Pole, one straddling the dateline
/// at high latitude, and a rotated-pole latitude-longitude grid.
enum GeneratedGrids {
  static let earthRadius = 6_370_000.0

  /// `width × height` points `spacing` apart on a plane, centred on `centre`, each placed on
  /// the globe by `unproject`; longitudes are folded into −180…180.
  static func planeGrid(
    width: Int, height: Int, spacing: Double, centre: (x: Double, y: Double),
    unproject: (Double, Double) -> (latitude: Double, longitude: Double)
  ) throws -> CurvilinearGrid {
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    for j in 0..<height {
      for i in 0..<width {
        let point = unproject(
          centre.x + (Double(i) - Double(width - 1) / 2) * spacing,
          centre.y + (Double(j) - Double(height - 1) / 2) * spacing)
        var longitude = point.longitude.truncatingRemainder(dividingBy: 360)
        if longitude > 180 { longitude -= 360 }
        if longitude <= -180 { longitude += 360 }
        latitudes.append(Float(point.latitude))
        longitudes.append(Float(longitude))
      }
    }
    return try CurvilinearGrid(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
  }

  /// Polar stereographic over the North Pole (or the South Pole when `south`), true at
  /// `trueLatitude` (90° by default), centred on (x₀, y₀) metres from the pole, oriented as
  /// WRF orients it: grid north along `standardLongitude` towards the North Pole.
  static func polarStereographic(
    width: Int, height: Int, spacing: Double, centreX: Double, centreY: Double, standardLongitude: Double,
    trueLatitude: Double = 90, south: Bool = false
  ) throws -> CurvilinearGrid {
    // On the sphere, ρ = 2R·k₀·tan(colatitude / 2) with k₀ = (1 + sin φ₁)/2 making the
    // scale true at φ₁ (Snyder, eq. 21-4, with the colatitude from the projection's pole).
    let trueScale = (1 + sin(abs(trueLatitude) * .pi / 180)) / 2
    return try planeGrid(width: width, height: height, spacing: spacing, centre: (centreX, centreY)) { x, y in
      let colatitude = 2 * atan((x * x + y * y).squareRoot() / (2 * earthRadius * trueScale)) * 180 / .pi
      // Seen from above the South Pole, grid north points away from the pole.
      let longitude = standardLongitude + atan2(x, south ? y : -y) * 180 / .pi
      return (south ? colatitude - 90 : 90 - colatitude, longitude)
    }
  }

  /// A Lambert conformal grid centred on a point, from Snyder's formulas (eqs. 15-1 to 15-5
  /// and their inverse 14-4, 15-10, 15-11) written out independently of the library. In
  /// the southern hemisphere the cone opens towards the South Pole; the grid keeps north up.
  static func lambert(
    width: Int, height: Int, spacing: Double, truelat1: Double, truelat2: Double, standardLongitude: Double,
    centreLatitude: Double, centreLongitude: Double
  ) throws -> CurvilinearGrid {
    let sign: Double = truelat1 < 0 ? -1 : 1
    let (phi1, phi2) = (abs(truelat1) * .pi / 180, abs(truelat2) * .pi / 180)
    let t = { (phi: Double) in tan(.pi / 4 - phi / 2) }
    let n = abs(phi1 - phi2) < 1e-9 ? sin(phi1) : log(cos(phi1) / cos(phi2)) / log(t(phi1) / t(phi2))
    let f = earthRadius * cos(phi1) / (n * pow(t(phi1), n))
    // The centre on the plane, with the cone's pole at the origin and y towards it.
    let rho0 = f * pow(t(sign * centreLatitude * .pi / 180), n)
    let theta0 = n * (centreLongitude - standardLongitude) * .pi / 180
    let centre = (rho0 * sin(theta0), -sign * rho0 * cos(theta0))
    return try planeGrid(width: width, height: height, spacing: spacing, centre: centre) { x, y in
      let rho = (x * x + y * y).squareRoot()
      let latitude = sign * (.pi / 2 - 2 * atan(pow(rho / f, 1 / n))) * 180 / .pi
      return (latitude, standardLongitude + atan2(x, -sign * y) / n * 180 / .pi)
    }
  }

  /// A Mercator grid true at `trueLatitude`, its first cell at (latitude₀, longitude₀):
  /// x = R·cos φ₁·λ, y = R·cos φ₁·ln tan(45° + φ/2) (Snyder, eqs. 7-1, 7-2).
  static func mercator(
    width: Int, height: Int, spacing: Double, trueLatitude: Double, latitude0: Double, longitude0: Double
  ) throws -> CurvilinearGrid {
    let k = earthRadius * cos(trueLatitude * .pi / 180)
    let y0 = k * log(tan(.pi / 4 + latitude0 * .pi / 360))
    let centre = (Double(width - 1) / 2 * spacing, y0 + Double(height - 1) / 2 * spacing)
    return try planeGrid(width: width, height: height, spacing: spacing, centre: centre) { x, y in
      ((2 * atan(exp(y / k)) - .pi / 2) * 180 / .pi, longitude0 + x / k * 180 / .pi)
    }
  }

  /// A latitude-longitude grid regular in a frame whose north pole sits at
  /// (poleLatitude, poleLongitude), the CF convention for rotated poles. WRF's MAP_PROJ 6
  /// describes the same grid with POLE_LAT = poleLatitude and STAND_LON = 180 − poleLongitude.
  static func rotatedPole(
    width: Int, height: Int, spacing: Double, poleLatitude: Double, poleLongitude: Double
  ) throws -> CurvilinearGrid {
    let phiP = poleLatitude * .pi / 180
    return try planeGrid(width: width, height: height, spacing: spacing, centre: (0, 0)) { lambdaR, phiR in
      let (phi, lambda) = (phiR * .pi / 180, lambdaR * .pi / 180)
      let latitude = asin(sin(phi) * sin(phiP) + cos(phi) * cos(lambda) * cos(phiP))
      let longitude = atan2(cos(phi) * sin(lambda), sin(phiP) * cos(phi) * cos(lambda) - cos(phiP) * sin(phi))
      return (latitude * 180 / .pi, poleLongitude - 180 + longitude * 180 / .pi)
    }
  }
}

@Suite struct GeneratedGridTests {
  @Test func nearestCellEqualsBruteForceOverTheNorthPole() throws {
    let grid = try GeneratedGrids.polarStereographic(
      width: 160, height: 160, spacing: 25_000, centreX: 0, centreY: 0, standardLongitude: -45)
    // The pole itself lies inside this grid.
    #expect(try CellLocator(grid: grid).nearestCell(latitude: 90, longitude: 0) != nil)
    try checkAgainstBruteForce(grid, seed: 90)
  }

  @Test func nearestCellEqualsBruteForceAcrossTheDateline() throws {
    let grid = try GeneratedGrids.polarStereographic(
      width: 150, height: 100, spacing: 20_000, centreX: 0, centreY: -2_600_000, standardLongitude: 180)
    #expect(grid.longitudes.contains { $0 > 170 } && grid.longitudes.contains { $0 < -170 })
    try checkAgainstBruteForce(grid, seed: 180)
  }

  @Test func nearestCellEqualsBruteForceOnARotatedPoleGrid() throws {
    let grid = try GeneratedGrids.rotatedPole(
      width: 180, height: 120, spacing: 0.11, poleLatitude: 39.25, poleLongitude: -162)
    try checkAgainstBruteForce(grid, seed: 6)
  }
}
