import GridGeometry
import NetCDF
import SampleRun
import Testing
import _TestSupport

/// Generates the Portugal sample run's first file and returns its path.
func generatedRunFile(in directory: String) throws -> String {
  var spec = SampleRunSpec.portugal9km
  spec.hours = 0
  return try SampleRunGenerator.write(spec, to: directory)[0]
}

/// 10,000 random points per grid, some in the half-cell edge band: the locator's cell is
/// always the brute-force great-circle nearest mass point.
func checkAgainstBruteForce(_ grid: CurvilinearGrid, seed: UInt64) throws {
  checkAgainstBruteForce(try CellLocator(grid: grid), seed: seed)
}

/// `count` random points (10,000 by default), some in the half-cell edge band, then
/// `nearBoundaries` more a hair either side of the midlines between cells, where a locator
/// has the most to decide: the locator's cell is always the brute-force great-circle
/// nearest mass point.
func checkAgainstBruteForce(
  _ locator: some PointLocator, seed: UInt64, count: Int = 10_000, nearBoundaries: Int = 0
) {
  let grid = locator.grid
  let oracle = BruteForce.Grid(latitudes: grid.latitudes, longitudes: grid.longitudes)
  var random = TestRandom(seed: seed)
  var mismatches = 0
  for k in 0..<(count + nearBoundaries) {
    var x = random.uniform(-0.45...(Double(grid.width) - 0.55))
    var y = random.uniform(-0.45...(Double(grid.height) - 0.55))
    if k >= count {
      // Within a hundredth of a cell of a midline, on either axis or both.
      let snap = { (value: Double, limit: Int) in
        min(max((value + 0.5).rounded(.down) - 0.5, 0.5), Double(limit) - 1.5)
          + (Double(random.next() % 2001) - 1000) * 1e-5
      }
      switch random.next() % 3 {
      case 0: x = snap(x, grid.width)
      case 1: y = snap(y, grid.height)
      default: (x, y) = (snap(x, grid.width), snap(y, grid.height))
      }
    }
    let point = GridSampling.point(
      x: x, y: y, width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
    guard let cell = locator.nearestCell(latitude: point.latitude, longitude: point.longitude) else {
      Issue.record("inside point \(point) at grid (\(x), \(y)) reported outside")
      continue
    }
    if !oracle.isNearest(cell.j * grid.width + cell.i, latitude: point.latitude, longitude: point.longitude) {
      mismatches += 1
    }
  }
  #expect(mismatches == 0)
}

/// Points 0.6 to 3 cells beyond an edge (the outer quads extrapolated), the antipode of the
/// centre and non-finite coordinates are all outside.
func checkOutside(_ locator: some PointLocator) {
  let grid = locator.grid
  var random = TestRandom(seed: 5)
  for _ in 0..<2_000 {
    let beyond = random.uniform(0.6...3)
    let along = random.unit()
    let (x, y): (Double, Double) =
      switch random.next() % 4 {
      case 0: (-beyond, along * Double(grid.height - 1))
      case 1: (Double(grid.width - 1) + beyond, along * Double(grid.height - 1))
      case 2: (along * Double(grid.width - 1), -beyond)
      default: (along * Double(grid.width - 1), Double(grid.height - 1) + beyond)
      }
    let point = GridSampling.point(
      x: x, y: y, width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
    #expect(locator.nearestCell(latitude: point.latitude, longitude: point.longitude) == nil)
    #expect(locator.position(latitude: point.latitude, longitude: point.longitude) == nil)
  }
  let centre = grid.count / 2
  let antipode = (-Double(grid.latitudes[centre]), Double(grid.longitudes[centre]) + 180)
  #expect(locator.nearestCell(latitude: antipode.0, longitude: antipode.1) == nil)
  #expect(locator.nearestCell(latitude: .nan, longitude: 0) == nil)
  #expect(locator.nearestCell(latitude: 0, longitude: .infinity) == nil)
}

@Suite struct CellLocatorTests {
  @Test(arguments: [SampleFiles.allvars, SampleFiles.tipD1, SampleFiles.tipD2, SampleFiles.mercator])
  func nearestCellEqualsBruteForceOnRealGrids(path: String) throws {
    try checkAgainstBruteForce(try WRFFixture.grid(path), seed: UInt64(path.utf8.count))
  }

  @Test func nearestCellEqualsBruteForceOnTheGeneratedRun() throws {
    let directory = SampleFiles.temporaryDirectory("locator")
    defer { SampleFiles.remove(directory) }
    let grid = try WRFFixture.grid(try generatedRunFile(in: directory))
    #expect(grid.width == 135 && grid.height == 80)
    try checkAgainstBruteForce(grid, seed: 99)
  }

  /// The real MM5 domain (Lambert 117×78 cross points, lat/lon(x_cross, y_cross)): the
  /// locator needs nothing but the 2-D coordinates.
  @Test func nearestCellEqualsBruteForceOnTheMM5Geometry() throws {
    let file = try NCFile.open(SampleFiles.grid("mm5/mm5_d2_terrain.nc"))
    defer { file.close() }
    let shape = try file.variable("lat").shape
    let grid = try CurvilinearGrid(
      width: shape[1], height: shape[0], latitudes: try file.readFloats("lat", start: [0, 0], count: shape),
      longitudes: try file.readFloats("lon", start: [0, 0], count: shape))
    #expect(grid.count == 117 * 78)
    try checkAgainstBruteForce(grid, seed: 117)
  }

  /// The generated MM5 sample, read through its own cross-point coordinates.
  @Test func nearestCellEqualsBruteForceOnTheGeneratedMM5Sample() throws {
    let grid = try GridFiles.mm5Sample().grid
    try checkAgainstBruteForce(grid, seed: 5)
  }

  @Test(arguments: [SampleFiles.allvars, SampleFiles.tipD2, SampleFiles.mercator])
  func pointsBeyondTheEdgeBandAreOutside(path: String) throws {
    checkOutside(try CellLocator(grid: try WRFFixture.grid(path)))
  }

  @Test func fractionalPositionIsExactAtNodesAndInsideItsQuad() throws {
    let grid = try WRFFixture.grid(SampleFiles.tipD2)
    let locator = try CellLocator(grid: grid)
    for cell in stride(from: 0, to: grid.count, by: 97) {
      let position = try #require(
        locator.position(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell])))
      #expect(abs(position.x - Double(cell % grid.width)) < 1e-6)
      #expect(abs(position.y - Double(cell / grid.width)) < 1e-6)
    }
    var random = TestRandom(seed: 3)
    for _ in 0..<2_000 {
      let x = random.uniform(0...Double(grid.width - 1))
      let y = random.uniform(0...Double(grid.height - 1))
      let point = GridSampling.point(
        x: x, y: y, width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
      let position = try #require(locator.position(latitude: point.latitude, longitude: point.longitude))
      // Sampling interpolates lat/lon bilinearly, the locator inverts in the gnomonic
      // plane: on a 10 km grid they agree to well under a hundredth of a cell.
      #expect(abs(position.x - x) < 0.01 && abs(position.y - y) < 0.01)
    }
  }

  @Test func gridsThatCannotBeLocatedAreRejectedWithAReason() {
    #expect(throws: GeometryError.self) {
      try CurvilinearGrid(width: 2, height: 2, latitudes: [0, 0, 1, .nan], longitudes: [0, 1, 0, 1])
    }
    #expect(throws: GeometryError.self) {
      try CurvilinearGrid(width: 3, height: 2, latitudes: [0, 0, 1, 1], longitudes: [0, 1, 0, 1])
    }
    // A grid wrapping the whole globe has no gnomonic plane.
    let lats: [Float] = [-60, -60, -60, 60, 60, 60]
    let lons: [Float] = [0, 120, 240, 0, 120, 240]
    #expect(throws: GeometryError.self) {
      try CellLocator(grid: try CurvilinearGrid(width: 3, height: 2, latitudes: lats, longitudes: lons))
    }
  }
}
