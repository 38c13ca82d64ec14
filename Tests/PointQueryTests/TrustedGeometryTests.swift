import CubeFormat
import Foundation
import GridGeometry
import Testing
import _TestSupport

@testable import PointQuery

/// A one-step cube over `grid` with the projection `code`/`parameters`, in format
/// `version`, laid out with `layout` (version 3 only).
private func writeCube(
  _ grid: CurvilinearGrid, code: Int, parameters: [Double], layout: CubeWriter.Layout = CubeWriter.Layout(),
  version: UInt32 = 3, in directory: String
) throws -> String {
  let header = CubeHeader(
    width: grid.width, height: grid.height, stepCount: 1, firstTime: 1_750_000_000, stepSeconds: 3600,
    runStart: 1_750_000_000, model: "trusted", domain: "d01", gridSpacing: 9000,
    projection: CubeProjection(code: UInt32(code), parameters: parameters),
    metrics: [CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.5, offset: -100)])
  let writer = try CubeWriter(
    header: header, positions: [CubeGrid(latitudes: grid.latitudes, longitudes: grid.longitudes, terrain: nil)],
    stepPositions: [0], destination: "\(directory)/v\(version)/trusted/d01/2025061512.cube", layout: layout,
    formatVersion: version)
  #expect(writer.write(metric: 0, step: 0, values: Array(repeating: 15, count: grid.count)) == nil)
  return try writer.publish()
}

/// How many of `count` random points inside the grid `cube` locates (nearest) to a cell
/// that is not the brute-force great-circle nearest, or calls outside.
private func wrongAnswers(_ cube: Cube, grid: CurvilinearGrid, seed: UInt64, count: Int = 3_000) -> Int {
  BruteForce.wrongAnswers(on: grid, count: count, seed: seed) { latitude, longitude in
    guard let location = try? cube.locate(latitude: latitude, longitude: longitude, method: .nearest) else {
      return nil
    }
    return location.j * grid.width + location.i
  }
}

/// Version 3 cubes whose record vouches for the geometry open without a pass over the cells
/// and answer as the checked locators do.
@Suite struct TrustedGeometryTests {
  @Test func aCubeWithACheckedProjectionAndItsIndexLocatesWithoutCheckingAndExactly() throws {
    let directory = SampleFiles.temporaryDirectory("trusted-analytic")
    defer { SampleFiles.remove(directory) }
    let (grid, code, parameters) = try GridFiles.wrf(SampleFiles.tipD2)
    let projection = try MapProjection(wrfCode: code, parameters: parameters, grid: grid)
    let index = try #require(LocatorIndex.encode(grid: grid, projection: projection))
    let path = try writeCube(
      grid, code: code, parameters: parameters,
      layout: CubeWriter.Layout(projectionChecked: true, locatorIndex: index), in: directory)
    let cube = try Cube(path: path)
    let analytic = try #require(cube.locator.analytic, "expected the analytic locator, got \(cube.locator.kind)")
    #expect(analytic.buildWork == 0)
    #expect(analytic.margin == (try AnalyticLocator(grid: grid, projection: projection)).margin)
    #expect(wrongAnswers(cube, grid: grid, seed: 1) == 0)

    // The same grid as version 2: checked at open, the same answers.
    let older = try Cube(path: try writeCube(grid, code: code, parameters: parameters, version: 2, in: directory))
    #expect((older.locator.analytic?.buildWork ?? 0) > 0)
    var random = TestRandom(seed: 2)
    for _ in 0..<2_000 {
      let (latitude, longitude) = (random.uniform(30...50), random.uniform(-30...10))
      let a = try? cube.locate(latitude: latitude, longitude: longitude, method: .bilinear)
      let b = try? older.locate(latitude: latitude, longitude: longitude, method: .bilinear)
      #expect(a?.i == b?.i && a?.j == b?.j && a?.fx == b?.fx && a?.fy == b?.fy, "\(latitude), \(longitude)")
    }
  }

  /// Bit 0 without an index: the largest margin, still exact.
  @Test func aCubeWithACheckedProjectionAndNoIndexLocatesExactly() throws {
    let directory = SampleFiles.temporaryDirectory("trusted-flag")
    defer { SampleFiles.remove(directory) }
    let (grid, code, parameters) = try GridFiles.wrf(SampleFiles.tipD1)
    let path = try writeCube(
      grid, code: code, parameters: parameters, layout: CubeWriter.Layout(projectionChecked: true), in: directory)
    let cube = try Cube(path: path)
    let analytic = try #require(cube.locator.analytic)
    #expect(analytic.buildWork == 0 && analytic.margin == AnalyticLocator.largestMargin)
    #expect(wrongAnswers(cube, grid: grid, seed: 3) == 0)
  }

  /// A lattice from its index: the axes alone are read.
  @Test func aLatticeCubeWithItsIndexLocatesFromItsAxes() throws {
    let directory = SampleFiles.temporaryDirectory("trusted-lattice")
    defer { SampleFiles.remove(directory) }
    let latitudes = (0..<91).map { Float(60 - Double($0) * 0.5) }
    let longitudes = (0..<121).map { Float(-30 + Double($0) * 0.5) }
    let grid = try CurvilinearGrid(
      width: 121, height: 91, latitudes: latitudes.flatMap { latitude in longitudes.map { _ in latitude } },
      longitudes: latitudes.flatMap { _ in longitudes })
    let index = try #require(LocatorIndex.encode(grid: grid, projection: nil))
    let path = try writeCube(
      grid, code: 6, parameters: [Double](repeating: .nan, count: 8), layout: CubeWriter.Layout(locatorIndex: index),
      in: directory)
    let cube = try Cube(path: path)
    let regular = try #require(cube.locator.regular, "expected the regular locator, got \(cube.locator.kind)")
    #expect(regular.buildWork == 4 * (121 + 91))
    #expect(wrongAnswers(cube, grid: grid, seed: 4) == 0)
  }

  /// An index that does not decode (a writer's fault: the checksums are right) is refused,
  /// naming the section and the field.
  @Test func aCubeWhoseIndexDoesNotDecodeIsRefusedNamingIt() throws {
    let directory = SampleFiles.temporaryDirectory("trusted-bad-index")
    defer { SampleFiles.remove(directory) }
    let (grid, code, parameters) = try GridFiles.wrf(SampleFiles.allvars)
    var index = try #require(
      LocatorIndex.encode(
        grid: grid, projection: try MapProjection(wrfCode: code, parameters: parameters, grid: grid)))
    index[16] &+= 1  // the width
    let path = try writeCube(
      grid, code: code, parameters: parameters,
      layout: CubeWriter.Layout(projectionChecked: true, locatorIndex: index), in: directory)
    let error = #expect(throws: QueryError.self) { try Cube(path: path) }
    let text = error?.description ?? ""
    #expect(text.contains("locator index: made for a \(grid.width + 1)×\(grid.height) grid"), "\(text)")
    #expect(text.contains(path))
  }
}
