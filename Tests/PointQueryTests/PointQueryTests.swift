import Foundation
import Ingest
import Meteorology
import PointQuery
import SampleRun
import Store
import Testing
import _TestSupport

/// One ingested generated run shared by the tests of this suite (ingest is the slow part).
private let sampleStore: String = {
  let directory = SampleFiles.temporaryDirectory("query")
  var spec = SampleRunSpec.portugal9km
  spec.hours = 6
  let files = (try? SampleRunGenerator.write(spec, to: "\(directory)/run")) ?? []
  _ = try? Ingestor.run(files, options: .init(store: "\(directory)/store"))
  return "\(directory)/store"
}()

private func sampleCube() throws -> Cube { try #require(try ForecastStore(path: sampleStore).cubes.first) }

@Suite struct PointQueryTests {
  @Test func bilinearReturnsNodeValuesAtNodesAndStaysWithinItsCorners() throws {
    let cube = try sampleCube()
    let grid = cube.locator.grid
    let temp = try cube.metric("temp")
    let time = cube.time(ofStep: 3)
    for cell in stride(from: 0, to: grid.count, by: 331) {
      let (lat, lon) = (Double(grid.latitudes[cell]), Double(grid.longitudes[cell]))
      let node = try cube.value(temp, at: try cube.locate(latitude: lat, longitude: lon, method: .nearest), time: time)
      let interpolated = try cube.value(
        temp, at: try cube.locate(latitude: lat, longitude: lon, method: .bilinear), time: time)
      #expect(abs(try #require(node) - (try #require(interpolated))) < 1e-6)
    }
    var random = TestRandom(seed: 11)
    for _ in 0..<2_000 {
      let x = random.uniform(0...Double(grid.width - 1))
      let y = random.uniform(0...Double(grid.height - 1))
      let point = GridSampling.point(
        x: x, y: y, width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
      let location = try cube.locate(latitude: point.latitude, longitude: point.longitude, method: .bilinear)
      let value = try #require(try cube.value(temp, at: location, time: time))
      // The four corners of the quad that holds the point, read by nearest lookups.
      let i0 = min(Int(x), grid.width - 2)
      let j0 = min(Int(y), grid.height - 2)
      let corners = try [(0, 0), (1, 0), (0, 1), (1, 1)].map { di, dj in
        let cell = (j0 + dj) * grid.width + i0 + di
        return try #require(
          try cube.value(
            temp,
            at: try cube.locate(
              latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]), method: .nearest),
            time: time))
      }
      #expect(value >= corners.min()! - 1e-9 && value <= corners.max()! + 1e-9)
    }
  }

  @Test func timesBetweenStepsAreLinearAndWindGoesThroughItsComponents() throws {
    let cube = try sampleCube()
    let location = try cube.locate(latitude: 38.72, longitude: -9.14, method: .nearest)
    let at = { (name: String, time: Int64) throws -> Double in
      try #require(try cube.value(try cube.metric(name), at: location, time: time))
    }
    let t0 = cube.time(ofStep: 2)
    let t1 = cube.time(ofStep: 3)
    let quarter = t0 + (t1 - t0) / 4
    #expect(abs(try at("temp", quarter) - (0.75 * (try at("temp", t0)) + 0.25 * (try at("temp", t1)))) < 1e-9)
    let u = 0.75 * (try at("wind_u", t0)) + 0.25 * (try at("wind_u", t1))
    let v = 0.75 * (try at("wind_v", t0)) + 0.25 * (try at("wind_v", t1))
    #expect(abs(try at("wind_vel", quarter) - (u * u + v * v).squareRoot()) < 1e-9)
    var expected = 270 - atan2(v, u) * 180 / .pi
    expected = expected.truncatingRemainder(dividingBy: 360)
    if expected < 0 { expected += 360 }
    #expect(abs(try at("wind_dir", quarter) - expected) < 1e-9)
  }

  @Test func theMeanOfNorthWesterlyAndNorthEasterlyIsNortherly() {
    // 350° and 10° through u/v: u = −sin(d)·s, v = −cos(d)·s.
    let rad = { (d: Double) in d * .pi / 180 }
    let u = (-sin(rad(350)) - sin(rad(10))) / 2
    let v = (-cos(rad(350)) - cos(rad(10))) / 2
    let direction = Wind.direction(u: u, v: v)
    #expect(min(direction, 360 - direction) < 0.5)
  }

  /// The sample run's cube locates through its Lambert projection; its cells are the
  /// brute-force nearest, as the generic locator's are, edge band included.
  @Test func theSampleCubeLocatesThroughItsProjectionExactly() throws {
    let cube = try sampleCube()
    guard cube.locator.kind == .analytic else {
      Issue.record("expected the analytic locator, got \(cube.locator.kind)")
      return
    }
    let grid = cube.locator.grid
    let wrong = try BruteForce.wrongAnswers(on: grid, count: 10_000, seed: 31) { latitude, longitude in
      let location = try cube.locate(latitude: latitude, longitude: longitude, method: .nearest)
      return location.j * grid.width + location.i
    }
    #expect(wrong == 0)
  }

  @Test func aOneShotValueEqualsLocateThenValue() throws {
    let cube = try sampleCube()
    let grid = cube.locator.grid
    let metrics = cube.availableMetrics
    var random = TestRandom(seed: 21)
    for _ in 0..<3_000 {
      let point = GridSampling.point(
        x: random.uniform(-0.4...Double(grid.width) - 0.6), y: random.uniform(-0.4...Double(grid.height) - 0.6),
        width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
      let time = cube.header.firstTime + Int64(random.next() % UInt64(cube.lastTime - cube.header.firstTime + 1))
      let metric = metrics[Int(random.next() % UInt64(metrics.count))]
      for method in InterpolationMethod.allCases {
        let location = try cube.locate(latitude: point.latitude, longitude: point.longitude, method: method)
        let expected = try cube.value(metric, at: location, time: time)
        let oneShot = try cube.value(
          metric, latitude: point.latitude, longitude: point.longitude, time: time, method: method)
        #expect(oneShot == expected)
      }
    }
    let temp = try cube.metric("temp")
    #expect(throws: QueryError.self) {
      try cube.value(temp, latitude: 38.1294, longitude: 8.9341, time: cube.lastTime, method: .nearest)
    }
    #expect(throws: QueryError.self) {
      try cube.value(temp, latitude: 39, longitude: -8, time: cube.lastTime + 3600, method: .bilinear)
    }
  }

  @Test func seriesEqualsSingleValuesAtEachStep() throws {
    let cube = try sampleCube()
    for method in InterpolationMethod.allCases {
      let location = try cube.locate(latitude: 40.2, longitude: -8.4, method: method)
      let steps = try cube.stepIndices(from: cube.time(ofStep: 1) - 60, to: cube.lastTime)
      #expect(steps == 1..<cube.header.stepCount)
      for metric in cube.availableMetrics {
        let series = try cube.series(metric, at: location, steps: steps)
        for (index, step) in steps.enumerated() {
          #expect(series[index] == (try cube.value(metric, at: location, time: cube.time(ofStep: step))))
        }
      }
    }
  }

  @Test func pointsTimesAndMetricsOutsideTheCubeGetDistinctErrors() throws {
    let store = try ForecastStore(path: sampleStore)
    let cube = try sampleCube()
    let outside = #expect(throws: QueryError.self) {
      try store.select(latitude: 38.1294, longitude: 8.9341, time: cube.firstTime, method: .nearest)
    }
    #expect(outside?.description.contains("is outside the domain wrf/d01") == true)
    #expect(outside?.description.contains("did you mean longitude -8.9341") == true)
    let far = #expect(throws: QueryError.self) {
      try store.select(latitude: -40, longitude: 120, time: cube.firstTime, method: .bilinear)
    }
    #expect(far?.description.contains("did you mean") == false)
    let late = #expect(throws: QueryError.self) {
      try cube.value(
        try cube.metric("temp"), at: try cube.locate(latitude: 39, longitude: -8, method: .nearest),
        time: cube.lastTime + 1)
    }
    #expect(late?.description.hasPrefix("time 2026-06-20T06:00:01Z is outside run 2026062000") == true)
    let unknown = #expect(throws: QueryError.self) { try cube.metric("tmp") }
    #expect(unknown?.description.hasPrefix("unknown metric 'tmp'; known metrics: temp, hum") == true)
    #expect(throws: QueryError.self) { try cube.locate(latitude: .infinity, longitude: 0, method: .nearest) }
    #expect(throws: QueryError.self) {
      try store.select(latitude: 39, longitude: -8, time: cube.firstTime, method: .nearest, domain: "d07")
    }
  }

  @Test func nestedDomainsAnswerFromTheFinestThatContainsThePoint() throws {
    let store = SampleFiles.temporaryDirectory("nested")
    defer { SampleFiles.remove(store) }
    _ = try Ingestor.run([SampleFiles.tipD1, SampleFiles.tipD2], options: .init(store: store))
    let forecast = try ForecastStore(path: store)
    let d02 = try #require(forecast.cubes.first { $0.header.domain == "d02" })
    let grid = d02.locator.grid
    let centre = grid.count / 2 + grid.width / 2
    let time = d02.firstTime
    let inner = try forecast.select(
      latitude: Double(grid.latitudes[centre]), longitude: Double(grid.longitudes[centre]), time: time,
      method: .nearest)
    #expect(inner.0.header.domain == "d02")
    let d01 = try #require(forecast.cubes.first { $0.header.domain == "d01" }).locator.grid
    let outer = try forecast.select(
      latitude: Double(d01.latitudes[5]), longitude: Double(d01.longitudes[5]), time: time, method: .nearest)
    #expect(outer.0.header.domain == "d01")
    let forced = try forecast.select(
      latitude: Double(grid.latitudes[centre]), longitude: Double(grid.longitudes[centre]), time: time,
      method: .nearest, domain: "d01")
    #expect(forced.0.header.domain == "d01")
    #expect(throws: QueryError.self) { try forecast.select(latitude: 0, longitude: 0, time: time, method: .nearest) }
  }
}
