import Foundation
import PointQuery
import Testing
import _TestSupport

/// The independent side of the GRIB ingest tests: where each written value is (ecCodes'
/// coordinates of the points written) and which of them is nearest a query point, by
/// brute force over every point.
struct GRIBOracle {
  let latitudes: [Double]
  let longitudes: [Double]

  /// The points at the smallest great-circle distance from the point, and those within
  /// half a metre of it: the cube stores coordinates as Float (about a metre), so a point
  /// that close to halfway between two grid points may go to either, and every point of a
  /// pole row is nearest the pole.
  func nearest(latitude: Double, longitude: Double) -> [Int] {
    let distances = latitudes.indices.map { index in
      Self.haversine(latitude, longitude, latitudes[index], longitudes[index])
    }
    let best = distances.min() ?? 0
    return distances.indices.filter { distances[$0] <= best + 0.5 }
  }

  /// Metres between two points on the sphere of 6,371,229 m.
  static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let (p1, p2) = (lat1 * .pi / 180, lat2 * .pi / 180)
    let dp = p2 - p1
    let dl = (lon2 - lon1) * .pi / 180
    let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
    return 2 * 6_371_229 * asin(min(1, a.squareRoot()))
  }

  /// Whether the cube's location is the written point `index`: the same latitude and
  /// longitude to 10⁻⁴° (longitudes modulo 360).
  func isAt(_ location: PointLocation, _ index: Int) -> Bool {
    let turn = (location.longitude - longitudes[index]).truncatingRemainder(dividingBy: 360)
    // At a pole too: every point of a pole row is at the pole, but each has its own value,
    // so the one the cube chose is told by its longitude.
    return abs(location.latitude - latitudes[index]) < 1e-4 && min(abs(turn), 360 - abs(turn)) < 1e-4
  }

  /// Random points inside the grid (`GridSampling.point` at random fractional positions,
  /// away from the outermost half cell). Seeded, so a failure repeats.
  func interiorPoints(_ count: Int, width: Int, height: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
    var random = TestRandom(seed: seed)
    let (floatLatitudes, floatLongitudes) = (latitudes.map { Float($0) }, longitudes.map { Float($0) })
    return (0..<count).map { _ in
      let x = random.uniform(0.5...(Double(width) - 1.5))
      let y = random.uniform(0.5...(Double(height) - 1.5))
      return GridSampling.point(
        x: x, y: y, width: width, height: height, latitudes: floatLatitudes, longitudes: floatLongitudes)
    }
  }

  /// `items` in a random order that `seed` decides, so that a failure repeats.
  static func shuffled<T>(_ items: [T], seed: UInt64) -> [T] {
    var random = TestRandom(seed: seed)
    return items.map { ($0, random.next()) }.sorted { $0.1 < $1.1 }.map(\.0)
  }
}
