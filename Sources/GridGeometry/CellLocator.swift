import Foundation

/// Finds the grid cell nearest to a latitude/longitude on any curvilinear grid smaller than
/// a hemisphere, exactly: the answer is the great-circle nearest mass point, as a brute-force
/// scan over every cell would give.
///
/// Cells are bucketed in the gnomonic plane of the grid centre. For every bucket the build
/// keeps the cells that could be nearest to *some* point of the bucket: with the bucket's
/// centre p, its angular radius r and the distance d₀ from p to its nearest cell, the
/// triangle inequality bounds the nearest cell of any point in the bucket to within
/// d₀ + 2r of p. A lookup then costs one projection and a handful of dot products.
public struct CellLocator: PointLocator {
  /// The grid being searched.
  public let grid: CurvilinearGrid
  @usableFromInline let frame: GnomonicFrame
  @usableFromInline let points: [UnitVector]
  @usableFromInline let planeX: [Double]
  @usableFromInline let planeY: [Double]
  @usableFromInline let originX: Double
  @usableFromInline let originY: Double
  @usableFromInline let bucketSize: Double
  /// 1 / bucketSize, so that finding a bucket multiplies instead of divides.
  @usableFromInline let inverseBucketSize: Double
  @usableFromInline let columns: Int
  @usableFromInline let rows: Int
  @usableFromInline let bucketStart: [Int32]
  @usableFromInline let candidates: [Int32]
  /// Every point inside the grid (edge band included) lies within this angle of its
  /// nearest cell; a point farther from every cell is outside.
  @usableFromInline let cosReach: Double
  @usableFromInline let sines = DegreeSineTable()
  /// The cells and buckets the build examined: at most `workLimit(cells:)`.
  public let buildWork: Int

  /// Builds the index. Fails for grids that span a hemisphere or more (global grids need
  /// the regular latitude/longitude locator), and for grids too irregular to index in
  /// bounded time: the build uses at most `bucketLimit(cells:)` buckets and examines at
  /// most `workLimit(cells:)` cells and buckets in its searches, and refuses a grid that
  /// would need more. So it finishes in time linear in the number of cells on any grid
  /// `CurvilinearGrid` accepts, validated or not.
  public init(grid: CurvilinearGrid) throws(GeometryError) {
    self.grid = grid
    let count = grid.count
    // Candidate tables hold cell indices as 32-bit integers.
    guard count <= Int(Int32.max) else {
      throw .invalidGrid("\(count) cells are more than the cell locator indexes (\(Int32.max))")
    }
    let points = (0..<count).map {
      UnitVector(latitude: Double(grid.latitudes[$0]), longitude: Double(grid.longitudes[$0]))
    }
    let frame = GnomonicFrame(centre: points[(grid.height / 2) * grid.width + grid.width / 2])
    var planeX = [Double](repeating: 0, count: count)
    var planeY = [Double](repeating: 0, count: count)
    for index in 0..<count {
      guard let (x, y) = frame.project(points[index]) else {
        throw .invalidGrid("the grid spans more than a hemisphere around its centre cell")
      }
      planeX[index] = x
      planeY[index] = y
    }
    let spacing = Self.spacing(points: points, planeX: planeX, planeY: planeY, grid: grid)
    guard spacing.plane.isFinite, spacing.plane > 1e-12 else {
      throw .invalidGrid("its cells all coincide, so the cell locator has no spacing to bucket them by")
    }
    // One cell spacing of margin holds the half-cell edge band with room to spare.
    let margin = spacing.plane
    let originX = (planeX.min() ?? 0) - margin
    let originY = (planeY.min() ?? 0) - margin
    // Half a cell: a bucket then holds about four candidates (d₀ + 2r ≈ 1.2 cells), a
    // quarter of what cell-sized buckets need, for four times the (small) bucket table.
    let bucketSize = spacing.plane / 2
    // Counted in doubles and checked before any conversion to Int: a grid with a cell far
    // from the rest has an extent of very many mean spacings.
    let columnSpan = ((planeX.max() ?? 0) + margin - originX) / bucketSize + 1
    let rowSpan = ((planeY.max() ?? 0) + margin - originY) / bucketSize + 1
    let bucketLimit = Self.bucketLimit(cells: count)
    guard columnSpan * rowSpan <= Double(bucketLimit) else {
      throw .invalidGrid(
        "too irregular for the cell locator: its extent is \(Int(columnSpan.rounded()))×\(Int(rowSpan.rounded())) half-spacings, more than the \(bucketLimit) buckets allowed for \(count) cells (a cell far from the others?)"
      )
    }
    let columns = Int(columnSpan)
    let rows = Int(rowSpan)

    self.frame = frame
    self.points = points
    self.planeX = planeX
    self.planeY = planeY
    self.originX = originX
    self.originY = originY
    self.bucketSize = bucketSize
    self.inverseBucketSize = 1 / bucketSize
    self.columns = columns
    self.rows = rows
    self.cosReach = cos(spacing.reach)
    let workLimit = Self.workLimit(cells: count)
    guard
      let built = Self.buildCandidates(
        frame: frame, points: points, planeX: planeX, planeY: planeY, origin: (originX, originY),
        bucketSize: bucketSize, columns: columns, rows: rows, reach: spacing.reach, workLimit: workLimit)
    else {
      throw .invalidGrid(
        "too irregular for the cell locator: building its index would examine more than \(workLimit) cells and buckets for \(count) cells (cells far from their neighbours?)"
      )
    }
    (bucketStart, candidates, buildWork) = built
  }

  /// `nearestCell(latitude:longitude:)`, calling `prefetch` with each cell that can still be
  /// the answer before deciding between them, so that the caller can start fetching the
  /// data it will read for the winner while the search finishes.
  @inlinable
  public func nearestCell(
    latitude: Double, longitude: Double, prefetch: (Int) -> Void
  ) -> (i: Int, j: Int)? {
    guard let (cell, x, y) = nearest(latitude: latitude, longitude: longitude, candidate: prefetch) else {
      return nil
    }
    let (i, j) = indices(of: cell)
    if i > 0, j > 0, i < grid.width - 1, j < grid.height - 1 { return (i, j) }
    // Only an edge cell can be nearest to a point beyond the grid, so only edges pay for
    // the exact fractional position.
    guard fractional(cell: cell, x: x, y: y) != nil else { return nil }
    return (i, j)
  }

  /// `position(latitude:longitude:)` with a `prefetch` hook, as for `nearestCell`.
  @inlinable
  public func position(latitude: Double, longitude: Double, prefetch: (Int) -> Void) -> GridPosition? {
    guard let (cell, x, y) = nearest(latitude: latitude, longitude: longitude, candidate: prefetch),
      let (fx, fy) = fractional(cell: cell, x: x, y: y)
    else { return nil }
    let (i, j) = indices(of: cell)
    return GridPosition(i: i, j: j, x: fx, y: fy)
  }

  /// (i, j) of a flat cell index. A 32-bit division: grids have far fewer than 2³² cells,
  /// and the 64-bit one is several times slower on common x86 cores.
  @inlinable
  func indices(of cell: Int) -> (Int, Int) {
    let j = Int(UInt32(truncatingIfNeeded: cell) / UInt32(truncatingIfNeeded: grid.width))
    return (cell - j * grid.width, j)
  }

  /// The nearest cell's flat index and the point's plane coordinates; `candidate` sees every
  /// cell of the point's bucket first.
  @inlinable
  func nearest(latitude: Double, longitude: Double, candidate: (Int) -> Void) -> (Int, Double, Double)? {
    guard latitude.isFinite, abs(latitude) <= 90,
      let point = sines.unitVector(latitude: latitude, longitude: longitude),
      let (x, y) = frame.project(point)
    else { return nil }
    let column = (x - originX) * inverseBucketSize
    let row = (y - originY) * inverseBucketSize
    // Checked non-negative first, so truncation is the floor (and no libm `floor` call).
    guard column >= 0, row >= 0, column < Double(columns), row < Double(rows) else { return nil }
    let bucket = Int(row) * columns + Int(column)
    return bucketStart.withUnsafeBufferPointer { starts in
      candidates.withUnsafeBufferPointer { cells in
        for k in Int(starts[bucket])..<Int(starts[bucket + 1]) { candidate(Int(cells[k])) }
        return points.withUnsafeBufferPointer { vectors in
          var best = -1
          var bestDot = cosReach
          for k in Int(starts[bucket])..<Int(starts[bucket + 1]) {
            let cell = Int(cells[k])
            let d = vectors[cell].dot(point)
            if d > bestDot {
              bestDot = d
              best = cell
            }
          }
          return best < 0 ? nil : (best, x, y)
        }
      }
    }
  }

  /// The fractional grid position of plane point (x, y) near `cell`, found by inverting the
  /// bilinear map of the surrounding quads; nil when it lies beyond the edge band.
  @usableFromInline
  func fractional(cell: Int, x: Double, y: Double) -> (Double, Double)? {
    let width = grid.width
    let height = grid.height
    let (i, j) = indices(of: cell)
    // The side of the nearest cell the point lies on, from the local grid axes, picks the
    // quad that holds it; one Newton solve then settles almost every point.
    let (a, b) = localOffset(cell: cell, i: i, j: j, x: x, y: y)
    let i0 = min(max(a >= 0 ? i : i - 1, 0), width - 2)
    let j0 = min(max(b >= 0 ? j : j - 1, 0), height - 2)
    let (s0, t0) = invertBilinear(
      southWest: j0 * width + i0, x: x, y: y, start: (a + Double(i - i0), b + Double(j - j0)))
    if s0 >= 0, s0 <= 1, t0 >= 0, t0 <= 1 { return (Double(i0) + s0, Double(j0) + t0) }
    // Edge band or a strongly curved grid: take the quad the point is least outside of.
    var best: (x: Double, y: Double, excess: Double)?
    for j0 in max(j - 1, 0)...min(j, height - 2) {
      for i0 in max(i - 1, 0)...min(i, width - 2) {
        let (s, t) = invertBilinear(southWest: j0 * width + i0, x: x, y: y)
        let excess = max(0, -s, s - 1) + max(0, -t, t - 1)
        if excess < (best?.excess ?? .infinity) {
          best = (Double(i0) + s, Double(j0) + t, excess)
        }
      }
    }
    guard let best, best.x >= -0.5, best.y >= -0.5, best.x <= Double(width) - 0.5,
      best.y <= Double(height) - 0.5
    else { return nil }
    return (best.x, best.y)
  }

  /// The point's offset from `cell` in cell units along the local grid axes (central
  /// differences, one-sided at the edges), by solving the 2×2 linear system.
  @usableFromInline
  func localOffset(cell: Int, i: Int, j: Int, x: Double, y: Double) -> (Double, Double) {
    let east = i + 1 < grid.width ? cell + 1 : cell
    let west = i > 0 ? cell - 1 : cell
    let north = j + 1 < grid.height ? cell + grid.width : cell
    let south = j > 0 ? cell - grid.width : cell
    let ix = (planeX[east] - planeX[west]) / Double((east - west))
    let iy = (planeY[east] - planeY[west]) / Double((east - west))
    let jx = (planeX[north] - planeX[south]) / Double((north - south) / grid.width)
    let jy = (planeY[north] - planeY[south]) / Double((north - south) / grid.width)
    let dx = x - planeX[cell]
    let dy = y - planeY[cell]
    let determinant = ix * jy - jx * iy
    guard determinant != 0 else { return (0, 0) }
    return ((dx * jy - dy * jx) / determinant, (dy * ix - dx * iy) / determinant)
  }

  /// Newton's method on the bilinear map of the quad with the given south-west corner;
  /// (s, t) may fall outside [0, 1] when the point is outside the quad.
  @usableFromInline
  func invertBilinear(
    southWest: Int, x: Double, y: Double, start: (Double, Double) = (0.5, 0.5)
  ) -> (Double, Double) {
    PlaneQuad(planeX: planeX, planeY: planeY, southWest: southWest, width: grid.width).invert(x: x, y: y, start: start)
  }
}
