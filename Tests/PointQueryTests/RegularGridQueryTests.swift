import CubeFormat
import Foundation
import PointQuery
import Testing
import _TestSupport

/// A global 10° cube: longitudes 0…350 (36 columns), latitudes −90…90 (19 rows, the poles
/// included), two hourly steps; temp at cell (i, j) and step s is i + 100·j + s/2, exactly
/// representable with a scale of 0.5.
private let width = 36
private let height = 19
private let firstTime: Int64 = 1_750_000_000

private func expected(i: Int, j: Int, step: Int = 0) -> Double { Double(i + 100 * j) + Double(step) / 2 }

private func writeGlobalCube(in directory: String) throws -> String {
  let path = "\(directory)/gfs/global/2025061512.cube"
  let header = CubeHeader(
    width: width, height: height, stepCount: 2, firstTime: firstTime, stepSeconds: 3600, runStart: firstTime - 3600,
    model: "gfs", domain: "global", gridSpacing: 1_111_950, projection: CubeProjection(code: 0, parameters: []),
    metrics: [CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.5, offset: 0)])
  let cells = (0..<(width * height))
  let writer = try CubeWriter(
    header: header, latitudes: cells.map { Float(-90 + 10 * ($0 / width)) },
    longitudes: cells.map { Float(10 * ($0 % width)) }, destination: path)
  for step in 0..<2 {
    let values = cells.map { expected(i: $0 % width, j: $0 / width, step: step) }
    #expect(writer.write(metric: 0, step: step, values: values) == nil)
  }
  return try writer.publish()
}

@Suite struct RegularGridQueryTests {
  @Test func aGlobalCubeAnswersEverywhereAndInterpolatesAcrossTheSeam() throws {
    let directory = SampleFiles.temporaryDirectory("global")
    defer { SampleFiles.remove(directory) }
    let cube = try Cube(path: try writeGlobalCube(in: directory))
    guard cube.locator.kind == .regular else {
      Issue.record("a global lat/lon cube got the curvilinear locator")
      return
    }
    #expect(cube.locator.isGlobal)
    let temp = try cube.metric("temp")
    let time = firstTime

    // Nodes (pole rows aside, where every column is the same point) give node values, by
    // either method, in either longitude convention.
    for j in 1..<(height - 1) {
      for i in 0..<width {
        let latitude = Double(-90 + 10 * j)
        for longitude in [Double(10 * i), Double(10 * i) - 360] where longitude >= -180 {
          for method in InterpolationMethod.allCases {
            let value = try cube.value(temp, latitude: latitude, longitude: longitude, time: time, method: method)
            #expect(abs(try #require(value) - expected(i: i, j: j)) < 1e-9, "\(method) at node (\(i), \(j))")
          }
        }
      }
    }

    // Halfway between the last column (350°) and the first (0°): the mean of the two
    // columns, not a value from the far side of the grid or the next row.
    for longitude in [355.0, -5.0] {
      let onRow = try cube.value(temp, latitude: 10, longitude: longitude, time: time, method: .bilinear)
      #expect(abs(try #require(onRow) - (expected(i: 35, j: 10) + expected(i: 0, j: 10)) / 2) < 1e-9)
      let location = try cube.locate(latitude: 15, longitude: longitude, method: .bilinear)
      let between = try #require(try cube.value(temp, at: location, time: time))
      let corners = [expected(i: 35, j: 10), expected(i: 0, j: 10), expected(i: 35, j: 11), expected(i: 0, j: 11)]
      #expect(abs(between - corners.reduce(0, +) / 4) < 1e-9)
      // The series path reads the same stencil.
      let series = try cube.series(temp, at: location, steps: 0..<2)
      #expect(series.count == 2 && abs((series[1] ?? .nan) - (between + 0.5)) < 1e-9)
      // Half an hour on, linear in time.
      let later = try #require(try cube.value(temp, at: location, time: time + 1800))
      #expect(abs(later - (between + 0.25)) < 1e-9)
    }

    // Anywhere: bilinear stays within its four corners (the seam quad included).
    var random = TestRandom(seed: 41)
    for _ in 0..<3_000 {
      let latitude = random.uniform(-90...90)
      let longitude = random.uniform(-180...360)
      let value = try #require(
        try cube.value(temp, latitude: latitude, longitude: longitude, time: time, method: .bilinear))
      var east = (longitude < 0 ? longitude + 360 : longitude) / 10
      if east >= Double(width) { east -= Double(width) }
      let i0 = min(Int(east), width - 1)
      let i1 = (i0 + 1) % width
      let j0 = min(Int((latitude + 90) / 10), height - 2)
      let corners = [
        expected(i: i0, j: j0), expected(i: i1, j: j0), expected(i: i0, j: j0 + 1), expected(i: i1, j: j0 + 1),
      ]
      let low = try #require(corners.min())
      let high = try #require(corners.max())
      #expect(value >= low - 1e-9 && value <= high + 1e-9, "(\(latitude), \(longitude)) → \(value)")
    }

    // Both poles answer, by both methods, from their pole rows.
    for latitude in [90.0, 89.9, -89.9, -90.0] {
      let row = latitude > 0 ? height - 1 : 0
      for longitude in stride(from: -180.0, through: 360, by: 22.5) {
        let nearest = try #require(
          try cube.value(temp, latitude: latitude, longitude: longitude, time: time, method: .nearest))
        #expect(nearest >= expected(i: 0, j: row) && nearest <= expected(i: width - 1, j: row))
        let location = try cube.locate(latitude: latitude, longitude: longitude, method: .bilinear)
        #expect(location.j == row)
        #expect(try cube.value(temp, at: location, time: time) != nil)
      }
    }
  }
}
