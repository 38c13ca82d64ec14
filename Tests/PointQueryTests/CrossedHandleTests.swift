import Foundation
import Ingest
import Meteorology
import PointQuery
import Testing
import _TestSupport

/// Two real cubes of different shapes, ingested once for the suite: the WRF sample of
/// 10 × 8 cells (`wrf_d01_allvars_lambert.nc`) and the GFS subset of 101 × 46 cells
/// (`gfs_1deg_subset.nc`, CF), with their paths.
private let crossedCubes: (wrf: String, gfs: String)? = {
  let directory = SampleFiles.temporaryDirectory("crossed")
  guard let wrf = try? Ingestor.run([SampleFiles.allvars], options: .init(store: "\(directory)/wrf")),
    let gfs = try? Ingestor.run(
      [SampleFiles.grid("cf/gfs_1deg_subset.nc")], options: .init(store: "\(directory)/gfs", model: "gfs")),
    let wrfPath = wrf.published.first?.path, let gfsPath = gfs.published.first?.path
  else { return nil }
  return (wrfPath, gfsPath)
}()

/// How a cube is named in the errors, written out from the cube's path (model/domain/run)
/// and the source file's dimensions, not from the cube's own description.
private func label(_ path: String, width: Int, height: Int) -> String {
  let parts = path.split(separator: "/").suffix(3)
  let run = parts.last.map { String($0.dropLast(".cube".count)) } ?? ""
  return "\(parts.first ?? "")/\(parts.dropFirst().first ?? "") \(run) (\(width)×\(height))"
}

private let advice = "locate points and resolve metrics with the cube that reads them"

/// Runs `body` and checks that it throws `foreignHandle` with exactly `message`.
private func expectRefusal(
  _ message: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) {
  do {
    try body()
    Issue.record("\(what): a foreign handle was accepted", sourceLocation: sourceLocation)
  } catch {
    guard let error = error as? QueryError, case .foreignHandle = error else {
      Issue.record("\(what): expected foreignHandle, got \(error)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.description == message, "\(what)", sourceLocation: sourceLocation)
  }
}

/// Every public read that takes a location or a metric, each with `location` and
/// `metric` given to `cube`; each must refuse with `message`.
private func expectEveryReadRefuses(
  _ cube: Cube, location: PointLocation, metric: QueryMetric, message: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let time = cube.firstTime
  expectRefusal(message, "value(_:at:time:)", sourceLocation: sourceLocation) {
    _ = try cube.value(metric, at: location, time: time)
  }
  var values = [Double](repeating: 0, count: cube.stepCount)
  expectRefusal(message, "series(_:at:steps:into:)", sourceLocation: sourceLocation) {
    try values.withUnsafeMutableBufferPointer { output in
      try cube.series(metric, at: location, steps: 0..<cube.stepCount, into: output)
    }
  }
  expectRefusal(message, "series(_:at:steps:)", sourceLocation: sourceLocation) {
    _ = try cube.series(metric, at: location, steps: 0..<cube.stepCount)
  }
  expectRefusal(message, "wordDecoding(_:at:)", sourceLocation: sourceLocation) {
    _ = try cube.wordDecoding(metric, at: location)
  }
  var words = [UInt16](repeating: 0, count: cube.stepCount)
  expectRefusal(message, "words(_:at:steps:into:)", sourceLocation: sourceLocation) {
    try words.withUnsafeMutableBufferPointer { output in
      try cube.words(metric, at: location, steps: 0..<cube.stepCount, into: output)
    }
  }
  // A prefetch is a hint: it ignores foreign handles rather than touching memory.
  cube.prefetchSeries(metric, at: location, steps: 0..<cube.stepCount)
}

/// Every public read that takes only a location.
private func expectLocationReadsRefuse(
  _ cube: Cube, location: PointLocation, message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  expectRefusal(message, "terrainHeight(at:)", sourceLocation: sourceLocation) {
    _ = try cube.terrainHeight(at: location)
  }
  expectRefusal(message, "isLand(at:)", sourceLocation: sourceLocation) { _ = try cube.isLand(at: location) }
  expectRefusal(message, "selecting(_:latitude:longitude:from:)", sourceLocation: sourceLocation) {
    _ = try cube.selecting(.land, latitude: location.latitude, longitude: location.longitude, from: location)
  }
}

@Suite struct CrossedHandleTests {
  private func cubes() throws -> (wrf: Cube, gfs: Cube, wrfLabel: String, gfsLabel: String) {
    let paths = try #require(crossedCubes, "the sample files did not ingest")
    let (wrf, gfs) = (try Cube(path: paths.wrf), try Cube(path: paths.gfs))
    // The shapes the labels below are written with, from the source files' dimensions.
    #expect((wrf.header.width, wrf.header.height) == (10, 8))
    #expect((gfs.header.width, gfs.header.height) == (101, 46))
    return (wrf, gfs, label(paths.wrf, width: 10, height: 8), label(paths.gfs, width: 101, height: 46))
  }

  /// A point on the last row of a cube's grid, where its indices lie beyond every cell of
  /// a smaller grid.
  private func farCorner(of cube: Cube) -> (latitude: Double, longitude: Double) {
    let grid = cube.locator.grid
    let cell = grid.count - 2
    return (Double(grid.latitudes[cell]), Double(grid.longitudes[cell]))
  }

  @Test func aLocationFromTheLargeGridIsRefusedByTheSmallGridsCube() throws {
    let (wrf, gfs, wrfLabel, gfsLabel) = try cubes()
    let point = farCorner(of: gfs)
    for method in InterpolationMethod.allCases {
      let location = try gfs.locate(latitude: point.latitude, longitude: point.longitude, method: method)
      // Read on the WRF cube, these indices would land past its 80 cells, outside its data.
      #expect(location.j * 10 + location.i >= 80)
      let message = "this location was made by cube \(gfsLabel) and cannot be used with cube \(wrfLabel); \(advice)"
      expectEveryReadRefuses(wrf, location: location, metric: try wrf.metric("temp"), message: message)
      expectLocationReadsRefuse(wrf, location: location, message: message)
    }
  }

  @Test func aLocationFromTheSmallGridIsRefusedByTheLargeGridsCube() throws {
    let (wrf, gfs, wrfLabel, gfsLabel) = try cubes()
    let point = farCorner(of: wrf)
    for method in InterpolationMethod.allCases {
      let location = try wrf.locate(latitude: point.latitude, longitude: point.longitude, method: method)
      let message = "this location was made by cube \(wrfLabel) and cannot be used with cube \(gfsLabel); \(advice)"
      expectEveryReadRefuses(gfs, location: location, metric: try gfs.metric("temp"), message: message)
      expectLocationReadsRefuse(gfs, location: location, message: message)
    }
  }

  @Test func aMetricResolvedOnTheWRFCubeIsRefusedByTheCFCube() throws {
    let (wrf, gfs, wrfLabel, gfsLabel) = try cubes()
    let message = "this metric was made by cube \(wrfLabel) and cannot be used with cube \(gfsLabel); \(advice)"
    let point = farCorner(of: gfs)
    let location = try gfs.locate(latitude: point.latitude, longitude: point.longitude, method: .nearest)
    // temp is stored by both (another slot could hold it); wind_vel reads two WRF slots
    // beyond the GFS cube's four metrics; hum is stored by WRF only.
    for name in ["temp", "wind_vel", "hum"] {
      let metric = try wrf.metric(name)
      expectEveryReadRefuses(gfs, location: location, metric: metric, message: message)
      expectRefusal(message, "value(_:latitude:longitude:time:method:) with \(name)") {
        _ = try gfs.value(
          metric, latitude: point.latitude, longitude: point.longitude, time: gfs.firstTime, method: .bilinear)
      }
    }
    // The cube's own handles still read.
    #expect(try gfs.value(try gfs.metric("temp"), at: location, time: gfs.firstTime) != nil)
  }

  @Test func aHandleOfAClosedCubeAndOfAnotherOpeningOfTheSameFileAreRefused() throws {
    let (_, gfs, _, gfsLabel) = try cubes()
    let paths = try #require(crossedCubes)
    let point = farCorner(of: gfs)
    var closed: Cube? = try Cube(path: paths.wrf)
    let stale = try #require(closed).metric("temp")
    closed = nil
    expectRefusal(
      "this metric was made by a cube that is no longer open and cannot be used with cube \(gfsLabel); \(advice)",
      "a closed cube's metric"
    ) {
      _ = try gfs.value(
        stale, latitude: point.latitude, longitude: point.longitude, time: gfs.firstTime, method: .nearest)
    }
    // A second opening of the same file is another cube: its handles belong to it alone.
    let again = try Cube(path: paths.gfs)
    let location = try again.locate(latitude: point.latitude, longitude: point.longitude, method: .nearest)
    expectRefusal(
      "this location was made by another opening of cube \(gfsLabel) and cannot be used with this one; \(advice)",
      "another opening's location"
    ) { _ = try gfs.value(try gfs.metric("temp"), at: location, time: gfs.firstTime) }
  }
}
