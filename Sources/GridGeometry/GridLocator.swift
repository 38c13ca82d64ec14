import Synchronization

/// The locator for any grid a cube can hold: the constant-time regular latitude/longitude
/// locator when the grid is such a lattice (global grids included), the analytic locator
/// when the grid's map projection is known and reproduces its coordinates, the lattice
/// locator of uneven rows (Gaussian grids, global ones included) when the grid is a lattice
/// with monotonic but uneven latitudes, the bucketed `CellLocator` otherwise. All are
/// exact; the dispatch costs a branch per lookup.
///
/// Choosing and building finishes in bounded time on any grid `CurvilinearGrid` accepts:
/// at most `RegularLatLonLocator.workLimit` coordinates examined, then (with a projection)
/// `AnalyticLocator.workLimit` projections, then `CellLocator.workLimit` cells and buckets
/// over at most `CellLocator.bucketLimit` buckets, all linear in the number of cells. A
/// grid that would need more is refused as too irregular.
///
/// A final class holding the chosen locator in one of three optionals, with a trivial
/// `kind` to switch on. Not an enum with payloads: switching on one copies the payload out
/// (its tag lives in the payload's spare bits) and retains its arrays, tens of nanoseconds
/// on a one-value lookup. Not a struct either: with this type a struct stored in the cube,
/// `Cube.locate` took 1.32× the time of the enum-unwrapping code before it, side by side
/// (`nwpcube bench --kinds locate`, p50 59 → 78 ns), against 1.07× as a class (69 → 74 ns,
/// no reference counting in the loop). A lookup borrows the class, switches on `kind` and
/// calls the chosen locator through optional chaining, which borrows it in place. This is
/// the one dispatch over the kinds of locator: `Cube` looks up through it, and its plain
/// `locate` has the dispatch inlined (`inlinedNearestCell`), which took it back to the
/// enum-unwrapping code's time. It holds only immutable values, so it is Sendable as it
/// stands, and its extent's cache is a mutex.
public final class GridLocator: PointLocator {
  /// Which locator a grid got.
  public enum Kind: String, Sendable, CaseIterable {
    /// A curvilinear grid smaller than a hemisphere (WRF Lambert, Mercator, …).
    case curvilinear
    /// A latitude/longitude lattice, evenly spaced or Gaussian, possibly global.
    case regular
    /// A grid whose map projection places points on it (WRF and MM5 projections).
    case analytic
  }

  /// Which of the three locators is set.
  public let kind: Kind
  /// The grid being searched.
  public let grid: CurvilinearGrid
  /// Whether the grid is a latitude/longitude lattice that goes all the way round in
  /// longitude, so that bilinear stencils wrap from the last column to the first.
  public let isGlobal: Bool
  /// The generic locator, when `kind` is `.curvilinear`.
  public let curvilinear: CellLocator?
  /// The lattice locator, when `kind` is `.regular`.
  public let regular: RegularLatLonLocator?
  /// The projection's locator, when `kind` is `.analytic`.
  public let analytic: AnalyticLocator?
  /// Where the grid's cell centres lie, for map tiles: every run of a domain shares it.
  /// Found when first asked (it looks at every cell), so that a locator built without
  /// looking at the cells stays so for queries, which never ask.
  public var extent: GridExtent {
    extentCache.withLock { cached in
      if let cached { return cached }
      let extent = GridExtent(grid)
      cached = extent
      return extent
    }
  }
  private let extentCache = Mutex<GridExtent?>(nil)

  /// Picks `.regular` when the grid is a regular latitude/longitude lattice, else
  /// `.curvilinear`, which throws for grids spanning a hemisphere or more.
  public convenience init(grid: CurvilinearGrid) throws(GeometryError) {
    try self.init(grid: grid, projection: nil)
  }

  /// Picks `.regular` when the grid is an evenly spaced latitude/longitude lattice, else
  /// `.analytic` when `projection` is given and passes the analytic locator's check against
  /// every cell, else `.regular` when the grid is a lattice whose rows are monotonic but
  /// uneven (`prefersProjection`), else `.curvilinear`, which throws for grids spanning a
  /// hemisphere or more. `rejected` hears why a given projection was not used.
  public convenience init(
    grid: CurvilinearGrid, projection: MapProjection?, rejected: (GeometryError) -> Void = { _ in }
  ) throws(GeometryError) {
    let lattice = RegularLatLonLocator(grid: grid, rows: .monotonic)
    if let lattice, !Self.prefersProjection(over: lattice) {
      self.init(grid: grid, regular: lattice)
      return
    }
    if let projection {
      do {
        self.init(grid: grid, analytic: try AnalyticLocator(grid: grid, projection: projection))
        return
      } catch {
        rejected(error)
      }
    }
    if let lattice {
      self.init(grid: grid, regular: lattice)
      return
    }
    self.init(grid: grid, curvilinear: try CellLocator(grid: grid))
  }

  /// Whether a projection that locates every cell serves a grid rather than `lattice`: only
  /// when the lattice's rows are uneven (a Mercator grid's are too), for which the lattice
  /// searches the rows while the projection computes the row. An evenly spaced lattice
  /// needs neither a search nor a projection. Ingest's check chooses the same way.
  package static func prefersProjection(over lattice: RegularLatLonLocator) -> Bool {
    !lattice.rowsAreEvenlySpaced
  }

  /// The locator `index` describes, built without looking at the grid's cells (a cube's
  /// stored index: ingest checked the grid): the lattice from its axes, or the analytic
  /// locator through `projection` with the index's margin. nil when the index cannot serve
  /// (an analytic index without a projection, a lattice whose axes are not evenly spaced):
  /// the caller then builds the checked locator.
  public convenience init?(grid: CurvilinearGrid, index: LocatorIndex, projection: MapProjection?) {
    guard index.width == grid.width, index.height == grid.height else { return nil }
    switch index.kind {
    case .lattice:
      guard let regular = RegularLatLonLocator(trustingAxesOf: grid) else { return nil }
      self.init(grid: grid, regular: regular)
    case .analytic:
      guard let projection else { return nil }
      self.init(grid: grid, analytic: AnalyticLocator(trusting: projection, grid: grid, margin: index.margin))
    }
  }

  /// The analytic locator through `projection`, which ingest checked against every cell (a
  /// cube's record says so), built without looking at the cells and with the largest
  /// margin, since no index records the grid's own.
  public convenience init(grid: CurvilinearGrid, trusting projection: MapProjection) {
    self.init(grid: grid, analytic: AnalyticLocator(trusting: projection, grid: grid))
  }

  /// The lattice locator already built over `grid` (ingest's check built it once for the
  /// warning, the cube's record and the locator index).
  package init(grid: CurvilinearGrid, regular: RegularLatLonLocator) {
    self.grid = grid
    (kind, isGlobal) = (.regular, regular.isGlobalInLongitude)
    (curvilinear, self.regular, analytic) = (nil, regular, nil)
  }

  /// The analytic locator already built and checked over `grid`, as for `regular`.
  package init(grid: CurvilinearGrid, analytic: AnalyticLocator) {
    self.grid = grid
    (kind, isGlobal) = (.analytic, false)
    (curvilinear, regular, self.analytic) = (nil, nil, analytic)
  }

  private init(grid: CurvilinearGrid, curvilinear: CellLocator) {
    self.grid = grid
    (kind, isGlobal) = (.curvilinear, false)
    (self.curvilinear, regular, analytic) = (curvilinear, nil, nil)
  }

  /// Makes the per-cell tables a locator built on trust leaves out (`AnalyticLocator.
  /// prepareTables()`), so that its lookups cost what a checked locator's do; nothing for
  /// the other locators, which have what they need.
  public func prepareTables() { analytic?.prepareTables() }

  /// `nearestCell(latitude:longitude:)`, calling `prefetch` with cells that may be read
  /// while the search is still deciding.
  @inlinable
  public func nearestCell(
    latitude: Double, longitude: Double, prefetch: (Int) -> Void
  ) -> (i: Int, j: Int)? {
    inlinedNearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
  }

  /// `position(latitude:longitude:)` with a `prefetch` hook, as for `nearestCell`.
  @inlinable
  public func position(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> GridPosition? {
    inlinedPosition(latitude: latitude, longitude: longitude, prefetch: prefetch)
  }

  /// The dispatch of `nearestCell(latitude:longitude:prefetch:)`, always inlined into its
  /// caller. `Cube.locate` calls it: as a call of its own between the cube and the chosen
  /// locator, the dispatch cost a plain lookup 5 ns (1.07×). `Cube.value` calls the form
  /// above, which the optimiser keeps as a call: forced inline there too, a one-value
  /// lookup took 1.07× its time (docs/performance.md).
  @inlinable @inline(__always)
  public func inlinedNearestCell(
    latitude: Double, longitude: Double, prefetch: (Int) -> Void
  ) -> (i: Int, j: Int)? {
    switch kind {
    case .analytic: analytic?.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .curvilinear: curvilinear?.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .regular: regular?.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
    }
  }

  /// The dispatch of `position(latitude:longitude:prefetch:)`, as `inlinedNearestCell`.
  @inlinable @inline(__always)
  public func inlinedPosition(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> GridPosition? {
    switch kind {
    case .analytic: analytic?.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .curvilinear: curvilinear?.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
    case .regular: regular?.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
    }
  }
}
