import Foundation
import GridGeometry
import Testing
import _TestSupport

/// A grid with the projection its source describes it by.
struct AnalyticCase: Sendable, CustomStringConvertible {
  let name: String
  /// How far, in cells, the projection may put a stored cell from its place. Each is the
  /// measured worst, about doubled:
  /// - Real WRF files: 8·10⁻⁵ (allvars), 1.7·10⁻⁴ (tip d01), 4.1·10⁻⁴ (tip d02) and
  ///   1.0·10⁻⁴ (Mercator). WRF computes XLAT/XLONG in single precision, so its own
  ///   rounding is in them.
  /// - Everything generated in double precision and stored as Float: 3·10⁻⁵ to 7.4·10⁻⁵.
  ///   Half a Float ulp of a latitude or longitude (at most 4·10⁻⁶°, 0.4 m) is a few 10⁻⁵
  ///   of a 9–25 km cell.
  /// - The MM5 geometry: 5.6·10⁻⁵.
  let tolerance: Double
  let make: @Sendable () throws -> (grid: CurvilinearGrid, projection: MapProjection)

  var description: String { name }

  /// A real or generated WRF file, read as ingest reads it.
  static func file(_ name: String, tolerance: Double, _ path: @escaping @Sendable () throws -> String) -> AnalyticCase {
    .described(name, tolerance: tolerance) { try GridFiles.wrf(try path()) }
  }

  /// A grid with a WRF projection code and cube-order parameters.
  static func described(
    _ name: String, tolerance: Double,
    _ source: @escaping @Sendable () throws -> (grid: CurvilinearGrid, code: Int, parameters: [Double])
  ) -> AnalyticCase {
    AnalyticCase(name: name, tolerance: tolerance) {
      let (grid, code, parameters) = try source()
      return (grid, try MapProjection(wrfCode: code, parameters: parameters, grid: grid))
    }
  }

  /// A grid generated in the tests, with the WRF parameters that describe it.
  static func generated(
    _ name: String, tolerance: Double, kind: MapProjection.Kind, truelat1: Double = .nan, truelat2: Double = .nan,
    standardLongitude: Double = .nan, poleLatitude: Double = 90, dx: Double,
    grid: @escaping @Sendable () throws -> CurvilinearGrid
  ) -> AnalyticCase {
    AnalyticCase(name: name, tolerance: tolerance) {
      let grid = try grid()
      let projection = try MapProjection(
        kind: kind, truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude,
        poleLatitude: poleLatitude, gridSpacing: dx,
        origin: (Double(grid.latitudes[0]), Double(grid.longitudes[0])))
      return (grid, projection)
    }
  }
}

/// The generated sample run's first file (Lambert 30/60, 135 × 80 at 9 km), written once.
private let sampleRunFile: String = {
  let directory = SampleFiles.temporaryDirectory("analytic")
  return (try? generatedRunFile(in: directory)) ?? "\(directory)/missing"
}()

let analyticCases: [AnalyticCase] = [
  .file("WRF Lambert, allvars (cut down)", tolerance: 2e-4) { SampleFiles.allvars },
  .file("WRF Lambert, tip d01", tolerance: 5e-4) { SampleFiles.tipD1 },
  .file("WRF Lambert, tip d02", tolerance: 1e-3) { SampleFiles.tipD2 },
  .file("WRF Mercator", tolerance: 2e-4) { SampleFiles.mercator },
  .file("generated sample run, Lambert 30/60", tolerance: 1e-4) { sampleRunFile },
  .described("MM5 geometry, Lambert 60/30", tolerance: 1e-4) { try GridFiles.mm5Geometry() },
  .described("generated MM5 sample", tolerance: 1e-4) { try GridFiles.mm5Sample() },
  .generated(
    "polar stereographic over the North Pole", tolerance: 1e-4, kind: .polarStereographic, truelat1: 90,
    standardLongitude: -45, dx: 25_000
  ) {
    try GeneratedGrids.polarStereographic(
      width: 160, height: 160, spacing: 25_000, centreX: 0, centreY: 0, standardLongitude: -45)
  },
  .generated(
    "polar stereographic across the dateline, true at 60", tolerance: 1e-4, kind: .polarStereographic, truelat1: 60,
    standardLongitude: 180, dx: 20_000
  ) {
    try GeneratedGrids.polarStereographic(
      width: 150, height: 100, spacing: 20_000, centreX: 0, centreY: -2_600_000, standardLongitude: 180,
      trueLatitude: 60)
  },
  .generated(
    "polar stereographic south, true at -71", tolerance: 1e-4, kind: .polarStereographic, truelat1: -71,
    standardLongitude: 0, dx: 15_000
  ) {
    try GeneratedGrids.polarStereographic(
      width: 140, height: 120, spacing: 15_000, centreX: 600_000, centreY: 1_500_000, standardLongitude: 0,
      trueLatitude: -71, south: true)
  },
  .generated(
    "Mercator south, across the dateline", tolerance: 1e-4, kind: .mercator, truelat1: -20, dx: 30_000
  ) {
    try GeneratedGrids.mercator(
      width: 120, height: 90, spacing: 30_000, trueLatitude: -20, latitude0: -40, longitude0: 170)
  },
  .generated(
    "rotated pole", tolerance: 1e-4, kind: .latitudeLongitude, standardLongitude: 180 - -162, poleLatitude: 39.25,
    dx: 0.11 * 2 * .pi * GeneratedGrids.earthRadius / 360
  ) {
    try GeneratedGrids.rotatedPole(width: 180, height: 120, spacing: 0.11, poleLatitude: 39.25, poleLongitude: -162)
  },
  .generated(
    "Lambert south, two true latitudes", tolerance: 1e-4, kind: .lambertConformal, truelat1: -30, truelat2: -60,
    standardLongitude: 140, dx: 12_000
  ) {
    try GeneratedGrids.lambert(
      width: 150, height: 120, spacing: 12_000, truelat1: -30, truelat2: -60, standardLongitude: 140,
      centreLatitude: -38, centreLongitude: 135)
  },
  .generated(
    "Lambert tangent, across the dateline", tolerance: 1e-4, kind: .lambertConformal, truelat1: 50, truelat2: 50,
    standardLongitude: -175, dx: 20_000
  ) {
    try GeneratedGrids.lambert(
      width: 120, height: 100, spacing: 20_000, truelat1: 50, truelat2: 50, standardLongitude: -175,
      centreLatitude: 52, centreLongitude: 178)
  },
]

@Suite struct AnalyticLocatorTests {
  @Test(arguments: analyticCases)
  func theProjectionReproducesEveryCell(_ analyticCase: AnalyticCase) throws {
    let (grid, projection) = try analyticCase.make()
    // The expected positions are the cells' own indices; what is measured is where the
    // projection puts each cell's stored coordinates.
    var worst = 0.0
    for j in 0..<grid.height {
      for i in 0..<grid.width {
        let cell = j * grid.width + i
        let (x, y) = try #require(
          projection.gridCoordinates(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell])))
        worst = max(worst, abs(x - Double(i)), abs(y - Double(j)))
      }
    }
    #expect(worst <= analyticCase.tolerance)
    #expect(projection.largestMismatch(on: grid).cells <= analyticCase.tolerance * 2.squareRoot())
  }

  @Test(arguments: analyticCases)
  func nearestCellEqualsBruteForce(_ analyticCase: AnalyticCase) throws {
    let (grid, projection) = try analyticCase.make()
    let locator = try AnalyticLocator(grid: grid, projection: projection)
    checkAgainstBruteForce(locator, seed: UInt64(analyticCase.name.utf8.count), nearBoundaries: 2_000)
  }
}

/// The tip d02 grid (270 × 180 at 10 km) and its projection from its own attributes.
private func tipD2() throws -> (grid: CurvilinearGrid, projection: MapProjection) {
  let file = try GridFiles.wrf(SampleFiles.tipD2)
  return (file.grid, try MapProjection(wrfCode: file.code, parameters: file.parameters, grid: file.grid))
}

/// A copy of `grid` with the cells that `moved` picks shifted by (dLatitude, dLongitude).
private func perturbed(
  _ grid: CurvilinearGrid, dLatitude: Float, dLongitude: Float, moved: (Int, Int) -> Bool
) throws -> CurvilinearGrid {
  var latitudes = grid.latitudes
  var longitudes = grid.longitudes
  for j in 0..<grid.height {
    for i in 0..<grid.width where moved(i, j) {
      latitudes[j * grid.width + i] += dLatitude
      longitudes[j * grid.width + i] += dLongitude
    }
  }
  return try CurvilinearGrid(width: grid.width, height: grid.height, latitudes: latitudes, longitudes: longitudes)
}

extension AnalyticLocatorTests {
  /// Half a 10 km cell is about 0.045° of latitude. Moving the northern half of the grid,
  /// or a single cell, by that much is caught; the generic locator then takes over, and
  /// `rejected` hears where the disagreement is.
  @Test func gridsTheProjectionDoesNotReproduceAreRejected() throws {
    let (grid, projection) = try tipD2()
    let cases: [(String, CurvilinearGrid)] = [
      ("northern half", try perturbed(grid, dLatitude: 0.045, dLongitude: 0) { _, j in j >= grid.height / 2 }),
      ("one cell", try perturbed(grid, dLatitude: 0, dLongitude: 0.055) { i, j in i == 100 && j == 40 }),
    ]
    for (name, bad) in cases {
      #expect(throws: GeometryError.self, "\(name)") { try AnalyticLocator(grid: bad, projection: projection) }
      var reasons: [String] = []
      let locator = try GridLocator(grid: bad, projection: projection) { reasons.append($0.description) }
      guard locator.kind == .curvilinear else {
        Issue.record("\(name): expected the generic locator, got \(locator.kind)")
        continue
      }
      #expect(reasons.count == 1)
      #expect(reasons.first?.contains("MAP_PROJ 1 (Lambert conformal) disagrees with the grid's coordinates") == true)
      if name == "one cell" { #expect(reasons.first?.contains("at (100, 40)") == true, "\(reasons)") }
    }
    // So are parameters that do not describe the grid: DX 1 % off is 1.35 cells at the far
    // edge, TRUELAT1 a degree off about as much.
    let file = try GridFiles.wrf(SampleFiles.tipD2)
    for (index, value) in [(7, file.parameters[7] * 1.01), (0, file.parameters[0] + 1)] {
      var parameters = file.parameters
      parameters[index] = value
      let wrong = try MapProjection(wrfCode: file.code, parameters: parameters, grid: grid)
      #expect(throws: GeometryError.self) { try AnalyticLocator(grid: grid, projection: wrong) }
    }
    guard try GridLocator(grid: grid, projection: projection).kind == .analytic else {
      Issue.record("the unperturbed grid should be located analytically")
      return
    }
  }

  /// A window cut out of the tip d01 grid keeps d01's attributes, CEN_LAT/CEN_LON
  /// included, like a cut-down file; anchored on the window's own first cell, the mapping
  /// fits and lookups are exact. (The allvars file, a real cut-down, is among the cases.)
  @Test func aCutDownGridWithItsFullDomainsCentreLocatesExactly() throws {
    let file = try GridFiles.wrf(SampleFiles.tipD1)
    let (i0, j0, width, height) = (120, 30, 60, 45)
    let cells = (0..<(width * height)).map { (j0 + $0 / width) * file.grid.width + i0 + $0 % width }
    let window = try CurvilinearGrid(
      width: width, height: height, latitudes: cells.map { file.grid.latitudes[$0] },
      longitudes: cells.map { file.grid.longitudes[$0] })
    // The attributes' centre is the full domain's, nowhere near the window.
    #expect(abs(file.parameters[3] - Double(window.latitudes[0])) > 1)
    let projection = try MapProjection(wrfCode: file.code, parameters: file.parameters, grid: window)
    let locator = try AnalyticLocator(grid: window, projection: projection)
    #expect(locator.mismatch < 5e-4)
    checkAgainstBruteForce(locator, seed: 12, nearBoundaries: 2_000)
  }

  @Test func fractionalPositionIsExactAtNodesAndInsideItsQuad() throws {
    let (grid, projection) = try tipD2()
    let locator = try AnalyticLocator(grid: grid, projection: projection)
    for cell in stride(from: 0, to: grid.count, by: 97) {
      let position = try #require(
        locator.position(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell])))
      #expect(position.i == cell % grid.width && position.j == cell / grid.width)
      #expect(abs(position.x - Double(cell % grid.width)) < 1e-9)
      #expect(abs(position.y - Double(cell / grid.width)) < 1e-9)
    }
    var random = TestRandom(seed: 3)
    for _ in 0..<2_000 {
      let x = random.uniform(-0.45...(Double(grid.width) - 0.55))
      let y = random.uniform(-0.45...(Double(grid.height) - 0.55))
      let point = GridSampling.point(
        x: x, y: y, width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
      let position = try #require(locator.position(latitude: point.latitude, longitude: point.longitude))
      // Sampling interpolates unit vectors bilinearly between the cells, the locator inverts
      // the bilinear map on the projection plane: on a 10 km grid both agree to well under a
      // hundredth of a cell, and the nearest cell is the one nearestCell gives.
      #expect(abs(position.x - x) < 0.01 && abs(position.y - y) < 0.01)
      let nearest = try #require(locator.nearestCell(latitude: point.latitude, longitude: point.longitude))
      #expect(nearest == (position.i, position.j))
    }
  }

  @Test(arguments: ["WRF Lambert, allvars (cut down)", "WRF Mercator", "Lambert tangent, across the dateline"])
  func pointsBeyondTheEdgeBandAreOutside(name: String) throws {
    let (grid, projection) = try #require(analyticCases.first { $0.name == name }).make()
    checkOutside(try AnalyticLocator(grid: grid, projection: projection))
  }

  /// A regular latitude/longitude lattice keeps its constant-time locator, whatever
  /// projection comes with it.
  @Test func aRegularLatticeKeepsTheRegularLocator() throws {
    let latitudes = (0..<46).map { Float(65 - $0) }
    let longitudes = (0..<101).map { Float(210 + $0) }
    let grid = try CurvilinearGrid(
      width: 101, height: 46, latitudes: latitudes.flatMap { latitude in longitudes.map { _ in latitude } },
      longitudes: latitudes.flatMap { _ in longitudes })
    let projection = try MapProjection(
      kind: .latitudeLongitude, truelat1: .nan, truelat2: .nan, standardLongitude: .nan, poleLatitude: 90,
      gridSpacing: 111_177, origin: (65, 210))
    guard try GridLocator(grid: grid, projection: projection).kind == .regular else {
      Issue.record("expected the regular locator")
      return
    }
  }
}
