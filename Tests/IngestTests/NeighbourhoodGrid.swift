import Foundation
import GridGeometry
import _TestSupport

/// Grids of every kind the neighbourhood must handle, with their cell centres as a cube
/// stores them (`Float` degrees, row-major).
struct NeighbourhoodGrid: Sendable, CustomStringConvertible {
  let description: String
  let width: Int
  let height: Int
  let latitudes: [Float]
  let longitudes: [Float]

  init(_ description: String, width: Int, height: Int, _ position: (Int, Int) -> (Double, Double)) {
    (self.description, self.width, self.height) = (description, width, height)
    var (latitudes, longitudes) = ([Float](), [Float]())
    for j in 0..<height {
      for i in 0..<width {
        let (latitude, longitude) = position(i, j)
        latitudes.append(Float(latitude))
        longitudes.append(Float(longitude))
      }
    }
    (self.latitudes, self.longitudes) = (latitudes, longitudes)
  }

  /// A WRF-like Lambert conformal domain of `dx` metres centred on (`latitude`,
  /// `longitude`), bent by `wobble` × dx sine waves along both axes (0: the projection's
  /// own grid).
  static func lambert(
    _ name: String, width: Int, height: Int, dx: Double, latitude: Double = 39.5, longitude: Double = -8,
    wobble: Double = 0
  ) -> NeighbourhoodGrid {
    let projection = LambertConformal(truelat1: 30, truelat2: 60, standardLongitude: longitude)
    let centre = projection.project(latitude: latitude, longitude: longitude)
    return NeighbourhoodGrid(name, width: width, height: height) { i, j in
      let x = centre.x + (Double(i) - Double(width - 1) / 2) * dx + wobble * dx * sin(Double(j) / 3)
      let y = centre.y + (Double(j) - Double(height - 1) / 2) * dx + wobble * dx * sin(Double(i) / 4)
      let point = projection.unproject(x: x, y: y)
      return (point.latitude, point.longitude)
    }
  }

  /// A regular latitude/longitude grid from `south` by `latitudeStep` (negative: from the
  /// north down) and from `west` by `longitudeStep`.
  static func regular(
    _ name: String, width: Int, height: Int, south: Double, latitudeStep: Double, west: Double,
    longitudeStep: Double
  ) -> NeighbourhoodGrid {
    NeighbourhoodGrid(name, width: width, height: height) { i, j in
      (south + Double(j) * latitudeStep, west + Double(i) * longitudeStep)
    }
  }

  /// A regular grid of `step` degrees in a frame whose pole is at (`poleLatitude`,
  /// `poleLongitude`), as a rotated-pole model writes it: rows are not parallels.
  static func rotated(
    _ name: String, width: Int, height: Int, step: Double, poleLatitude: Double, poleLongitude: Double
  ) -> NeighbourhoodGrid {
    let (tilt, turn) = ((90 - poleLatitude) * .pi / 180, poleLongitude * .pi / 180)
    return NeighbourhoodGrid(name, width: width, height: height) { i, j in
      let phi = (Double(j) - Double(height) / 2) * step * .pi / 180
      let lambda = (Double(i) - Double(width) / 2) * step * .pi / 180
      var (x, y, z) = (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
      // Tilt the frame's pole down by `tilt` about the y axis, then turn it about z.
      (x, z) = (x * cos(tilt) + z * sin(tilt), -x * sin(tilt) + z * cos(tilt))
      (x, y) = (x * cos(turn) - y * sin(turn), x * sin(turn) + y * cos(turn))
      return (asin(max(-1, min(1, z))) * 180 / .pi, atan2(y, x) * 180 / .pi)
    }
  }

  /// `grid`'s cell centres dealt to its cells in a random order: rows that are scattered
  /// points, where no row's neighbours form an interval.
  static func scrambled(_ name: String, _ grid: NeighbourhoodGrid, seed: UInt64) -> NeighbourhoodGrid {
    var random = TestRandom(seed: seed)
    var order = Array(grid.latitudes.indices)
    for index in order.indices.reversed() where index > 0 {
      order.swapAt(index, Int(random.next() % UInt64(index + 1)))
    }
    return NeighbourhoodGrid(name, width: grid.width, height: grid.height) { i, j in
      let cell = order[j * grid.width + i]
      return (Double(grid.latitudes[cell]), Double(grid.longitudes[cell]))
    }
  }

  /// Every kind: projected, global with seam and poles, rotated, bent, scattered, across
  /// the antimeridian, a single row, a single column, a single cell.
  static let kinds: [NeighbourhoodGrid] = [
    lambert("Lambert 9 km", width: 40, height: 31, dx: 9_000),
    lambert("Lambert 3 km", width: 61, height: 47, dx: 3_000),
    lambert("Lambert 2 km across the antimeridian", width: 50, height: 40, dx: 2_000, latitude: -41, longitude: 179.97),
    lambert("bent Lambert 4 km", width: 45, height: 38, dx: 4_000, wobble: 0.35),
    regular(
      "global 2°, seam and poles", width: 180, height: 91, south: -90, latitudeStep: 2, west: 0, longitudeStep: 2),
    regular(
      "north polar cap 0.1° × 1.5°, descending", width: 240, height: 61, south: 90, latitudeStep: -0.1, west: -180,
      longitudeStep: 1.5),
    regular(
      "south polar cap 0.2° × 3°, from 0 to 360", width: 120, height: 40, south: -90, latitudeStep: 0.2, west: 0,
      longitudeStep: 3),
    rotated("rotated pole 0.15°", width: 70, height: 55, step: 0.15, poleLatitude: 40, poleLongitude: -170),
    scrambled("scattered cells", lambert("", width: 30, height: 25, dx: 5_000), seed: 5),
    lambert("single row", width: 300, height: 1, dx: 4_000),
    lambert("single column", width: 1, height: 250, dx: 4_000),
    lambert("single cell", width: 1, height: 1, dx: 4_000),
    regular("two cells at the pole", width: 2, height: 1, south: 90, latitudeStep: 1, west: 0, longitudeStep: 90),
  ]

  /// Rain with every case the definition distinguishes: unknown, dry, below and above the
  /// stored threshold (0.05 mm at 0.1 mm a word), and whole unknown rows.
  func rain(seed: UInt64) -> [Double] {
    var random = TestRandom(seed: seed)
    let amounts = [Double.nan, 0, 0, 0.01, 0.0499, 0.0501, 0.1, 0.3, 2.5]
    var rain = latitudes.indices.map { _ in amounts[Int(random.next() % UInt64(amounts.count))] }
    if height > 3 { for i in 0..<width { rain[2 * width + i] = .nan } }
    return rain
  }

  /// Whether an amount is wet as stored at 0.1 mm a word: its word, the amount over the
  /// precision rounded, is at least one (0.1 mm).
  static func isWet(_ amount: Double) -> Bool { (amount / 0.1).rounded() >= 1 }
}
