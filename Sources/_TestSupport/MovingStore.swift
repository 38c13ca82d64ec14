import CubeFormat
import Foundation

/// A store of one run with a fixed parent domain (d01) and a nest (d02) that moves by whole
/// cells, written directly with `CubeWriter`, so that tests of pictures know every cell's
/// place at every step. Both grids are regular in latitude and longitude. Values are
/// functions of place and time alone (the nest's offset by `nestOffset`, so that a picture
/// shows which domain answered), so a value read from the wrong position is a wrong value.
public enum MovingStore {
  /// Unix seconds of the first step (2026-06-20T00:00Z), which is also the run's start.
  public static let firstTime: Int64 = 1_781_913_600
  public static let steps = 12
  /// The parent: 40 × 30 cells of 0.1° from 38° N, 10° W.
  public static let parent = Grid(width: 40, height: 30, south: 38, west: -10, spacing: 0.1)
  /// The nest's cells are a third of the parent's; its first position starts at 38.5° N,
  /// 9.5° W.
  public static let nestSpacing = 0.1 / 3
  public static let nestWidth = 24
  public static let nestHeight = 18
  /// Each position's shift from the first, in nest cells (columns east, rows north).
  public static let shifts: [(columns: Int, rows: Int)] = [(0, 0), (3, 2), (6, 4), (12, 3)]
  /// The position of each step: the nest moves at steps 2, 4 and 8, and goes back to its
  /// second position at step 6.
  public static let stepPositions = [0, 0, 1, 1, 2, 2, 1, 1, 3, 3, 3, 3]
  /// Added to every nest temperature.
  public static let nestOffset = 3.0

  /// A regular latitude/longitude grid.
  public struct Grid: Sendable {
    public let width: Int
    public let height: Int
    public let south: Double
    public let west: Double
    public let spacing: Double

    public var latitudes: [Float] {
      (0..<(width * height)).map { Float(south + Double($0 / width) * spacing) }
    }
    public var longitudes: [Float] {
      (0..<(width * height)).map { Float(west + Double($0 % width) * spacing) }
    }
  }

  /// The nest's grid at `position`.
  public static func nest(position: Int) -> Grid {
    let shift = shifts[position]
    return Grid(
      width: nestWidth, height: nestHeight, south: 38.5 + Double(shift.rows) * nestSpacing,
      west: -9.5 + Double(shift.columns) * nestSpacing, spacing: nestSpacing)
  }

  /// Temperature (°C) at a place and step, before the nest's offset.
  public static func temperature(latitude: Double, longitude: Double, step: Int) -> Double {
    10 + 7 * (latitude - 38) + 3 * (longitude + 10) + 0.5 * Double(step)
  }

  /// The hour's rain (mm) ending at `step` at a place: a band that moves east with time.
  public static func rain(latitude: Double, longitude: Double, step: Int) -> Double {
    max(0, 12 - 40 * abs(longitude + 9.6 - 0.05 * Double(step))) + (latitude - 38)
  }

  /// Land east of 9.3° W by the parent's mask, east of 9° W by the nest's, so that a
  /// picture shows which grid's mask it drew.
  public static func isLand(longitude: Double, nest: Bool) -> Bool { longitude > (nest ? -9 : -9.3) }

  /// The metric definitions: `temp` (instant) and `rain` (hourly amount).
  public static let metrics = [
    CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -100),
    CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.01, offset: 0),
  ]

  /// Writes the two cubes into `store`; returns their paths, parent first.
  @discardableResult
  public static func write(into store: String) throws -> [String] {
    let parentPath = try write(
      domain: "d01", spacing: 11_000, grids: [parent], stepPositions: [Int](repeating: 0, count: steps), offset: 0,
      store: store)
    let nestPath = try write(
      domain: "d02", spacing: 3_700, grids: shifts.indices.map(nest(position:)), stepPositions: stepPositions,
      offset: nestOffset, store: store)
    return [parentPath, nestPath]
  }

  private static func write(
    domain: String, spacing: Double, grids: [Grid], stepPositions: [Int], offset: Double, store: String
  ) throws -> String {
    let nest = domain == "d02"
    let first = grids[0]
    let header = CubeHeader(
      width: first.width, height: first.height, stepCount: steps, firstTime: firstTime, stepSeconds: 3_600,
      runStart: firstTime, model: "wrf", domain: domain, gridSpacing: spacing,
      projection: CubeProjection(code: 6, parameters: []), metrics: metrics)
    let positions = grids.map { grid in
      CubeGrid(
        latitudes: grid.latitudes, longitudes: grid.longitudes,
        terrain: CubeTerrain(
          heights: grid.longitudes.map { isLand(longitude: Double($0), nest: nest) ? 100 : 0 },
          landMask: grid.longitudes.map { isLand(longitude: Double($0), nest: nest) ? 1 : 0 }))
    }
    let path = StoreLayout.path(store: store, model: "wrf", domain: domain, run: "2026062000")
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let writer = try CubeWriter(
      header: header, positions: positions, stepPositions: stepPositions, destination: path)
    for step in 0..<steps {
      let grid = grids[stepPositions[step]]
      let places = Array(zip(grid.latitudes, grid.longitudes))
      writer.write(
        metric: 0, step: step,
        values: places.map { temperature(latitude: Double($0), longitude: Double($1), step: step) + offset })
      writer.write(
        metric: 1, step: step,
        values: places.map { step == 0 ? .nan : rain(latitude: Double($0), longitude: Double($1), step: step) })
    }
    return try writer.publish()
  }
}
