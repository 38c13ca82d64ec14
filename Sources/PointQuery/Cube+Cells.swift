extension Cube {
  /// The nearest-cell location of grid cell (`i`, `j`), as `locate` would return it for a
  /// point on that cell, but found by index rather than by a search: a caller walking the
  /// grid cell by cell (`nwpcube export`) gets exactly the cell it names, even where cells
  /// share coordinates (the pole row of a global lattice) and a search would answer with
  /// another of them. nil when the cell is outside the grid.
  public func location(i: Int, j: Int) -> PointLocation? {
    guard (0..<width).contains(i), (0..<height).contains(j) else { return nil }
    let cell = j * width + i
    return PointLocation(
      maker: identity, i: i, j: j, width: width, latitude: Double(latitudes[cell]),
      longitude: Self.signedLongitude(longitudes[cell]), method: .nearest)
  }
}
