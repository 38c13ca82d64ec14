import CubeFormat
import Foundation
import GridGeometry
import _TestSupport

/// Small cubes whose grid moves, for the positions section's tests: a Lambert conformal
/// grid whose position p is the base grid shifted by whole cells, as a WRF nest moves,
/// with terrain that belongs to the place (so that it moves with the coordinates) and
/// values that depend on cell and step.
struct MovingCube {
  var width = 6
  var height = 4
  var stepCount = 7
  /// Each position's shift from the base grid, in cells (i, j).
  var shifts: [(Int, Int)] = [(0, 0), (1, 0), (2, 1)]
  /// Each step's position, canonical.
  var table = [0, 0, 1, 1, 0, 2, 2]
  var terrain = true
  var version: UInt32 = 2

  static let names = ["temp", "rain"]

  /// The same cube with a grid that does not move: position 0 at every step.
  static var still: MovingCube {
    var cube = MovingCube()
    cube.shifts = [(0, 0)]
    cube.table = Array(repeating: 0, count: cube.stepCount)
    return cube
  }

  var cells: Int { width * height }

  /// The grid of position `position`: cell (i, j) at the base grid's (i + di, j + dj).
  func grid(_ position: Int) throws -> CubeGrid {
    let projection = try MapProjection(
      kind: .lambertConformal, truelat1: 30, truelat2: 60, standardLongitude: -8, poleLatitude: 90,
      gridSpacing: 12_000, origin: (38, -12))
    let (di, dj) = shifts[position]
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    var heights: [Float] = []
    var masks: [UInt8] = []
    for j in 0..<height {
      for i in 0..<width {
        let point = projection.coordinates(x: Double(i + di), y: Double(j + dj))
        latitudes.append(Float(point.latitude))
        longitudes.append(Float(point.longitude))
        // Of the place, not the index; one unknown height and one unknown mask per grid.
        let place = (j + dj) * 100 + (i + di)
        heights.append(place == 3 ? .nan : Float(place) * 1.5 - 20)
        masks.append(place == 7 ? CubeTerrain.unknownMask : UInt8((i + di) & 1))
      }
    }
    return CubeGrid(
      latitudes: latitudes, longitudes: longitudes,
      terrain: terrain ? CubeTerrain(heights: heights, landMask: masks) : nil)
  }

  /// The value of metric `metric` at cell `cell` and step `step`, NaN where missing.
  func value(_ metric: Int, cell: Int, step: Int) -> Double {
    metric == 0 ? 10 + Double(cell) * 0.37 + Double(step) * 1.5 : (cell + step) % 5 == 0 ? .nan : Double(cell % 7)
  }

  var header: CubeHeader {
    CubeHeader(
      width: width, height: height, stepCount: stepCount, firstTime: 1_750_003_200, stepSeconds: 3600,
      runStart: 1_750_003_200 - 3600, model: "wrf", domain: "d02", gridSpacing: 12_000,
      projection: CubeProjection(code: 1, parameters: [30, 60, -8, 38.2, -11.7, 90, 0, 12_000]),
      metrics: [
        CubeMetric(name: Self.names[0], unit: "°C", temporal: 0, scale: 0.01, offset: -150),
        CubeMetric(name: Self.names[1], unit: "mm", temporal: 1, scale: 0.1, offset: 0),
      ])
  }

  /// Writes the cube at `path` and returns its bytes.
  @discardableResult
  func write(to path: String) throws -> [UInt8] {
    let writer = try CubeWriter(
      header: header, positions: try shifts.indices.map(grid), stepPositions: table, destination: path,
      formatVersion: version)
    for step in 0..<stepCount {
      for metric in Self.names.indices {
        writer.write(metric: metric, step: step, values: (0..<cells).map { value(metric, cell: $0, step: step) })
      }
    }
    _ = try writer.publish()
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// A random canonical table of `steps` steps over at most `limit` positions.
  static func randomTable(steps: Int, limit: Int, random: inout TestRandom) -> [Int] {
    var table: [Int] = []
    var highest = -1
    for _ in 0..<steps {
      let next = highest + 1 < limit && (highest < 0 || random.next() % 3 == 0)
      let position = next ? highest + 1 : Int(random.next() % UInt64(highest + 1))
      table.append(position)
      highest = max(highest, position)
    }
    return table
  }
}
