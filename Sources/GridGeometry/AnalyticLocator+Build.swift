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
  ///
  /// Rows are taken in ranges on the machine's cores (`CellRanges`): the largest of the
  /// ranges' largest deviations is the grid's, whatever the split.
  static func boundaryDeviation(
    points: [UnitVector], width: Int, height: Int, projection: MapProjection, wrap: @Sendable (Double) -> Double,
    projections: inout Int
  ) -> Double {
    let parts = CellRanges.map(height, minimumPerRange: max(1, CellRanges.minimumPerRange / max(width, 1))) { rows in
      rowDeviation(rows, points: points, width: width, height: height, projection: projection, wrap: wrap)
    }
    var worst = 0.0
    for part in parts {
      projections += part.projections
      if !(part.worst <= worst) { worst = part.worst }
    }
    return worst
  }

  /// The largest deviation of the boundaries of the cells in `rows` with their neighbours
  /// east and north, and the projections it took.
  private static func rowDeviation(
    _ rows: Range<Int>, points: [UnitVector], width: Int, height: Int, projection: MapProjection,
    wrap: (Double) -> Double
  ) -> (worst: Double, projections: Int) {
    var worst = 0.0
    var count = 0
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
    for j in rows {
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
    return (worst, count)
  }
}
