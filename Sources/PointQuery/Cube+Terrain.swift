import GridGeometry

extension Cube {
  /// How far, in cells along each grid axis, `land`/`sea` selection looks from the nearest
  /// cell: 1 is the 3 × 3 block around it.
  public static let selectionRadius = 1

  /// `location` moved to the cell `selection` picks (see `CellSelection`) for the point at
  /// `latitude`, `longitude`. Unchanged for `nearest`, for a bilinear location, for a
  /// cube without a land mask, and when the nearest cell is already of the kind asked for
  /// or no cell of that kind lies within `selectionRadius`. On a moving grid each position
  /// picks its own cell, from its own terrain. `foreignHandle` when another cube made
  /// `location`.
  public func selecting(
    _ selection: CellSelection, latitude: Double, longitude: Double, from location: PointLocation
  ) throws(QueryError) -> PointLocation {
    try check(location)
    guard selection != .nearest, location.method == .nearest, file.hasTerrain else { return location }
    let selected: PointLocation
    switch location.following {
    case .fixed:
      selected = select(selection, latitude: latitude, longitude: longitude, from: location, position: 0)
    case .index:
      return location
    case .point:
      // Each position applies the selection when it is read; the fields show the anchor's.
      let anchor = Int(location.anchor)
      let here = select(selection, latitude: latitude, longitude: longitude, from: location, position: anchor)
      selected = PointLocation(
        following: .point, anchor: anchor, here: here, selection: selection, latitude: location.pointLatitude,
        longitude: location.pointLongitude)
    }
    // A land mask whose block failed verification reads as unknown: an error instead.
    try checkIntact()
    return selected
  }

  /// `selecting` in one position, from that position's coordinates and land mask.
  func select(
    _ selection: CellSelection, latitude: Double, longitude: Double, from location: PointLocation, position: Int
  ) -> PointLocation {
    let wantLand = selection == .land
    let grid = locators[position].grid
    let (latitudes, longitudes) = (grid.latitudes, grid.longitudes)
    guard let kind = file.isLand(cell: location.cell, position: position), kind != wantLand else { return location }
    var best: (cell: Int, i: Int, j: Int, distance: Double)?
    let radius = Self.selectionRadius
    for j in max(0, location.j - radius)...min(height - 1, location.j + radius) {
      for i in max(0, location.i - radius)...min(width - 1, location.i + radius) {
        let cell = j * width + i
        guard file.isLand(cell: cell, position: position) == wantLand else { continue }
        let distance = GreatCircle.distance(
          latitude1: latitude, longitude1: longitude, latitude2: Double(latitudes[cell]),
          longitude2: Double(longitudes[cell]))
        // Ties go to the first in row order, so that the choice does not depend on anything
        // but the grid.
        if best.map({ distance < $0.distance }) ?? true { best = (cell, i, j, distance) }
      }
    }
    guard let best else { return location }
    return PointLocation(
      maker: identity, i: best.i, j: best.j, width: width, latitude: Double(latitudes[best.cell]),
      longitude: Self.signedLongitude(longitudes[best.cell]), method: .nearest)
  }

  /// The model's terrain height at a location, metres: the cell's for a nearest-cell
  /// location, and for a bilinear one the four cells' heights blended with the values'
  /// own weights, so that it is the height the interpolated temperature belongs to. nil
  /// where the cube has no terrain or a height needed is unknown. On a moving grid, the
  /// height in the position of the location's anchor (its first step, see `PointLocation`);
  /// `terrainHeight(at:step:)` gives it at any step. `foreignHandle` when another cube made
  /// `location`.
  public func terrainHeight(at location: PointLocation) throws(QueryError) -> Double? {
    try check(location)
    guard file.hasTerrain else { return nil }
    let height = height(at: location, position: Int(location.anchor))
    try checkIntact()
    return height
  }

  /// The model's terrain height at a location at step `step` (in `0..<stepCount`), metres,
  /// in that step's position; nil also where the point is outside the grid at that step.
  /// `foreignHandle` when another cube made `location`.
  public func terrainHeight(at location: PointLocation, step: Int) throws(QueryError) -> Double? {
    try check(location)
    guard file.hasTerrain, let here = self.location(location, atStep: step) else { return nil }
    let height = height(at: here, position: position(ofStep: step))
    try checkIntact()
    return height
  }

  /// `terrainHeight(at:)` from the terrain of `position`, for a location in it.
  private func height(at location: PointLocation, position: Int) -> Double? {
    guard location.method == .bilinear else { return file.terrainHeight(cell: location.cell, position: position) }
    let (sw, north, east) = (location.southWest, location.northStep, location.eastStep)
    func height(_ cell: Int) -> Double? { file.terrainHeight(cell: cell, position: position) }
    guard let a = height(sw), let b = height(sw + east), let c = height(sw + north), let d = height(sw + north + east)
    else { return nil }
    let southern = a + (b - a) * location.fx
    let northern = c + (d - c) * location.fx
    return southern + (northern - southern) * location.fy
  }

  /// Whether a location's cell is land (true), water (false) or unknown (nil); on a moving
  /// grid, in the position of the location's anchor. `foreignHandle` when another cube made
  /// `location`.
  public func isLand(at location: PointLocation) throws(QueryError) -> Bool? {
    try check(location)
    let land = file.isLand(cell: location.cell, position: Int(location.anchor))
    try checkIntact()
    return land
  }
}
