/// The locator for any grid a cube can hold: the constant-time regular latitude/longitude
/// locator when the grid is such a lattice (global grids included), the analytic locator
/// when the grid's map projection is known and reproduces its coordinates, the bucketed
/// `CellLocator` otherwise. All are exact; the switch costs a branch per lookup.
///
/// Choosing and building finishes in bounded time on any grid `CurvilinearGrid` accepts:
/// at most `RegularLatLonLocator.workLimit` coordinates examined, then (with a projection)
/// `AnalyticLocator.workLimit` projections, then `CellLocator.workLimit` cells and buckets
/// over at most `CellLocator.bucketLimit` buckets, all linear in the number of cells. A
/// grid that would need more is refused as too irregular.
public enum GridLocator: PointLocator {
  /// A curvilinear grid smaller than a hemisphere (WRF Lambert, Mercator, …).
  case curvilinear(CellLocator)
  /// A regular latitude/longitude grid, possibly global.
  case regular(RegularLatLonLocator)
  /// A grid whose map projection places points on it (WRF and MM5 projections).
  case analytic(AnalyticLocator)

  /// Picks `.regular` when the grid is a regular latitude/longitude lattice, else
  /// `.curvilinear`, which throws for grids spanning a hemisphere or more.
  public init(grid: CurvilinearGrid) throws(GeometryError) {
    try self.init(grid: grid, projection: nil)
  }

  /// Picks `.regular` when the grid is a regular latitude/longitude lattice, else
  /// `.analytic` when `projection` is given and passes the analytic locator's check against
  /// every cell, else `.curvilinear`, which throws for grids spanning a hemisphere or more.
  /// `rejected` hears why a given projection was not used.
  public init(
    grid: CurvilinearGrid, projection: MapProjection?, rejected: (GeometryError) -> Void = { _ in }
  ) throws(GeometryError) {
    if let regular = RegularLatLonLocator(grid: grid) {
      self = .regular(regular)
      return
    }
    if let projection {
      do {
        self = .analytic(try AnalyticLocator(grid: grid, projection: projection))
        return
      } catch {
        rejected(error)
      }
    }
    self = .curvilinear(try CellLocator(grid: grid))
  }

  /// The grid being searched.
  @inlinable
  public var grid: CurvilinearGrid {
    switch self {
    case .curvilinear(let locator): locator.grid
    case .regular(let locator): locator.grid
    case .analytic(let locator): locator.grid
    }
  }

  /// Whether the grid is a regular latitude/longitude grid that goes all the way round in
  /// longitude, so that bilinear stencils wrap from the last column to the first.
  @inlinable
  public var isGlobal: Bool {
    switch self {
    case .curvilinear, .analytic: false
    case .regular(let locator): locator.isGlobalInLongitude
    }
  }

  /// `nearestCell(latitude:longitude:)`, calling `prefetch` with cells that may be read
  /// while the search is still deciding.
  @inlinable
  public func nearestCell(
    latitude: Double, longitude: Double, prefetch: (Int) -> Void
  ) -> (i: Int, j: Int)? {
    switch self {
    case .curvilinear(let locator):
      locator.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .regular(let locator):
      locator.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .analytic(let locator):
      locator.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
    }
  }

  /// `position(latitude:longitude:)` with a `prefetch` hook, as for `nearestCell`.
  @inlinable
  public func position(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> GridPosition? {
    switch self {
    case .curvilinear(let locator):
      locator.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .regular(let locator):
      locator.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .analytic(let locator):
      locator.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
    }
  }
}
