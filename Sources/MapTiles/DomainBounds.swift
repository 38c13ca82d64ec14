import PointQuery

/// The latitude/longitude extent of a cube's grid: the extremes of its cells' centres,
/// longitudes east-positive in −180…180.
public struct DomainBounds: Sendable, Equatable {
  public let south: Double
  public let west: Double
  public let north: Double
  public let east: Double

  public init(south: Double, west: Double, north: Double, east: Double) {
    (self.south, self.west, self.north, self.east) = (south, west, north, east)
  }

  /// The extent of `cube`'s cell centres. A grid across the antimeridian spans −180…180.
  public init(_ cube: Cube) {
    let grid = cube.locator.grid
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
    self.init(south: south, west: west, north: north, east: east)
  }

  /// Whether the rectangle `other` overlaps this one, widened by `margin` degrees (a grid's
  /// edge cells reach half a cell beyond their centres).
  public func overlaps(south: Double, west: Double, north: Double, east: Double, margin: Double) -> Bool {
    south <= self.north + margin && north >= self.south - margin && west <= self.east + margin
      && east >= self.west - margin
  }
}
