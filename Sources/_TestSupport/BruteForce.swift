import Foundation
import GridGeometry
import SampleRun

/// Oracles that check every cell, for property tests of the fast paths. Compiled optimised
/// even in debug builds (see Package.swift) because they scan whole grids per point.
public enum BruteForce {
  /// The cell with the smallest haversine distance to the point, and that distance in
  /// metres, scanning every cell. Independent of the locator: no unit vectors, no buckets.
  public static func nearest(
    latitude: Double, longitude: Double, latitudes: [Float], longitudes: [Float]
  ) -> (index: Int, distance: Double) {
    let phi = latitude * .pi / 180
    let cosPhi = cos(phi)
    var best = -1
    var bestHaversine = Double.infinity
    for index in latitudes.indices {
      let phi2 = Double(latitudes[index]) * .pi / 180
      let dPhi = phi2 - phi
      let dLambda = (Double(longitudes[index]) - longitude) * .pi / 180
      let s1 = sin(dPhi / 2)
      let s2 = sin(dLambda / 2)
      let a = s1 * s1 + cosPhi * cos(phi2) * s2 * s2
      if a < bestHaversine {
        bestHaversine = a
        best = index
      }
    }
    return (best, 2 * 6_371_008.8 * asin(min(1, bestHaversine.squareRoot())))
  }

  /// A grid prepared for exhaustive scans: every cell's unit vector, so that scanning
  /// 131,000 cells for each of 10,000 points stays fast. Great-circle order is the order of
  /// the dot product with the point, so the scan is exact; it shares no code with the
  /// locator under test.
  public struct Grid: Sendable {
    let xs: [Double]
    let ys: [Double]
    let zs: [Double]
    public let latitudes: [Float]
    public let longitudes: [Float]

    public init(latitudes: [Float], longitudes: [Float]) {
      self.latitudes = latitudes
      self.longitudes = longitudes
      var xs: [Double] = []
      var ys: [Double] = []
      var zs: [Double] = []
      for (lat, lon) in zip(latitudes, longitudes) {
        let phi = Double(lat) * .pi / 180
        let lambda = Double(lon) * .pi / 180
        xs.append(cos(phi) * cos(lambda))
        ys.append(cos(phi) * sin(lambda))
        zs.append(sin(phi))
      }
      self.xs = xs
      self.ys = ys
      self.zs = zs
    }

    /// The index of the cell nearest to the point, scanning every cell.
    public func nearest(latitude: Double, longitude: Double) -> Int {
      let phi = latitude * .pi / 180
      let lambda = longitude * .pi / 180
      let px = cos(phi) * cos(lambda)
      let py = cos(phi) * sin(lambda)
      let pz = sin(phi)
      var best = 0
      var bestDot = -2.0
      xs.withUnsafeBufferPointer { x in
        ys.withUnsafeBufferPointer { y in
          zs.withUnsafeBufferPointer { z in
            for index in 0..<x.count {
              let d = x[index] * px + y[index] * py + z[index] * pz
              if d > bestDot {
                bestDot = d
                best = index
              }
            }
          }
        }
      }
      return best
    }

    /// Whether `candidate` is as near to the point as the oracle's answer, to within a
    /// millimetre: a tie between two cells is not an error.
    public func isNearest(_ candidate: Int, latitude: Double, longitude: Double) -> Bool {
      let oracle = nearest(latitude: latitude, longitude: longitude)
      if candidate == oracle { return true }
      let a = BruteForce.distance(
        latitude: latitude, longitude: longitude, cellLatitude: latitudes[candidate],
        cellLongitude: longitudes[candidate])
      let b = BruteForce.distance(
        latitude: latitude, longitude: longitude, cellLatitude: latitudes[oracle], cellLongitude: longitudes[oracle])
      return abs(a - b) < 1e-3
    }
  }

  /// The haversine distance in metres between a point and a cell.
  public static func distance(
    latitude: Double, longitude: Double, cellLatitude: Float, cellLongitude: Float
  ) -> Double {
    nearest(latitude: latitude, longitude: longitude, latitudes: [cellLatitude], longitudes: [cellLongitude])
      .distance
  }
}

/// A small deterministic generator for property tests (SplitMix64 underneath).
public struct TestRandom {
  private var generator: SplitMix64

  public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

  public mutating func next() -> UInt64 { generator.next() }

  /// Uniform in [0, 1).
  public mutating func unit() -> Double { generator.unit() }

  /// Uniform in `range`.
  public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + unit() * (range.upperBound - range.lowerBound)
  }
}

/// Grid-space helpers for tests that need points with a known position on a grid.
public enum GridSampling {
  /// Latitude/longitude at fractional grid position (x, y), by bilinear interpolation of the
  /// four surrounding cells' unit vectors: inside the grid for positions within it, and
  /// extrapolated from the outer quad beyond an edge. Interpolating vectors rather than
  /// degrees keeps points right across the antimeridian and near the poles.
  public static func point(
    x: Double, y: Double, width: Int, height: Int, latitudes: [Float], longitudes: [Float]
  ) -> (latitude: Double, longitude: Double) {
    let i = min(max(Int(x.rounded(.down)), 0), width - 2)
    let j = min(max(Int(y.rounded(.down)), 0), height - 2)
    let fx = x - Double(i)
    let fy = y - Double(j)
    func vector(_ cell: Int) -> (Double, Double, Double) {
      let phi = Double(latitudes[cell]) * .pi / 180
      let lambda = Double(longitudes[cell]) * .pi / 180
      return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }
    let corners = [j * width + i, j * width + i + 1, (j + 1) * width + i, (j + 1) * width + i + 1].map(vector)
    let weights = [(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy]
    var (px, py, pz) = (0.0, 0.0, 0.0)
    for (corner, weight) in zip(corners, weights) {
      px += corner.0 * weight
      py += corner.1 * weight
      pz += corner.2 * weight
    }
    return (atan2(pz, (px * px + py * py).squareRoot()) * 180 / .pi, atan2(py, px) * 180 / .pi)
  }
}

extension BruteForce {
  /// How many of `count` random points inside `grid` (edge band included) `locate` answers
  /// with a cell, as a flat index, that is not the great-circle nearest; a point it calls
  /// outside counts too. Points are drawn as fractional grid positions and placed through
  /// the cells' unit vectors.
  public static func wrongAnswers(
    on grid: CurvilinearGrid, count: Int, seed: UInt64, locate: (Double, Double) throws -> Int?
  ) rethrows -> Int {
    let oracle = Grid(latitudes: grid.latitudes, longitudes: grid.longitudes)
    var random = TestRandom(seed: seed)
    var wrong = 0
    for _ in 0..<count {
      let point = GridSampling.point(
        x: random.uniform(-0.45...Double(grid.width) - 0.55), y: random.uniform(-0.45...Double(grid.height) - 0.55),
        width: grid.width, height: grid.height, latitudes: grid.latitudes, longitudes: grid.longitudes)
      if let cell = try locate(point.latitude, point.longitude),
        oracle.isNearest(cell, latitude: point.latitude, longitude: point.longitude)
      {
        continue
      }
      wrong += 1
    }
    return wrong
  }
}

extension BruteForce {
  /// `precip_neighbourhood` at `cell` by its definition, scanning every cell of `grid`:
  /// the percentage of the cells whose haversine distance from `cell` is at most `radius`
  /// metres (itself included) and whose `rain` is known that are wet by `isWet`; NaN where
  /// `cell`'s own rain is unknown. Cells clearly farther by their unit vectors' dot
  /// product (1 % beyond the radius) are not measured; the rest by the haversine.
  public static func neighbourhoodPercentage(
    of cell: Int, in grid: Grid, radius: Double, rain: [Double], isWet: (Double) -> Bool
  ) -> Double {
    guard !rain[cell].isNaN else { return .nan }
    let earthRadius = 6_371_008.8
    let nearest = cos(min(radius * 1.01 / earthRadius, .pi))
    let (px, py, pz) = (grid.xs[cell], grid.ys[cell], grid.zs[cell])
    let (latitude, longitude) = (Double(grid.latitudes[cell]), Double(grid.longitudes[cell]))
    var (wet, known) = (0, 0)
    for other in grid.xs.indices where grid.xs[other] * px + grid.ys[other] * py + grid.zs[other] * pz >= nearest {
      let phi1 = latitude * .pi / 180
      let phi2 = Double(grid.latitudes[other]) * .pi / 180
      let s = sin((phi2 - phi1) / 2)
      let t = sin((Double(grid.longitudes[other]) - longitude) * .pi / 180 / 2)
      let distance = 2 * earthRadius * asin(min(1, (s * s + cos(phi1) * cos(phi2) * t * t).squareRoot()))
      guard distance <= radius, !rain[other].isNaN else { continue }
      known += 1
      if isWet(rain[other]) { wet += 1 }
    }
    return 100 * Double(wet) / Double(known)
  }
}
