/// The latitude/longitude extent of a grid's cell centres, longitudes east-positive in
/// −180…180; a grid across the antimeridian spans −180…180. Computed once per locator,
/// since a map tile asks for it on every request and a global grid has a million cells.
public struct GridExtent: Sendable, Equatable {
  public let south: Double
  public let west: Double
  public let north: Double
  public let east: Double

  public init(_ grid: CurvilinearGrid) {
    var (south, north) = (Double.infinity, -Double.infinity)
    var (west, east) = (Double.infinity, -Double.infinity)
    for (latitude, longitude) in zip(grid.latitudes, grid.longitudes) {
      south = min(south, Double(latitude))
      north = max(north, Double(latitude))
      var signed = Double(longitude)
      if signed > 180 { signed -= 360 }
      west = min(west, signed)
      east = max(east, signed)
    }
    (self.south, self.west, self.north, self.east) = (south, west, north, east)
  }
}
