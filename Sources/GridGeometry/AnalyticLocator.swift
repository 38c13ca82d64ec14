import Foundation

/// Finds the grid cell nearest to a latitude/longitude through the grid's map projection,
/// exactly: the answer is the great-circle nearest mass point, as a brute-force scan over
/// every cell would give, for the price of one projection.
///
/// The projection puts the point at fractional grid coordinates (x, y), and the rounded
/// cell is the answer unless (x, y) lies within `margin` of a boundary between cells. There
/// the two or four cells that meet at the boundary are compared by dot products of unit
/// vectors, as the brute force compares them.
///
/// The margin comes from the grid. The build finds where the projection puts the true
/// great-circle boundary between every pair of neighbouring stored cells, which folds in
/// both the stored coordinates' disagreement with the formulas and the small difference
/// between distance on the sphere and on the map. The margin is three times the worst
/// distance from such a boundary to the midline between the two cells, plus 0.001 cell.
///
/// A point more than half a cell beyond the outermost mass points (in grid coordinates) is
/// outside, as for `CellLocator`.
///
/// A final class rather than a struct: its 300-odd bytes were copied (and its arrays
/// retained) on every lookup through a stored optional, about 60 ns a lookup. It holds only
/// immutable values, so it is Sendable as it stands.
public final class AnalyticLocator: PointLocator {
  /// The grid being searched.
  public let grid: CurvilinearGrid
  /// The projection that places points on the grid.
  public let projection: MapProjection
  /// The farthest, in cells, that the projection puts a stored cell from its own place.
  public let mismatch: Double
  /// How close, in cells, to a boundary between cells a point must fall for the cells on
  /// either side to be compared on the sphere.
  public let margin: Double
  @usableFromInline let upperMargin: Double
  @usableFromInline let width: Int
  @usableFromInline let height: Int
  /// The outer edges of the half-cell band around the outermost mass points.
  @usableFromInline let maximumX: Double
  @usableFromInline let maximumY: Double
  /// On grids whose x wraps round (Mercator, latitude-longitude), the turn of columns
  /// centred on the grid that x is brought into; infinite otherwise, so that nothing wraps.
  @usableFromInline let period: Double
  @usableFromInline let wrapBelow: Double
  @usableFromInline let wrapAbove: Double
  /// Every cell's unit vector and projected position, once made: the checked build makes
  /// them, a locator built on trust makes them only when asked (`prepareTables()`, which a
  /// server calls in the background) and until then computes the few it needs per lookup.
  @usableFromInline let tables = LazyCellTables()

  /// Every cell's unit vector, for the exact comparisons, and where the projection puts
  /// every cell's stored coordinates: bilinear positions are found in these quads, so that
  /// a point at a cell's coordinates is exactly at its node.
  @usableFromInline
  final class CellTables: Sendable {
    @usableFromInline let points: [UnitVector]
    @usableFromInline let planeX: [Double]
    @usableFromInline let planeY: [Double]

    init(points: [UnitVector], planeX: [Double], planeY: [Double]) {
      (self.points, self.planeX, self.planeY) = (points, planeX, planeY)
    }
  }

  /// The projections the build made: at most `workLimit(cells:)`.
  public let buildWork: Int

  /// The most projections the build makes for a grid of `cells` cells: one per cell to
  /// check the mismatch, one per cell for its position, and three samples on each of the
  /// fewer than 2·cells boundaries between neighbours. Every loop of the build is over the
  /// cells or their neighbour pairs, and a projection is closed-form, so this bounds its time.
  public static func workLimit(cells: Int) -> Int {
    let (limit, overflow) = cells.multipliedReportingOverflow(by: 8)
    return overflow ? .max : limit
  }

  /// The largest disagreement, in cells, between the projection and the stored coordinates
  /// that a locator accepts.
  public static let tolerance = 0.1

  /// Checks the projection against every cell of the grid and prepares the lookups.
  /// Throws `projectionRejected` with the reason when the projection puts any cell's stored
  /// coordinates more than `tolerance` cells from that cell, or places the boundaries
  /// between cells too far from where the coordinates put them for exact lookups.
  public convenience init(grid: CurvilinearGrid, projection: MapProjection) throws(GeometryError) {
    try self.init(grid: grid, projection: projection, images: projection.cellImages(on: grid))
  }

  /// The checked build over `images`, the projection's `cellImages(on: grid)`, which a
  /// caller that checked the mismatch itself (ingest, to word its warning) has already
  /// made: each cell is projected once for both. The per-cell passes run on the machine's
  /// cores (`CellRanges`), each with the result of one pass in cell order.
  package convenience init(
    grid: CurvilinearGrid, projection: MapProjection, images: MapProjection.CellImages
  ) throws(GeometryError) {
    // Images of another grid (a caller's slip) would index past these cells: made again.
    let images = images.x.count == grid.count && images.y.count == grid.count ? images : projection.cellImages(on: grid)
    let label = "MAP_PROJ \(projection.kind.rawValue) (\(projection.kind.name))"
    let worst = images.mismatch
    guard worst.cells <= Self.tolerance else {
      throw .projectionRejected(
        "\(label) disagrees with the grid's coordinates by \(Self.cells(worst.cells)) at (\(worst.i), \(worst.j))")
    }
    let wrap = Self.wrapping(grid: grid, projection: projection)
    let points = CellRanges.map(grid.count) { range in
      range.map { UnitVector(latitude: Double(grid.latitudes[$0]), longitude: Double(grid.longitudes[$0])) }
    }.flatMap { $0 }
    // Every cell maps (the mismatch check above has seen them all); NaN would stay NaN.
    let planeX = images.x.map(wrap)
    var projections = 2 * grid.count
    let deviation = Self.boundaryDeviation(
      points: points, width: grid.width, height: grid.height, projection: projection, wrap: wrap,
      projections: &projections)
    let margin = 3 * deviation + 0.001
    guard margin < Self.largestMargin else {
      throw .projectionRejected(
        "\(label) puts the boundaries between cells up to \(Self.cells(deviation)) from where the grid's coordinates put them, too far for exact lookups"
      )
    }
    self.init(
      grid: grid, projection: projection, mismatch: worst.cells, margin: margin,
      tables: CellTables(points: points, planeX: planeX, planeY: images.y), buildWork: projections)
  }

  /// The locator over a grid that ingest has already checked the projection against (a
  /// cube's record says so), built without looking at its cells: no check, and no table per
  /// cell. A lookup reads the few cells it compares from `grid` and projects a bilinear
  /// quad's corners as it needs them, so it costs a little more than the checked locator's,
  /// and building costs the same on any grid. `margin` is the one the check found (a
  /// locator index records it); without one, `largestMargin`, which is at least any
  /// margin a checked projection has, so that lookups stay exact (they compare the cells
  /// on the sphere more often). Answers equal the checked locator's whenever the record is
  /// true; a false record gives wrong cells, never a read outside the grid.
  public convenience init(trusting projection: MapProjection, grid: CurvilinearGrid, margin: Double? = nil) {
    // A margin outside what a check can produce is no margin a check recorded.
    let safe = margin.flatMap { $0.isFinite && $0 >= 0 && $0 < Self.largestMargin ? $0 : nil }
    self.init(
      grid: grid, projection: projection, mismatch: Self.tolerance, margin: safe ?? Self.largestMargin,
      tables: nil, buildWork: 0)
  }

  private init(
    grid: CurvilinearGrid, projection: MapProjection, mismatch: Double, margin: Double,
    tables: CellTables?, buildWork: Int
  ) {
    self.grid = grid
    self.projection = projection
    self.mismatch = mismatch
    self.margin = margin
    upperMargin = 1 - margin
    width = grid.width
    height = grid.height
    maximumX = Double(grid.width) - 0.5
    maximumY = Double(grid.height) - 0.5
    let period = projection.columnsPerTurn
    self.period = period
    wrapBelow = Double(grid.width - 1) / 2 - period / 2
    wrapAbove = Double(grid.width - 1) / 2 + period / 2
    if let tables { self.tables.storeIfNil(tables) }
    self.buildWork = buildWork
  }

  /// Makes the per-cell tables of a locator built on trust (a pass over the cells: one
  /// projection and one unit vector each), after which its lookups cost what the checked
  /// locator's do; nothing when they exist. Safe to call from any thread, any number of
  /// times: the first tables stored stay.
  public func prepareTables() {
    guard tables.load() == nil else { return }
    let count = grid.count
    let points = (0..<count).map {
      UnitVector(latitude: Double(grid.latitudes[$0]), longitude: Double(grid.longitudes[$0]))
    }
    let positions = (0..<count).map { projected($0) }
    tables.storeIfNil(
      CellTables(points: points, planeX: positions.map(\.x), planeY: positions.map(\.y)))
  }

  /// The largest margin a checked locator accepts: beyond it, the cells either side of a
  /// boundary are not the only candidates.
  public static let largestMargin = 0.45

  /// x brought into the turn of columns centred on `grid`, as the locator wraps it.
  static func wrapping(grid: CurvilinearGrid, projection: MapProjection) -> @Sendable (Double) -> Double {
    let period = projection.columnsPerTurn
    let (below, above) = (Double(grid.width - 1) / 2 - period / 2, Double(grid.width - 1) / 2 + period / 2)
    return { x in Self.wrap(x, below: below, above: above, period: period) }
  }

  /// `nearestCell(latitude:longitude:)`, calling `prefetch` with each cell that can still be
  /// the answer before deciding between them.
  @inlinable
  public func nearestCell(
    latitude: Double, longitude: Double, prefetch: (Int) -> Void
  ) -> (i: Int, j: Int)? {
    guard let found = search(latitude: latitude, longitude: longitude, prefetch: prefetch) else { return nil }
    return (found.i, found.j)
  }

  /// `position(latitude:longitude:)` with a `prefetch` hook, as for `nearestCell`.
  @inlinable
  public func position(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> GridPosition? {
    guard let found = search(latitude: latitude, longitude: longitude, prefetch: prefetch) else { return nil }
    let (x, y) = fractional(x: found.x, y: found.y)
    return GridPosition(i: found.i, j: found.j, x: x, y: y)
  }

  /// The nearest cell and the point's grid coordinates, or nil beyond the edge band.
  @inlinable
  func search(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> (i: Int, j: Int, x: Double, y: Double)? {
    guard let mapped = projection.gridCoordinates(latitude: latitude, longitude: longitude) else { return nil }
    let x = Self.wrap(mapped.x, below: wrapBelow, above: wrapAbove, period: period)
    let y = mapped.y
    // Written so that NaN fails.
    guard x >= -0.5, y >= -0.5, x <= maximumX, y <= maximumY else { return nil }
    // u and v are non-negative, so truncation is the floor (no libm call); the far edge of
    // the band belongs to the last cell.
    let u = x + 0.5
    let v = y + 0.5
    let i = min(Int(u), width - 1)
    let j = min(Int(v), height - 1)
    let fu = u - Double(i)
    let fv = v - Double(j)
    let di = fu < margin ? (i > 0 ? -1 : 0) : (fu > upperMargin && i < width - 1 ? 1 : 0)
    let dj = fv < margin ? (j > 0 ? -1 : 0) : (fv > upperMargin && j < height - 1 ? 1 : 0)
    if di == 0, dj == 0 {
      prefetch(j * width + i)
      return (i, j, x, y)
    }
    let (bestI, bestJ) = nearest(
      around: (i, j), step: (di, dj), latitude: latitude, longitude: longitude, prefetch: prefetch)
    return (bestI, bestJ, x, y)
  }

  /// Of cell (i, j) and its neighbours across the boundaries the point is close to (one
  /// step along i, along j, or both and the diagonal), the one nearest on the sphere.
  @usableFromInline
  func nearest(
    around cell: (i: Int, j: Int), step: (i: Int, j: Int), latitude: Double, longitude: Double,
    prefetch: (Int) -> Void
  ) -> (Int, Int) {
    // Ranges, not arrays: nothing is allocated on the lookup path.
    let columns = min(cell.i, cell.i + step.i)...max(cell.i, cell.i + step.i)
    let rows = min(cell.j, cell.j + step.j)...max(cell.j, cell.j + step.j)
    for j in rows { for i in columns { prefetch(j * width + i) } }
    guard let point = projection.sines.unitVector(latitude: latitude, longitude: longitude) else { return cell }
    var best = cell
    var bestDot = -2.0
    let table = tables.load()
    for j in rows {
      for i in columns {
        let d = (table?.points[j * width + i] ?? self.point(j * width + i)).dot(point)
        if d > bestDot {
          bestDot = d
          best = (i, j)
        }
      }
    }
    return best
  }

  /// The fractional grid position of (x, y) within the quad that holds it, on the stored
  /// cells' projected positions: exactly a node's index at the node's coordinates.
  @usableFromInline
  func fractional(x: Double, y: Double) -> (Double, Double) {
    // x, y ≥ −0.5; the edge band is in the outer quads, extrapolated.
    let i0 = min(Int(max(x, 0)), width - 2)
    let j0 = min(Int(max(y, 0)), height - 2)
    let quad =
      if let table = tables.load() {
        PlaneQuad(planeX: table.planeX, planeY: table.planeY, southWest: j0 * width + i0, width: width)
      } else {
        PlaneQuad(southWest: j0 * width + i0, width: width) { projected($0) }
      }
    let (s, t) = quad.invert(x: x, y: y, start: (x - Double(i0), y - Double(j0)))
    guard s.isFinite, t.isFinite else { return (x, y) }
    return (Double(i0) + s, Double(j0) + t)
  }

  /// Cell `cell`'s unit vector computed from its coordinates as the tables' are, so that
  /// both compare the same numbers.
  @inlinable
  func point(_ cell: Int) -> UnitVector {
    UnitVector(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]))
  }

  /// Where the projection puts cell `cell`'s stored coordinates (NaN where it does not
  /// map), x wrapped: what the plane tables hold.
  @usableFromInline
  func projected(_ cell: Int) -> (x: Double, y: Double) {
    guard
      let image = projection.gridCoordinates(
        latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]))
    else { return (.nan, .nan) }
    return (Self.wrap(image.x, below: wrapBelow, above: wrapAbove, period: period), image.y)
  }

  /// x brought into the turn of columns centred on the grid.
  @inlinable
  static func wrap(_ x: Double, below: Double, above: Double, period: Double) -> Double {
    x < below ? x + period : (x >= above ? x - period : x)
  }

  /// A number of cells for messages.
  public static func cells(_ value: Double) -> String {
    String(format: "%.3g cells", value)
  }
}
