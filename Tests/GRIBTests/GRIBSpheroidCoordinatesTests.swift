import Foundation
import GRIB
import GridGeometry
import Testing
import _TestSupport

/// Projected grids on an oblate earth are placed by Snyder's ellipsoidal formulas, not by
/// ecCodes' iterator (which, in ecCodes 2.28, frees its arrays twice when its inverse does
/// not converge). ecCodes' own coordinates, from `grib_get_data` or its geoiterator, are the
/// oracle: they come from its iterative inverse, which shares nothing with the series here.
@Suite struct GRIBSpheroidCoordinatesTests {
  static let reference: Int64 = 1_782_000_000 - 1_782_000_000 % 86_400

  /// How far a stored Float coordinate may lie from the exact one: its rounding (half a
  /// unit in the last place) and the oracle's 10⁻⁶°.
  static func tolerance(_ degrees: Double) -> Double { Double(Float(degrees).ulp) / 2 + 1e-6 }

  /// The difference of two longitudes in degrees, the short way round.
  static func longitudeDifference(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).truncatingRemainder(dividingBy: 360)
    return abs(d > 180 ? d - 360 : d < -180 ? d + 360 : d)
  }

  /// ZAMG's 701 × 401 Lambert grid on the spheroid of shape 7 (Bessel's axes): the formulas,
  /// stepped from the first point by Dx and Dy, give `grib_get_data`'s coordinates at every
  /// one of its 281,101 points to 10⁻⁶°, and the reader's stored coordinates are those,
  /// rounded to Float.
  @Test func zamgsOblateLambertSampleIsPlacedAsEcCodesPlacesIt() throws {
    let path = ECCodesTools.sample("no-radius-shapeOfEarth-7.grb2")
    let file = try GRIBFile(path: path)
    let message = try #require(file.messages.first)
    func key(_ name: String) throws -> Double { try file.double(name, of: message) }
    let conic = try SpheroidalLambertConformal(
      major: try key("earthMajorAxisInMetres"), minor: try key("earthMinorAxisInMetres"),
      truelat1: try key("Latin1InDegrees"), truelat2: try key("Latin2InDegrees"),
      standardLongitude: try key("LoVInDegrees"))
    let origin = try #require(
      conic.project(
        latitude: try key("latitudeOfFirstGridPointInDegrees"),
        longitude: try key("longitudeOfFirstGridPointInDegrees")))
    let (dx, dy) = (try key("DxInMetres"), try key("DyInMetres"))
    let grid = try file.grid(of: message)
    let oracle = try ECCodesTools.data(of: path, message: 1)
    #expect(oracle.count == 701 * 401 && grid.latitudes.count == oracle.count)
    var worst = (formula: 0.0, stored: 0.0)
    for (k, point) in oracle.enumerated() where k < grid.latitudes.count {
      let (i, j) = (k % grid.width, k / grid.width)
      let placed = try #require(conic.unproject(x: origin.x + Double(i) * dx, y: origin.y + Double(j) * dy))
      worst.formula = max(
        worst.formula, abs(placed.latitude - point.latitude),
        Self.longitudeDifference(placed.longitude, point.longitude))
      worst.stored = max(
        worst.stored, abs(Double(grid.latitudes[k]) - point.latitude) / Self.tolerance(point.latitude),
        Self.longitudeDifference(Double(grid.longitudes[k]), point.longitude) / Self.tolerance(point.longitude))
    }
    #expect(worst.formula < 1e-6, "the formulas are off by up to \(worst.formula)°")
    #expect(worst.stored <= 1, "stored coordinates are off by up to \(worst.stored) of their tolerance")
    #expect(grid.projection == nil)
  }

  /// Grids written with ecCodes' templates on other spheroids, hemispheres, cones and
  /// scanning orders.
  static let grids: [(name: String, grid: GRIBTestGrid)] = [
    (
      "lambert secant, WGS 84",
      GRIBTestGrid.lambert(first: (30, -15), width: 40, height: 30, spacing: 50_000, latin1: 35, latin2: 65, lov: 10)
        .onEarth(shape: 5)
    ),
    (
      "lambert tangent, GRS 80",
      GRIBTestGrid.lambert(first: (40, -110), width: 30, height: 25, spacing: 40_000, latin1: 50, latin2: 50, lov: -100)
        .onEarth(shape: 4)
    ),
    (
      "lambert southern secant, IAU 1965",
      GRIBTestGrid.lambert(
        first: (-48, 120), width: 30, height: 30, spacing: 60_000, latin1: -30, latin2: -60, lov: 135
      )
      .onEarth(shape: 2)
    ),
    (
      "lambert across 180°, Airy 1830",
      GRIBTestGrid.lambert(first: (45, 165), width: 35, height: 20, spacing: 45_000, latin1: 55, latin2: 55, lov: 180)
        .onEarth(shape: 9)
    ),
    (
      "lambert, Bessel's axes (shape 7)",
      GRIBTestGrid.lambert(first: (46, 5), width: 30, height: 20, spacing: 30_000, latin1: 46, latin2: 49, lov: 13)
        .onEarth(shape: 7, axes: (6_377_397, 6_356_079))
    ),
    (
      "mercator, WGS 84",
      GRIBTestGrid.mercator(first: (-10, 100), width: 30, height: 25, spacing: 30_000, lad: 20).onEarth(shape: 5)
    ),
  ]

  /// Every point of each grid is where `grib_get_data` puts it, to the Float the reader
  /// stores.
  @Test(arguments: grids.indices)
  func writtenGridsOnASpheroidAreWhereEcCodesPutsThem(_ index: Int) throws {
    let (name, grid) = Self.grids[index]
    let directory = SampleFiles.temporaryDirectory("grib-spheroid-written")
    defer { SampleFiles.remove(directory) }
    let path = try Self.write(grid, in: directory)
    let oracle = try ECCodesTools.data(of: path, message: 1)
    let file = try GRIBFile(path: path)
    let read = try file.grid(of: try #require(file.messages.first))
    #expect(read.latitudes.count == oracle.count && oracle.count == grid.width * grid.height, "\(name)")
    guard case .spheroid = read.earth else {
      Issue.record("\(name): the earth is \(read.earth)")
      return
    }
    var worst = 0.0
    for (k, point) in oracle.enumerated() where k < read.latitudes.count {
      worst = max(
        worst, abs(Double(read.latitudes[k]) - point.latitude) / Self.tolerance(point.latitude),
        Self.longitudeDifference(Double(read.longitudes[k]), point.longitude) / Self.tolerance(point.longitude))
    }
    #expect(worst <= 1, "\(name): off by up to \(worst) of the tolerance")
  }

  /// A grid that scans westward (and southward) from a corner is the grid that scans east
  /// and north from the opposite corner, cell for cell in reverse. ecCodes 2.28's oblate
  /// Lambert iterator ignores the scanning flags (it always steps east and north from the
  /// first point), so the oracle is the eastward grid's `grib_get_data`, whose far corner
  /// (to the 10⁻⁶° GRIB2 stores) starts the other.
  @Test(arguments: [(1, 0), (1, 1), (0, 0)])
  func aGridScanningBackwardsIsTheForwardGridReversed(_ iNegative: Int, _ jPositive: Int) throws {
    let (width, height) = (30, 20)
    let forward = GRIBTestGrid.lambert(
      first: (46, 5), width: width, height: height, spacing: 30_000, latin1: 46, latin2: 49, lov: 13
    ).onEarth(shape: 7, axes: (6_377_397, 6_356_079))
    let directory = SampleFiles.temporaryDirectory("grib-spheroid-backwards")
    defer { SampleFiles.remove(directory) }
    let oracle = try ECCodesTools.data(of: try Self.write(forward, in: directory), message: 1)
    try #require(oracle.count == width * height)
    // The forward grid's cell (i, j) for the backward grid's (i, j).
    func forwardCell(_ i: Int, _ j: Int) -> Int {
      (jPositive == 1 ? j : height - 1 - j) * width + (iNegative == 1 ? width - 1 - i : i)
    }
    let corner = oracle[forwardCell(0, 0)]
    let backward = forward.with("latitudeOfFirstGridPointInDegrees", .real(corner.latitude))
      .with("longitudeOfFirstGridPointInDegrees", .real(corner.longitude))
      .with("iScansNegatively", .integer(iNegative)).with("jScansPositively", .integer(jPositive))
    let read = try Self.read(backward)
    var worst = 0.0
    for j in 0..<height {
      for i in 0..<width {
        let (k, point) = (j * width + i, oracle[forwardCell(i, j)])
        worst = max(
          worst, abs(Double(read.latitudes[k]) - point.latitude) / Self.tolerance(point.latitude),
          Self.longitudeDifference(Double(read.longitudes[k]), point.longitude) / Self.tolerance(point.longitude))
      }
    }
    #expect(worst <= 1.5, "off by up to \(worst) of the tolerance")
  }

  /// A Lambert grid on WGS 84 tangent at 60° N that runs from 60° N over the north pole
  /// reaches the cone's apex and the gap beyond its cut: no point of the earth lies there,
  /// and the grid is refused naming its size and the first such cell.
  @Test func aGridOverTheConesApexIsRefused() throws {
    let grid = GRIBTestGrid.lambert(
      first: (60, -100), width: 40, height: 40, spacing: 100_000, latin1: 60, latin2: 60, lov: -100
    ).onEarth(shape: 5)
    let error = try #require(throws: GRIBError.self) { _ = try Self.read(grid) }
    #expect(error.key == "Nx/Ny")
    #expect(error.reason.hasPrefix("the grid of 40 × 40 points reaches, at column 0, row "), "\(error.reason)")
    #expect(
      error.reason.hasSuffix("the cone's apex (a pole) or beyond its cut, where the Lambert projection places no point")
    )
  }

  /// A northern cone's grid that starts at the south pole starts at infinity on the plane:
  /// refused naming the first point's key.
  @Test func aFirstPointAtTheOppositePoleIsRefused() throws {
    let grid = GRIBTestGrid.lambert(
      first: (-90, 0), width: 10, height: 10, spacing: 50_000, latin1: 30, latin2: 60, lov: -20
    ).onEarth(shape: 5)
    let error = try #require(throws: GRIBError.self) { _ = try Self.read(grid) }
    #expect(error.key == "latitudeOfFirstGridPointInDegrees", "\(error.key ?? "no key"): \(error.reason)")
    #expect(error.reason == "the first point -90.0, 0.0 lies at infinity on the projection", "\(error.reason)")
  }

  /// True latitudes on both sides of the equator describe no cone: refused naming the first.
  @Test func trueLatitudesAcrossTheEquatorAreRefused() throws {
    let grid = GRIBTestGrid.lambert(
      first: (10, -30), width: 10, height: 10, spacing: 50_000, latin1: 30, latin2: -30, lov: -20
    ).onEarth(shape: 5)
    let error = try #require(throws: GRIBError.self) { _ = try Self.read(grid) }
    #expect(error.key == "Latin1InDegrees")
    #expect(error.reason.contains("describe no cone"), "\(error.reason)")
  }

  /// ecCodes 2.28 has no polar stereographic formulas on a spheroid to check against: such
  /// a grid is refused naming the shape of the earth.
  @Test func polarStereographicOnASpheroidIsRefused() throws {
    let grid = GRIBTestGrid.polarStereographic(
      first: (40, -130), width: 20, height: 20, spacing: 100_000, lad: 60, orientation: -105
    ).onEarth(shape: 5)
    let error = try #require(throws: GRIBError.self) { _ = try Self.read(grid) }
    #expect(error.key == "shapeOfTheEarth")
    #expect(error.reason.hasPrefix("polar_stereographic on an oblate earth is not supported"))
  }

  /// `grid` written as one temperature field in `directory`; the file's path.
  static func write(_ grid: GRIBTestGrid, in directory: String) throws -> String {
    let values = (0..<(grid.width * grid.height)).map { 250 + Double($0 % 50) }
    let path = "\(directory)/field.grib2"
    try GRIBWriter.write(
      [try GRIBWriter.message(.temperature(reference: reference, hours: 0, values: values), on: grid)], to: path)
    return path
  }

  /// `grid` written as one temperature field and read back.
  static func read(_ grid: GRIBTestGrid) throws -> GRIBGrid {
    let directory = SampleFiles.temporaryDirectory("grib-spheroid-written")
    defer { SampleFiles.remove(directory) }
    let file = try GRIBFile(path: try write(grid, in: directory))
    return try file.grid(of: try #require(file.messages.first))
  }
}
