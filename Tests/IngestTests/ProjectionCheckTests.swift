import CubeFormat
import Foundation
import GridGeometry
import Ingest
import NetCDF
import PointQuery
import Testing
import _TestSupport

/// Whether a cube locates through its projection.
func isAnalytic(_ cube: Cube) -> Bool {
  cube.locator.kind == .analytic
}

@Suite struct ProjectionCheckTests {
  /// Real WRF files on three grids, a cut-down one among them: their projections hold, so
  /// ingest says nothing about them and the cubes locate analytically.
  @Test(arguments: [SampleFiles.allvars, SampleFiles.tipD2, SampleFiles.mercator])
  func realFilesIngestQuietlyAndLocateThroughTheirProjection(path: String) throws {
    let store = SampleFiles.temporaryDirectory("projection-ok")
    defer { SampleFiles.remove(store) }
    let report = try Ingestor.run([path], options: .init(store: store))
    #expect(!report.warnings.contains { $0.contains("locator") }, "\(report.warnings)")
    let cube = try Cube(path: try #require(report.published.first).path)
    #expect(isAnalytic(cube))
  }

  /// A TRUELAT1 that is not the grid's: ingest names the file, the attribute and how far
  /// off the mapping is; the cube keeps the source's attributes, opens with the generic
  /// locator, and answers as before.
  @Test func aProjectionThatDisagreesWithXLATXLONGIsReportedAndQueriesStayExact() throws {
    let directory = SampleFiles.temporaryDirectory("projection-bad")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_d02_2008-10-26_12:00:00"
    try WRFFixture.copy(SampleFiles.tipD2, to: copy, attributes: ["TRUELAT1": .reals([40])])
    let report = try Ingestor.run([copy], options: .init(store: "\(directory)/store"))
    let warning = try #require(report.warnings.first { $0.contains("locator") }, "\(report.warnings)")
    #expect(warning.hasPrefix("\(copy): MAP_PROJ 1 (Lambert conformal) disagrees with XLAT/XLONG by "))
    #expect(warning.hasSuffix("; queries use the generic locator"))
    let cube = try Cube(path: try #require(report.published.first).path)
    #expect(cube.header.projection.code == 1 && cube.header.projection.parameters[0] == 40)
    guard cube.locator.kind == .curvilinear else {
      Issue.record("expected the generic locator, got \(cube.locator.kind)")
      return
    }
    // The generic locator is exact (its own tests check it against brute force); here, every
    // cell's coordinates still answer with that cell.
    let grid = cube.locator.grid
    for cell in stride(from: 0, to: grid.count, by: 7) {
      let location = try cube.locate(
        latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]), method: .nearest)
      #expect(location.j * grid.width + location.i == cell)
    }
  }

  /// The cube records what ingest checked (decoded by the format's definition,
  /// `Version3Cube`): geometry flag bit 0 when the projection locates every cell, and a
  /// locator index (bit 1) for a grid that does not move and gets an indexed locator; a
  /// projection that disagrees with the cells gets neither bit 0 nor (the generic locator
  /// has no index) bit 1.
  @Test func theCubeRecordsWhetherTheProjectionLocatesEveryCell() throws {
    let directory = SampleFiles.temporaryDirectory("projection-flags")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_d02_2008-10-26_12:00:00"
    try WRFFixture.copy(SampleFiles.tipD2, to: copy, attributes: ["TRUELAT1": .reals([40])])
    func record(_ path: String, _ store: String) throws -> Version3Cube {
      let report = try Ingestor.run([path], options: .init(store: "\(directory)/\(store)"))
      let cube = try #require(report.published.first).path
      return try Version3Cube(Array(try Data(contentsOf: URL(fileURLWithPath: cube))))
    }
    for (index, path) in [SampleFiles.allvars, SampleFiles.tipD2, SampleFiles.mercator].enumerated() {
      let good = try record(path, "good\(index)")
      #expect(good.geometryFlags == 0b11, "\(path): flags \(good.geometryFlags)")
      #expect(good.locatorIndex?.count == LocatorIndex.encodedBytes, "\(path)")
    }
    let bad = try record(copy, "bad")
    #expect(bad.geometryFlags == 0, "flags \(bad.geometryFlags)")
    #expect(bad.locatorIndex == nil)
  }

  /// One check feeds the warning, the cube's record (geometry flag bit 0) and its locator
  /// index, and all three agree with a reader's own check of the stored grid (the analytic
  /// locator and `LocatorIndex.encode` built from the cube's coordinates and projection):
  /// on files whose projection holds (two Lambert grids, a Mercator grid, a moving nest), on
  /// one whose TRUELAT1 is wrong, and on a CF lattice.
  @Test func theWarningTheRecordAndTheIndexAgreeWithAReadersCheck() throws {
    let directory = SampleFiles.temporaryDirectory("projection-agree")
    defer { SampleFiles.remove(directory) }
    let wrong = "\(directory)/wrfout_d02_2008-10-26_12:00:00"
    try WRFFixture.copy(SampleFiles.tipD2, to: wrong, attributes: ["TRUELAT1": .reals([40])])
    let paths = [
      SampleFiles.allvars, SampleFiles.tipD2, SampleFiles.mercator, SampleFiles.grid("wrf/wrf_katrina_moving_d02.nc"),
      wrong, SampleFiles.grid("cf/gfs_1deg_subset.nc"),
    ]
    var outcomes: Set<String> = []
    for (number, path) in paths.enumerated() {
      let report = try Ingestor.run([path], options: .init(store: "\(directory)/store\(number)"))
      let published = try #require(report.published.first).path
      let cube = try Version3Cube(Array(try Data(contentsOf: URL(fileURLWithPath: published))))
      let warning = report.warnings.first { $0.hasSuffix("; queries use the generic locator") }
      var locates = true
      var warned = false
      var index: [UInt8]?
      for (latitudes, longitudes) in zip(cube.latitudes, cube.longitudes) {
        let grid = try CurvilinearGrid(
          width: cube.width, height: cube.height, latitudes: latitudes, longitudes: longitudes)
        let projection =
          cube.projectionCode == 0
          ? nil
          : try? MapProjection(
            wrfCode: Int(cube.projectionCode), parameters: cube.projectionParameters, grid: grid)
        let analytic = projection.flatMap { try? AnalyticLocator(grid: grid, projection: $0) }
        locates = locates && analytic != nil
        warned = warned || (cube.projectionCode != 0 && analytic == nil && RegularLatLonLocator(grid: grid) == nil)
        index = cube.latitudes.count == 1 ? LocatorIndex.encode(grid: grid, projection: projection) : nil
      }
      #expect((warning != nil) == warned, "\(path): \(String(describing: warning))")
      #expect((cube.geometryFlags & 1 == 1) == locates, "\(path): flags \(cube.geometryFlags)")
      #expect(cube.locatorIndex == index, "\(path)")
      #expect((cube.geometryFlags & 2 == 2) == (index != nil), "\(path): flags \(cube.geometryFlags)")
      outcomes.insert("warning \(warned), locates \(locates), index \(index != nil)")
    }
    // The files cover a grid that passes with an index, one that moves (no index), one
    // that fails, and a lattice (an index, no projection).
    #expect(outcomes.count >= 3, "\(outcomes)")
  }

  /// Codes with no analytic mapping are reported; codes that are no codes at all (negative,
  /// fractional, too large) are stored as unknown, without a crash and without a warning.
  @Test func unusableProjectionCodesAreReportedOrRecordedAsUnknown() throws {
    let directory = SampleFiles.temporaryDirectory("projection-codes")
    defer { SampleFiles.remove(directory) }
    let cases: [(NCAttribute, UInt32, String?)] = [
      (.integers([5]), 5, "MAP_PROJ 5 is not a projection with an analytic mapping (1, 2, 3 or 6)"),
      (.integers([-1]), 0, nil), (.reals([1.5]), 0, nil), (.reals([1e12]), 0, nil),
    ]
    for (index, (value, stored, expected)) in cases.enumerated() {
      let copy = "\(directory)/wrfout_d01_\(index)"
      try WRFFixture.copy(SampleFiles.allvars, to: copy, attributes: ["MAP_PROJ": value])
      let report = try Ingestor.run([copy], options: .init(store: "\(directory)/store\(index)"))
      let warning = report.warnings.first { $0.contains("locator") }
      #expect(warning == expected.map { "\(copy): \($0); queries use the generic locator" }, "\(value)")
      let cube = try Cube(path: try #require(report.published.first).path)
      #expect(cube.header.projection.code == stored)
      #expect(!isAnalytic(cube))
    }
  }

  /// A parameter that makes no projection is named.
  /// The cube keeps such a spacing as unknown (0), which readers accept, rather than a value
  /// outside the cube's limits.
  @Test(arguments: [-30_000, Double.nan])
  func projectionParametersThatDescribeNoProjectionAreNamed(dx: Double) throws {
    let directory = SampleFiles.temporaryDirectory("projection-parameters")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_d01"
    try WRFFixture.copy(SampleFiles.allvars, to: copy, attributes: ["DX": .reals([dx])])
    let report = try Ingestor.run([copy], options: .init(store: "\(directory)/store"))
    #expect(
      report.warnings.contains(
        "\(copy): MAP_PROJ 1 (Lambert conformal): DX \(dx) is not a positive grid spacing; queries use the generic locator"
      ), "\(report.warnings)")
    let cube = try Cube(path: try #require(report.published.first).path)
    #expect(cube.header.gridSpacing == 0)
  }
}
