import GridGeometry
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

  /// The extent of `cube`'s cell centres, which its locator computed once when it was
  /// built. A grid across the antimeridian spans −180…180.
  public init(_ cube: Cube) {
    self.init(cube, position: 0)
  }

  /// The extent of the cell centres of `cube`'s grid at `position` (a moving grid's place at
  /// some of its steps; position 0 is the first step's).
  public init(_ cube: Cube, position: Int) {
    let extent = cube.locator(position: position).extent
    self.init(south: extent.south, west: extent.west, north: extent.north, east: extent.east)
  }

  /// The smallest rectangle holding this one and `other`: where a moving grid is at any of
  /// several positions. Longitudes are not wrapped: a grid across the antimeridian spans
  /// −180…180 already.
  public func union(_ other: DomainBounds) -> DomainBounds {
    DomainBounds(
      south: min(south, other.south), west: min(west, other.west), north: max(north, other.north),
      east: max(east, other.east))
  }

  /// Whether the rectangle `other` overlaps this one, widened by `margin` degrees (a grid's
  /// edge cells reach half a cell beyond their centres).
  public func overlaps(south: Double, west: Double, north: Double, east: Double, margin: Double) -> Bool {
    south <= self.north + margin && north >= self.south - margin && west <= self.east + margin
      && east >= self.west - margin
  }
}
