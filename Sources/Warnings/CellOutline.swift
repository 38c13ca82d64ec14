import GridGeometry

/// The outline of one cell of a grid of cell centres: each corner is the mean of the four
/// centres around it, so that neighbouring cells share their edges; past the domain's edge
/// the missing centres are extrapolated linearly from the two nearest in that direction.
struct CellOutline {
  let grid: CurvilinearGrid
  /// Whether the last column neighbours the first (a global latitude/longitude grid).
  let wraps: Bool

  /// The corners of cell (i, j): south-west, south-east, north-east, north-west in index
  /// directions, as (latitude, longitude), latitudes clamped to ±90 and longitudes in
  /// −180…180.
  func corners(i: Int, j: Int) -> [(latitude: Double, longitude: Double)] {
    let centreLongitude = Double(grid.longitudes[j * grid.width + i])
    return [(-1, -1), (1, -1), (1, 1), (-1, 1)].map { direction in
      let (di, dj) = direction
      var latitude = 0.0
      var longitude = 0.0
      for (ci, cj) in [(i, j), (i + di, j), (i, j + dj), (i + di, j + dj)] {
        let centre = self.centre(ci, cj, relativeTo: centreLongitude)
        latitude += centre.latitude / 4
        longitude += centre.longitude / 4
      }
      return (min(90, max(-90, latitude)), Self.signed(centreLongitude + longitude))
    }
  }

  /// The centre of cell (i, j), where i and j may be one beyond the grid, as a latitude and
  /// a longitude offset from `reference` in −180…180 (so that a cell on the antimeridian
  /// is not averaged across the globe).
  private func centre(_ i: Int, _ j: Int, relativeTo reference: Double) -> (latitude: Double, longitude: Double) {
    var i = i
    if wraps { i = (i + grid.width) % grid.width }
    // Outside: twice the nearest centre minus the next one in, a linear extrapolation.
    for (index, limit, step) in [(i, grid.width, (1, 0)), (j, grid.height, (0, 1))] where index < 0 || index >= limit {
      let inside = index < 0 ? (i + step.0, j + step.1) : (i - step.0, j - step.1)
      let nearest = centre(inside.0, inside.1, relativeTo: reference)
      let next = centre(
        inside.0 + (index < 0 ? step.0 : -step.0), inside.1 + (index < 0 ? step.1 : -step.1), relativeTo: reference)
      return (2 * nearest.latitude - next.latitude, 2 * nearest.longitude - next.longitude)
    }
    let cell = j * grid.width + i
    return (Double(grid.latitudes[cell]), Self.offset(Double(grid.longitudes[cell]) - reference))
  }

  /// A longitude difference in −180…180.
  private static func offset(_ difference: Double) -> Double {
    var value = difference.truncatingRemainder(dividingBy: 360)
    if value > 180 { value -= 360 } else if value <= -180 { value += 360 }
    return value
  }

  /// A longitude in −180…180.
  private static func signed(_ longitude: Double) -> Double { offset(longitude) }
}
