import Foundation
import GridGeometry
import Testing
import _TestSupport

/// Grids the real sample files do not cover, generated here from their projection
/// formulas: a polar-stereographic grid over the North Pole, one straddling the dateline
/// at high latitude, and a rotated-pole latitude-longitude grid.
enum GeneratedGrids {
  static let earthRadius = 6_370_000.0

  /// Polar stereographic (north), true at 90°, centred on (x₀, y₀) metres from the pole.
  static func polarStereographic(
    width: Int, height: Int, spacing: Double, centreX: Double, centreY: Double, standardLongitude: Double
  ) throws -> CurvilinearGrid {
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    for j in 0..<height {
      for i in 0..<width {
        let x = centreX + (Double(i) - Double(width - 1) / 2) * spacing
        let y = centreY + (Double(j) - Double(height - 1) / 2) * spacing
        let rho = (x * x + y * y).squareRoot()
        let colatitude = 2 * atan(rho / (2 * earthRadius))
        var longitude = standardLongitude + atan2(x, -y) * 180 / .pi
        if longitude > 180 { longitude -= 360 }
        if longitude <= -180 { longitude += 360 }
        latitudes.append(Float(90 - colatitude * 180 / .pi))
        longitudes.append(Float(longitude))
      }
    }
    return try CurvilinearGrid(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
  }

  /// A latitude-longitude grid regular in a frame whose north pole sits at
  /// (poleLatitude, poleLongitude), as WRF's MAP_PROJ 6 with POLE_LAT/POLE_LON.
  static func rotatedPole(
    width: Int, height: Int, spacing: Double, poleLatitude: Double, poleLongitude: Double
  ) throws -> CurvilinearGrid {
    let phiP = poleLatitude * .pi / 180
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    for j in 0..<height {
      for i in 0..<width {
        let phiR = (Double(j) - Double(height - 1) / 2) * spacing * .pi / 180
        let lambdaR = (Double(i) - Double(width - 1) / 2) * spacing * .pi / 180
        let sinPhi = sin(phiR) * sin(phiP) + cos(phiR) * cos(lambdaR) * cos(phiP)
        let phi = asin(sinPhi)
        let lambda =
          atan2(cos(phiR) * sin(lambdaR), sin(phiP) * cos(phiR) * cos(lambdaR) - cos(phiP) * sin(phiR))
        var longitude = poleLongitude - 180 + lambda * 180 / .pi
        while longitude > 180 { longitude -= 360 }
        while longitude <= -180 { longitude += 360 }
        latitudes.append(Float(phi * 180 / .pi))
        longitudes.append(Float(longitude))
      }
    }
    return try CurvilinearGrid(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
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
