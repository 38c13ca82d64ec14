/// Finds the grid cell nearest to a latitude/longitude on a latitude/longitude lattice:
/// every row one latitude, every column one longitude, the columns evenly spaced. The rows
/// are evenly spaced (a CF `lat`/`lon` grid such as GFS's 0.25°: found arithmetically, in
/// constant time) or only monotonic (a regular Gaussian grid, GRIB `regular_gg`, the
/// native grids of IFS and of GFS's older versions: found by binary search over the
/// row latitudes). Either scanning order, regional or round the globe with the seam and
/// the poles, which `CellLocator` cannot handle. The answer is exact.
///
/// On such a lattice the great-circle distance to cell (i, j) depends on the column only
/// through cos(λ − λᵢ), the same factor for every row, so the nearest column is simply the
/// nearest longitude. Along that column the dot product with the point is
/// `sin φ · sin φⱼ + cos φ · cos Δλ · cos φⱼ`, a cosine of (φⱼ − α) with α a little poleward
/// of φ: unimodal in j whatever the spacing of the rows, so climbing from the nearest row
/// by latitude finds the nearest row, which near the poles is not always the nearest by
/// latitude.
public struct RegularLatLonLocator: PointLocator {
  /// Which rows a lattice may have.
  public enum RowSpacing: Sendable {
    /// Evenly spaced latitudes only (what a CF or GRIB grid that records MAP_PROJ 6 has).
    case even
    /// Any strictly monotonic latitudes, evenly spaced or not (Gaussian grids).
    case monotonic
  }

  /// The grid being searched.
  public let grid: CurvilinearGrid
  /// Whether the columns go all the way round (width · spacing ≈ 360°): there is then no
  /// east or west edge, and the last column's eastern neighbour is the first.
  public let isGlobalInLongitude: Bool
  @usableFromInline let width: Int
  @usableFromInline let height: Int
  /// Whether the rows are evenly spaced: then `latitude0` and `inverseLatitudeStep` place
  /// a point among them; otherwise a binary search over `rowKeys` does.
  public let rowsAreEvenlySpaced: Bool
  /// Latitude of row 0 and the signed row spacing (negative when latitudes descend); the
  /// mean spacing when the rows are uneven (then used for nothing).
  @usableFromInline let latitude0: Double
  @usableFromInline let inverseLatitudeStep: Double
  /// Every row's latitude times `rowDirection`, so that the keys ascend whichever way the
  /// rows scan: what the binary search of uneven rows searches.
  @usableFromInline let rowKeys: [Double]
  /// +1 when latitudes ascend with j, −1 when they descend.
  @usableFromInline let rowDirection: Double
  /// Longitude of column 0 and the signed column spacing.
  @usableFromInline let longitude0: Double
  @usableFromInline let inverseLongitudeStep: Double
  /// 360° in columns, and where the one-turn window of column coordinates starts: a
  /// longitude is reduced into `base ..< base + period` before any edge test.
  @usableFromInline let period: Double
  @usableFromInline let inversePeriod: Double
  @usableFromInline let base: Double
  /// The latitude band the grid covers: the outermost rows plus half the spacing next to
  /// them, or up to the pole when the grid goes round in longitude and no further row would
  /// fit between its outermost row and the pole (a Gaussian grid's outermost latitude is
  /// about ¾ of a spacing from the pole, and nothing is nearer to the pole than that row).
  @usableFromInline let southEdge: Double
  @usableFromInline let northEdge: Double
  /// sin/cos of every row's latitude and every column's longitude, from the stored
  /// coordinates, so that dot products are those of the actual mass points.
  @usableFromInline let rowSin: [Double]
  @usableFromInline let rowCos: [Double]
  @usableFromInline let columnSin: [Double]
  @usableFromInline let columnCos: [Double]
  @usableFromInline let sines = DegreeSineTable()

  /// The coordinates the recognition and build examined: every cell once, then every row
  /// and column a few times; at most `workLimit(cells:)`.
  public let buildWork: Int

  /// The most coordinates the build examines for a grid of `cells` cells: each cell once,
  /// and each of the at most `cells` rows and columns four times (unwrapping, the even
  /// step check, the sines and cosines), the rows a fifth time when they are not evenly
  /// spaced (the monotonic check). Every loop is over cells, rows or columns, so this
  /// bounds its time.
  public static func workLimit(cells: Int) -> Int {
    let (limit, overflow) = cells.multipliedReportingOverflow(by: 6)
    return overflow ? .max : limit
  }

  /// How far, in degrees, an axis value may be from the evenly spaced one.
  static let tolerance = 1e-4

  /// Recognises an evenly spaced latitude/longitude lattice: `init(grid:rows: .even)`.
  public init?(grid: CurvilinearGrid) {
    self.init(grid: grid, rows: .even)
  }

  /// Recognises a latitude/longitude lattice; nil unless every row has one latitude, every
  /// column one longitude (exactly, so that the lookup is exact), the longitudes are evenly
  /// spaced and the latitudes are as `rows` asks. Latitudes may ascend or descend;
  /// longitudes may use 0…360 or −180…180 and must be monotonic modulo 360.
  public init?(grid: CurvilinearGrid, rows: RowSpacing) {
    let width = grid.width
    let latitudes = grid.latitudes
    let longitudes = grid.longitudes
    for j in 0..<grid.height {
      for i in 0..<width {
        let cell = j * width + i
        guard latitudes[cell] == latitudes[j * width], longitudes[cell] == longitudes[i] else { return nil }
      }
    }
    self.init(trustingAxesOf: grid, rows: rows, cellsExamined: grid.count)
  }

  /// The locator over a grid known to be a lattice (a cube's locator index says ingest
  /// found it one), built from its first column's latitudes and first row's longitudes
  /// alone: the other cells are not looked at, so building costs the same on any grid. nil
  /// when the longitudes are not evenly spaced or the latitudes not strictly monotonic. On
  /// a grid that is not in fact a lattice the answers are wrong cells, never a read outside
  /// the grid.
  public init?(trustingAxesOf grid: CurvilinearGrid) {
    self.init(trustingAxesOf: grid, rows: .monotonic, cellsExamined: 0)
  }

  private init?(trustingAxesOf grid: CurvilinearGrid, rows spacing: RowSpacing, cellsExamined: Int) {
    let width = grid.width
    let height = grid.height
    let latitudes = grid.latitudes
    let longitudes = grid.longitudes
    let rows = (0..<height).map { Double(latitudes[$0 * width]) }
    // Unwrap the longitudes: each step taken the short way round, so that 359 → 0 is +1.
    var columns = [Double(longitudes[0])]
    for i in 1..<width {
      var step = Double(longitudes[i]) - Double(longitudes[i - 1])
      if step > 180 { step -= 360 } else if step <= -180 { step += 360 }
      columns.append(columns[i - 1] + step)
    }
    guard let longitudeStep = Self.evenStep(columns),
      abs(longitudeStep) * Double(width - 1) <= 360 + Self.tolerance
    else { return nil }
    let evenStep = Self.evenStep(rows)
    let direction: Double = rows[height - 1] > rows[0] ? 1 : -1
    let keys = rows.map { $0 * direction }
    if evenStep == nil {
      // Uneven rows must be strictly monotonic, so that the binary search has one answer.
      guard spacing == .monotonic, zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
    }

    let turn = 360 / abs(longitudeStep)
    let global = abs(Double(width) * abs(longitudeStep) - 360) <= 1e-3
    self.grid = grid
    self.width = width
    self.height = height
    isGlobalInLongitude = global
    rowsAreEvenlySpaced = evenStep != nil
    rowKeys = keys
    rowDirection = direction
    latitude0 = rows[0]
    inverseLatitudeStep = 1 / (evenStep ?? (rows[height - 1] - rows[0]) / Double(height - 1))
    longitude0 = columns[0]
    inverseLongitudeStep = 1 / longitudeStep
    // A global grid's window is exactly its columns; any other grid's is centred on its
    // columns, so that the uncovered part of the circle lies equally beyond both edges.
    period = global ? Double(width) : turn
    inversePeriod = 1 / period
    base = global ? 0 : Double(width - 1) / 2 - turn / 2
    // The edges in keys (ascending; a pole is ±90 in keys too), then back in latitudes.
    let (first, last) = (keys[0], keys[height - 1])
    let low = Self.edge(first, spacing: keys[1] - first, global: global, pole: -90)
    let high = Self.edge(last, spacing: last - keys[height - 2], global: global, pole: 90)
    (southEdge, northEdge) = direction > 0 ? (low, high) : (-high, -low)
    buildWork = cellsExamined + 4 * (width + height) + (evenStep == nil ? height : 0)
    let unit = (0..<height).map { UnitVector(latitude: rows[$0], longitude: 0) }
    rowSin = unit.map(\.z)
    rowCos = unit.map(\.x)
    let ring = (0..<width).map { UnitVector(latitude: 0, longitude: Double(longitudes[$0])) }
    columnCos = ring.map(\.x)
    columnSin = ring.map(\.y)
  }

  /// How far the grid reaches beyond its outermost row `key` (a latitude times the row
  /// direction) towards `pole` (the pole on that side, ±90, in keys too): half the `spacing`
  /// next to that row, clamped to the pole, or the pole itself on a grid that goes round in
  /// longitude when the row is less than a spacing from it.
  static func edge(_ key: Double, spacing: Double, global: Bool, pole: Double) -> Double {
    let towardsPole: Double = pole > key ? 1 : -1
    let gap = abs(pole - key)
    if global, gap < spacing { return pole }
    return key + towardsPole * min(spacing / 2, gap)
  }

  /// The spacing of evenly spaced values (signed), or nil when they are not evenly spaced
  /// or do not move.
  static func evenStep(_ values: [Double]) -> Double? {
    guard let first = values.first, let last = values.last, values.count >= 2 else { return nil }
    let step = (last - first) / Double(values.count - 1)
    guard abs(step) > 10 * tolerance else { return nil }
    for (k, value) in values.enumerated() where abs(value - (first + Double(k) * step)) > tolerance {
      return nil
    }
    return step
  }

  /// `nearestCell(latitude:longitude:)`, calling `prefetch` with the four cells of the quad
  /// around the point before deciding between them.
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
    return GridPosition(i: found.i, j: found.j, x: found.x, y: found.y)
  }

  /// Where a latitude inside the band falls among the rows: the nearest row by latitude,
  /// the lower of the two rows around it (clamped to 0…height − 2) and the fractional row,
  /// linear in latitude between those two rows.
  @inlinable @inline(__always)
  func rows(at latitude: Double) -> (nearest: Int, j0: Int, y: Double) {
    if rowsAreEvenlySpaced {
      let y = (latitude - latitude0) * inverseLatitudeStep
      // Both are clamped at 0 before truncation, which is then the floor.
      return (min(max(Int(max(y + 0.5, 0)), 0), height - 1), min(max(Int(max(y, 0)), 0), height - 2), y)
    }
    let key = latitude * rowDirection
    return rowKeys.withUnsafeBufferPointer { keys in
      // The first row whose key is above the point's, in log₂(height) steps.
      var (low, high) = (0, height)
      while low < high {
        let middle = (low + high) / 2
        if keys[middle] <= key { low = middle + 1 } else { high = middle }
      }
      let j0 = min(max(low - 1, 0), height - 2)
      let y = Double(j0) + (key - keys[j0]) / (keys[j0 + 1] - keys[j0])
      let nearest =
        if low == 0 { 0 } else if low == height { height - 1 } else {
          key - keys[low - 1] <= keys[low] - key ? low - 1 : low
        }
      return (nearest, j0, y)
    }
  }

  /// The nearest cell and the point's fractional column and row.
  @inlinable
  func search(
    latitude: Double, longitude: Double, prefetch: (Int) -> Void
  ) -> (i: Int, j: Int, x: Double, y: Double)? {
    guard latitude >= southEdge, latitude <= northEdge,
      let phi = sines.sinCos(degrees: latitude), let lambda = sines.sinCos(degrees: longitude)
    else { return nil }
    // Reduce the column coordinate into the one-turn window. Longitudes are within ±360
    // (checked above), so `turns + 8` is positive and truncation is the floor.
    var x = (longitude - longitude0) * inverseLongitudeStep
    let turns = (x - base) * inversePeriod
    x -= Double(Int(turns + 8) - 8) * period
    let c0: Int
    let c1: Int
    if isGlobalInLongitude {
      // Rounding can leave x a hair outside [0, width).
      if x >= period { x -= period } else if x < 0 { x += period }
      if x < 0 || x >= period { x = 0 }
      c0 = min(Int(x), width - 1)
      c1 = c0 == width - 1 ? 0 : c0 + 1
    } else {
      guard x >= -0.5, x <= Double(width) - 0.5 else { return nil }
      c0 = x < 0 ? 0 : min(Int(x), width - 2)
      c1 = c0 + 1
    }
    let (row, j0, y) = rows(at: latitude)
    prefetch(j0 * width + c0)
    prefetch(j0 * width + c1)
    prefetch((j0 + 1) * width + c0)
    prefetch((j0 + 1) * width + c1)

    return rowSin.withUnsafeBufferPointer { rowSin in
      rowCos.withUnsafeBufferPointer { rowCos in
        columnSin.withUnsafeBufferPointer { columnSin in
          columnCos.withUnsafeBufferPointer { columnCos in
            // The nearest column is the one with the largest cos Δλ, whatever the row.
            let cos0 = lambda.cos * columnCos[c0] + lambda.sin * columnSin[c0]
            let cos1 = lambda.cos * columnCos[c1] + lambda.sin * columnSin[c1]
            let column = cos1 > cos0 ? c1 : c0
            let a = phi.sin
            let b = phi.cos * max(cos0, cos1)
            // Climb from the nearest row by latitude while the dot product grows.
            var j = row
            var best = a * rowSin[j] + b * rowCos[j]
            let step: Int
            if j + 1 < height, a * rowSin[j + 1] + b * rowCos[j + 1] > best {
              step = 1
            } else if j > 0, a * rowSin[j - 1] + b * rowCos[j - 1] > best {
              step = -1
            } else {
              return (column, j, x, y)
            }
            while j + step >= 0, j + step < height {
              let next = a * rowSin[j + step] + b * rowCos[j + step]
              guard next > best else { break }
              best = next
              j += step
            }
            return (column, j, x, y)
          }
        }
      }
    }
  }
}
