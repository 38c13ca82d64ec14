extension Cube {
  /// The nearest-cell location of grid cell (`i`, `j`), as `locate` would return it for a
  /// point on that cell, but found by index rather than by a search: a caller walking the
  /// grid cell by cell (`nwpcube export`) gets exactly the cell it names, even where cells
  /// share coordinates (the pole row of a global lattice) and a search would answer with
  /// another of them. nil when the cell is outside the grid. On a moving grid the location
  /// is cell (`i`, `j`) of every position, wherever that lies at each step; its coordinates
  /// are position 0's.
  public func location(i: Int, j: Int) -> PointLocation? {
    guard (0..<width).contains(i), (0..<height).contains(j) else { return nil }
    let cell = j * width + i
    func at(_ position: Int) -> PointLocation {
      let grid = locators[position].grid
      return PointLocation(
        maker: identity, i: i, j: j, width: width, latitude: Double(grid.latitudes[cell]),
        longitude: Self.signedLongitude(grid.longitudes[cell]), method: .nearest)
    }
    guard isMoving else { return at(0) }
    return PointLocation(following: .index, anchor: 0, here: at(0), selection: .nearest, latitude: 0, longitude: 0)
  }
}
