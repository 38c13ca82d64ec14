import CubeFormat
import Foundation
import GridGeometry

/// A small real cube for robustness tests: 6 × 4 cells of a Lambert conformal grid (so that
/// a reader builds the analytic locator from the header's projection), 5 hourly steps and
/// three metrics of both temporal kinds with some missing words, and a terrain section,
/// written by `CubeWriter`.
enum SmallCube {
  static let width = 6
  static let height = 4
  static let stepCount = 5
  static let names = ["temp", "rain", "hum"]

  /// Writes the cube at `path` (without its terrain section when `terrain` is false, as
  /// cubes were written before the section) in format `version` and returns its bytes.
  static func write(to path: String, terrain withTerrain: Bool = true, version: UInt32 = 2) throws -> [UInt8] {
    let projection = try MapProjection(
      kind: .lambertConformal, truelat1: 30, truelat2: 60, standardLongitude: -8, poleLatitude: 90,
      gridSpacing: 12_000, origin: (38, -12))
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    for j in 0..<height {
      for i in 0..<width {
        let point = projection.coordinates(x: Double(i), y: Double(j))
        latitudes.append(Float(point.latitude))
        longitudes.append(Float(point.longitude))
      }
    }
    let header = CubeHeader(
      width: width, height: height, stepCount: stepCount, firstTime: 1_750_003_200, stepSeconds: 3600,
      runStart: 1_750_003_200 - 3600, model: "wrf", domain: "d03", gridSpacing: 12_000,
      projection: CubeProjection(code: 1, parameters: [30, 60, -8, 38.2, -11.7, 90, 0, 12_000]),
      metrics: [
        CubeMetric(name: names[0], unit: "°C", temporal: 0, scale: 0.01, offset: -150),
        CubeMetric(name: names[1], unit: "mm", temporal: 1, scale: 0.01, offset: 0),
        CubeMetric(name: names[2], unit: "%", temporal: 0, scale: 0.5, offset: 0),
      ])
    // Terrain of every kind a cube holds: land, water, unknown height, unknown mask.
    let terrain = CubeTerrain(
      heights: (0..<width * height).map { $0 == 3 ? .nan : Float($0 % width) * 125.5 - 20 },
      landMask: (0..<width * height).map { $0 == 7 ? CubeTerrain.unknownMask : ($0 % width < 3 ? 0 : 1) })
    let writer = try CubeWriter(
      header: header, latitudes: latitudes, longitudes: longitudes, terrain: withTerrain ? terrain : nil,
      destination: path, formatVersion: version)
    let cells = width * height
    for step in 0..<stepCount {
      writer.write(metric: 0, step: step, values: (0..<cells).map { 10 + Double($0) * 0.37 + Double(step) * 1.5 })
      writer.write(metric: 1, step: step, values: (0..<cells).map { step == 0 ? .nan : Double(($0 * 7 + step) % 13) })
      writer.write(metric: 2, step: step, values: (0..<cells).map { $0 == 5 && step == 2 ? .nan : Double(40 + $0) })
    }
    _ = try writer.publish()
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
