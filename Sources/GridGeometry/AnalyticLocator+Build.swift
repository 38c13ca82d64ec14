import Foundation

extension AnalyticLocator {
  /// How far, in cells, the projection puts the great-circle boundary between two
  /// neighbouring cells from the midline between their grid positions, at worst over the
  /// grid. Infinity when a boundary does not map.
  ///
  /// Points equidistant from unit vectors A and B form the great circle through their
  /// midpoint M = (A + B)/|A + B|, along the direction u = (A − B) × M. Each boundary is
  /// sampled at M and half a cell either way along it, which reaches the corners shared with
  /// the next boundaries, and the edge band at the grid's edges.
  static func boundaryDeviation(
    points: [UnitVector], width: Int, height: Int, projection: MapProjection, wrap: (Double) -> Double,
    projections: inout Int
  ) -> Double {
    var worst = 0.0
    var count = 0
    defer { projections += count }
    // How far the projection puts a point of the boundary from the midline; `across` picks
    // the coordinate the boundary separates.
    func deviation(_ a: UnitVector, _ b: UnitVector, halfSpan: Double, midline: Double, across: Bool) {
      let middle = a.plus(b).normalized()
      let along = a.minus(b).cross(middle).normalized()
      for step in -1...1 {
        let sample = middle.plus(along.scaled(Double(step) * halfSpan)).normalized()
        var distance = Double.infinity
        count += 1
        if let (x, y) = projection.gridCoordinates(latitude: sample.latitude, longitude: sample.longitude) {
          distance = abs((across ? wrap(x) : y) - midline)
        }
        // `!(<=)` so that NaN counts as the worst.
        if !(distance <= worst) { worst = distance.isNaN ? .infinity : distance }
      }
    }
    for j in 0..<height {
      for i in 0..<width {
        let cell = j * width + i
        let a = points[cell]
        // Half the distance to the neighbour across, so that samples reach the corners.
        let northward = j + 1 < height ? points[cell + width] : points[cell - width]
        let eastward = i + 1 < width ? points[cell + 1] : points[cell - 1]
        if i + 1 < width {
          let span = a.minus(northward).length / 2
          deviation(a, points[cell + 1], halfSpan: span, midline: Double(i) + 0.5, across: true)
        }
        if j + 1 < height {
          let span = a.minus(eastward).length / 2
          deviation(a, points[cell + width], halfSpan: span, midline: Double(j) + 0.5, across: false)
        }
      }
    }
    return worst
  }
}
