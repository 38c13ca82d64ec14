extension MapProjection {
  /// Where the projection puts every cell's stored coordinates, and the farthest of them
  /// from its own cell (`largestMismatch(on:)`): made once, so that a check of the grid
  /// and the analytic locator it accepts share one projection per cell.
  package struct CellImages: Sendable {
    /// Grid coordinates of every cell's stored coordinates, unwrapped; NaN where they do
    /// not map.
    package let x: [Double]
    package let y: [Double]
    /// The farthest, in cells, any cell is put from its own place, and the first cell that
    /// far; infinity when some cell does not map.
    package let mismatch: (cells: Double, i: Int, j: Int)
  }

  /// Every cell of `grid` projected, on the machine's cores (`CellRanges`), and the largest
  /// mismatch: the same numbers, bit for bit, as one pass in cell order.
  package func cellImages(on grid: CurvilinearGrid) -> CellImages {
    let width = grid.width
    let parts = CellRanges.map(grid.count) { range in
      var (xs, ys) = ([Double](), [Double]())
      xs.reserveCapacity(range.count)
      ys.reserveCapacity(range.count)
      var worst = (cells: 0.0, i: 0, j: 0)
      for cell in range {
        let (i, j) = (cell % width, cell / width)
        var distance = Double.infinity
        if let (x, y) = gridCoordinates(
          latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]))
        {
          var dx = x - Double(i)
          if columnsPerTurn.isFinite { dx -= columnsPerTurn * (dx / columnsPerTurn).rounded() }
          let dy = y - Double(j)
          distance = (dx * dx + dy * dy).squareRoot()
          xs.append(x)
          ys.append(y)
        } else {
          xs.append(.nan)
          ys.append(.nan)
        }
        // `!(<=)` so that NaN counts as the worst.
        if !(distance <= worst.cells) { worst = (distance.isNaN ? .infinity : distance, i, j) }
      }
      return (xs, ys, worst)
    }
    // The first cell at the largest distance, as a pass in cell order finds it: a later
    // range's worst replaces an earlier one only when strictly larger.
    var worst = (cells: 0.0, i: 0, j: 0)
    for part in parts where !(part.2.cells <= worst.cells) { worst = part.2 }
    return CellImages(x: parts.flatMap(\.0), y: parts.flatMap(\.1), mismatch: worst)
  }
}
