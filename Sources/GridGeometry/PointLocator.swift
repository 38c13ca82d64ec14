/// What every locator answers: where a latitude/longitude falls on its grid.
///
/// A locator implements the `prefetch:` forms, which call `prefetch` with each cell that
/// can still be the answer before deciding between them, so that a caller can start
/// fetching the data it will read for the winner while the search finishes. The plain
/// forms come from the extension.
public protocol PointLocator: Sendable {
  /// The grid being searched.
  var grid: CurvilinearGrid { get }

  /// The great-circle nearest cell as (i, j), or nil when the point is outside the grid
  /// (more than half a cell beyond its outermost mass points).
  func nearestCell(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> (i: Int, j: Int)?

  /// The nearest cell and the point's fractional grid coordinates, or nil when outside.
  func position(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> GridPosition?
}

extension PointLocator {
  /// The great-circle nearest cell as (i, j), or nil when the point is outside the grid.
  @inlinable
  public func nearestCell(latitude: Double, longitude: Double) -> (i: Int, j: Int)? {
    nearestCell(latitude: latitude, longitude: longitude) { _ in }
  }

  /// The nearest cell and the point's fractional grid coordinates, or nil when outside.
  @inlinable
  public func position(latitude: Double, longitude: Double) -> GridPosition? {
    position(latitude: latitude, longitude: longitude) { _ in }
  }
}
