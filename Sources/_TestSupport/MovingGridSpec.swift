import CubeFormat
import UTCTime

/// Cubes whose grid moves by whole cells between steps, written straight with the cube
/// writer, and the values they hold as functions of place and time, so that a test can
/// compute what any read should answer without reading the cube.
///
/// The grid is a skewed lattice (so that the generic curvilinear locator serves it): cell
/// (i, j) of a position shifted by (di, dj) cells lies at latitude `originLatitude +
/// spacing · (j + dj) + skew · (i + di)` and longitude `originLongitude + spacing · (i + di)
/// − skew / 2 · (j + dj)`. Every place of the lattice thus keeps its coordinates whichever
/// position covers it, as in a WRF moving nest.
public struct MovingGridSpec: Sendable {
  public var width = 20
  public var height = 16
  public var originLatitude = 38.0
  public var originLongitude = -10.0
  /// Degrees between neighbouring cells.
  public var spacing = 0.1
  /// Degrees of latitude per column.
  public var skew = 0.02
  /// Each position's shift from position 0, in cells (di, dj); the first is (0, 0).
  public var shifts: [(Int, Int)] = [(0, 0)]
  /// Each step's position.
  public var stepPositions: [Int] = [0]
  public var firstTime: Int64 = 1_781_913_600
  public var stepSeconds: Int64 = 3600
  public var model = "wrf"
  public var domain = "d02"
  /// Metres, for the catalog's finest-domain order.
  public var gridSpacing = 3000.0
  /// Whether the cube has a terrain section (heights and a land mask by place).
  public var terrain = true
  /// Metres added to every height of each position (none when shorter), for a nest whose
  /// terrain at a place changes when it moves.
  public var heightOffsets: [Double] = []

  public init() {}

  /// The coordinates of every cell of a position.
  public func coordinates(position: Int) -> (latitudes: [Float], longitudes: [Float]) {
    let (di, dj) = shifts[position]
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    for j in 0..<height {
      for i in 0..<width {
        let (x, y) = (Double(i + di), Double(j + dj))
        latitudes.append(Float(originLatitude + spacing * y + skew * x))
        longitudes.append(Float(originLongitude + spacing * x - skew / 2 * y))
      }
    }
    return (latitudes, longitudes)
  }

  /// Temperature, °C, at a place and step: linear in both, so that bilinear and time
  /// interpolation of it are exact up to quantization.
  public static func temperature(latitude: Double, longitude: Double, step: Int) -> Double {
    10 + 5 * (latitude - 38) + 3 * (longitude + 10) + 0.5 * Double(step)
  }

  /// The hour's rain, mm, at a place and step.
  public static func rain(latitude: Double, longitude: Double, step: Int) -> Double {
    1 + 2 * (latitude - 38) + 0.1 * Double(step)
  }

  /// Terrain height, metres, at a place.
  public static func height(latitude: Double, longitude: Double) -> Double {
    100 + 200 * (latitude - 38) + 50 * (longitude + 10)
  }

  /// Land where the longitude is east of −9.5.
  public static func isLand(latitude: Double, longitude: Double) -> Bool { longitude > -9.5 }

  /// The metrics written: temp (instant) and rain (hourly amount), as the catalogue
  /// quantizes them.
  public static let metrics = [
    CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.05, offset: -150),
    CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.1, offset: 0),
  ]

  /// Writes the cube into `store` (`STORE/model/domain/run.cube`) and returns its path.
  public func write(into store: String) throws -> String {
    let header = CubeHeader(
      width: width, height: height, stepCount: stepPositions.count, firstTime: firstTime, stepSeconds: stepSeconds,
      runStart: firstTime, model: model, domain: domain, gridSpacing: gridSpacing,
      projection: CubeProjection(code: 0, parameters: []), metrics: Self.metrics)
    let grids = shifts.indices.map { position in
      let (latitudes, longitudes) = coordinates(position: position)
      let offset = position < heightOffsets.count ? heightOffsets[position] : 0
      let heights = zip(latitudes, longitudes).map {
        Float(Self.height(latitude: Double($0), longitude: Double($1)) + offset)
      }
      let mask = zip(latitudes, longitudes).map {
        Self.isLand(latitude: Double($0), longitude: Double($1)) ? UInt8(1) : 0
      }
      return CubeGrid(
        latitudes: latitudes, longitudes: longitudes,
        terrain: terrain ? CubeTerrain(heights: heights, landMask: mask) : nil)
    }
    let writer = try CubeWriter(
      header: header, positions: grids, stepPositions: stepPositions,
      destination: "\(store)/\(model)/\(domain)/\(UTC.runIdentifier(firstTime)).cube")
    for (step, position) in stepPositions.enumerated() {
      let grid = grids[position]
      let places = Array(zip(grid.latitudes.map(Double.init), grid.longitudes.map(Double.init)))
      _ = writer.write(
        metric: 0, step: step, values: places.map { Self.temperature(latitude: $0, longitude: $1, step: step) })
      _ = writer.write(metric: 1, step: step, values: places.map { Self.rain(latitude: $0, longitude: $1, step: step) })
    }
    return try writer.publish()
  }

}

extension MovingGridSpec {
  /// The fractional grid position (x, y) of a point in position `position`, by inverting
  /// the lattice's definition in degrees: an oracle independent of the locators (which
  /// work on the sphere), good to a small fraction of a cell on this small grid.
  public func gridPosition(latitude: Double, longitude: Double, position: Int) -> (x: Double, y: Double) {
    let (a, b) = (latitude - originLatitude, longitude - originLongitude)
    // a = skew·x + spacing·y, b = spacing·x − skew/2·y.
    let determinant = -skew * skew / 2 - spacing * spacing
    let x = (a * (-skew / 2) - spacing * b) / determinant
    let y = (skew * b - spacing * a) / determinant
    let (di, dj) = shifts[position]
    return (x - Double(di), y - Double(dj))
  }

  /// Whether position `position` certainly contains the point (within the half-cell edge
  /// band, with `margin` cells to spare), certainly does not (`false`), or the point is too
  /// near the band's edge to say (nil).
  public func contains(latitude: Double, longitude: Double, position: Int, margin: Double = 0.1) -> Bool? {
    let (x, y) = gridPosition(latitude: latitude, longitude: longitude, position: position)
    let inside = { (v: Double, n: Int, m: Double) in v >= -0.5 + m && v <= Double(n) - 0.5 - m }
    if inside(x, width, margin) && inside(y, height, margin) { return true }
    if !inside(x, width, -margin) || !inside(y, height, -margin) { return false }
    return nil
  }
}

extension MovingGridSpec {
  /// A run of two domains written into `store`: d01 fixed (0.3° cells over the whole area,
  /// a regular grid) and d02 moving (0.1° cells) over eight hourly steps: east by 8 cells
  /// and north by 3 at step 2, back to 2 east and 1 north at step 4, then to the second
  /// position again. 38.6, −9.45 lies in d02's first and third positions, not its second.
  @discardableResult
  public static func nestedRun(into store: String) throws -> (outer: MovingGridSpec, nest: MovingGridSpec) {
    var outer = MovingGridSpec()
    (outer.width, outer.height, outer.spacing, outer.skew) = (14, 12, 0.3, 0)
    (outer.originLatitude, outer.originLongitude) = (37.0, -11.5)
    (outer.domain, outer.gridSpacing) = ("d01", 9000)
    outer.stepPositions = Array(repeating: 0, count: 8)
    var nest = MovingGridSpec()
    nest.shifts = [(0, 0), (8, 3), (2, 1)]
    nest.stepPositions = [0, 0, 1, 1, 2, 2, 1, 1]
    _ = try outer.write(into: store)
    _ = try nest.write(into: store)
    return (outer, nest)
  }

  /// The temperature the brute force gives at step `step`: the field at the great-circle
  /// nearest mass point of the step's position.
  public func nearestTemperature(latitude: Double, longitude: Double, step: Int) -> Double {
    let (latitudes, longitudes) = coordinates(position: stepPositions[step])
    let cell = BruteForce.nearest(
      latitude: latitude, longitude: longitude, latitudes: latitudes, longitudes: longitudes
    )
    .index
    return Self.temperature(latitude: Double(latitudes[cell]), longitude: Double(longitudes[cell]), step: step)
  }
}
