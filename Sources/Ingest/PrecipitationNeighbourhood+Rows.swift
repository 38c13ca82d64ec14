import Foundation
import GridGeometry

extension PrecipitationNeighbourhood {
  /// The unit vectors of a range of whole rows, and the two ways of finding which cells of
  /// one of those rows lie within the radius of a cell: `trace`, exact on any row, and
  /// `sweep`, a two-pointer pass over a whole row that is exact where a row's cells within
  /// the radius of each cell form one interval moving forward along the row (every sane
  /// projected grid away from a seam), which the set-up checks against `trace` for every
  /// cell before it lets a pair of rows use it.
  struct Rows {
    /// The grid's rows held here: `rows.count * width` cells from global cell
    /// `rows.lowerBound * width`.
    let rows: Range<Int>
    let width: Int
    private var xs: [Double]
    private var ys: [Double]
    private var zs: [Double]
    /// The whole grid's coordinates, for the definition's own distance near the radius.
    private let latitudes: [Float]
    private let longitudes: [Float]

    /// Squared chords clearly inside and clearly outside the radius; pairs between them
    /// are decided by `GreatCircle.distance`, the definition. The margins dwarf rounding
    /// in the chord (about 1e-13 relative) and in the haversine.
    static let chord = 2 * sin(radius / (2 * GreatCircle.earthRadius))
    static let inner = chord * chord * (1 - 1e-9)
    static let outer = chord * chord * (1 + 1e-9)
    static let innerChord = inner.squareRoot() * (1 - 1e-12)
    static let outerChord = outer.squareRoot() * (1 + 1e-12)

    init(rows: Range<Int>, width: Int, latitudes: [Float], longitudes: [Float]) {
      (self.rows, self.width, self.latitudes, self.longitudes) = (rows, width, latitudes, longitudes)
      let count = rows.count * width
      xs = [Double](repeating: 0, count: count)
      (ys, zs) = (xs, xs)
      let base = rows.lowerBound * width
      for local in 0..<count {
        let point = Self.vector(latitudes[base + local], longitudes[base + local])
        (xs[local], ys[local], zs[local]) = (point.x, point.y, point.z)
      }
    }

    /// A cell's unit vector: one function, so that the set-up and every band compute the
    /// same bits and `sweep` repeats exactly what the set-up checked.
    @inline(__always)
    static func vector(_ latitude: Float, _ longitude: Float) -> UnitVector {
      UnitVector(latitude: Double(latitude), longitude: Double(longitude))
    }

    /// The local index of the first cell of grid row `row`.
    @inline(__always)
    func start(of row: Int) -> Int { (row - rows.lowerBound) * width }

    /// The squared chord between local cells `a` and `b`.
    @inline(__always)
    func squaredChord(_ a: Int, _ b: Int) -> Double {
      let (dx, dy, dz) = (xs[a] - xs[b], ys[a] - ys[b], zs[a] - zs[b])
      return dx * dx + dy * dy + dz * dz
    }

    /// Whether local cells `a` and `b` are within the radius, by the definition.
    @inline(__always)
    func within(_ a: Int, _ b: Int) -> Bool {
      let squared = squaredChord(a, b)
      if squared <= Self.inner { return true }
      if squared >= Self.outer { return false }
      return exactlyWithin(a, b)
    }

    @inline(never)
    private func exactlyWithin(_ a: Int, _ b: Int) -> Bool {
      let base = rows.lowerBound * width
      return GreatCircle.distance(
        latitude1: Double(latitudes[base + a]), longitude1: Double(longitudes[base + a]),
        latitude2: Double(latitudes[base + b]), longitude2: Double(longitudes[base + b])) <= radius
    }

    /// The longest chord between neighbouring cells of grid row `row`: how far along a
    /// row the distance to any point can change from one cell to the next.
    func longestStep(row: Int) -> Double {
      let first = start(of: row)
      var longest = 0.0
      for index in first..<(first + width - 1) { longest = Swift.max(longest, squaredChord(index, index + 1)) }
      return longest.squareRoot()
    }

    /// Calls `body` with each maximal run `lower..<upper` (indices along the row) of the
    /// cells of grid row `row` within the radius of local cell `cell`, in order: exact on
    /// any row. From a cell at chord d, the next t cells lie within d ± t · `step` (the
    /// triangle inequality along the row), so the pass jumps over cells that are surely
    /// outside or surely inside, and tests one by one only near the radius: a few tests
    /// a row where the distance grows along the row, one per cell where it cannot be told.
    @inline(__always)
    func trace(_ cell: Int, row: Int, step: Double, _ body: (Int, Int) -> Void) {
      let first = start(of: row)
      // A little longer than the longest step, so that rounding in the bound cannot admit
      // a cell the direct test would classify otherwise.
      let safeStep = step * (1 + 1e-9) + 1e-15
      var (index, lower, upper) = (0, -1, -1)
      while index < width {
        let squared = squaredChord(cell, first + index)
        let inside: Bool
        var span = 1
        if squared <= Self.inner {
          inside = true
          span += Self.cells(spanning: Self.innerChord - squared.squareRoot(), step: safeStep, width: width)
        } else if squared >= Self.outer {
          inside = false
          span += Self.cells(spanning: squared.squareRoot() - Self.outerChord, step: safeStep, width: width)
        } else {
          inside = exactlyWithin(cell, first + index)
        }
        span = Swift.min(span, width - index)
        if inside {
          if upper == index {
            upper += span
          } else {
            if lower >= 0 { body(lower, upper) }
            (lower, upper) = (index, index + span)
          }
        }
        index += span
      }
      if lower >= 0 { body(lower, upper) }
    }

    /// How many further cells lie surely on the same side, `room` from the radius with at
    /// most `step` between neighbours: a whole row when the row is one point (a pole).
    @inline(__always)
    static func cells(spanning room: Double, step: Double, width: Int) -> Int {
      guard room > 0 else { return 0 }
      let count = (room / step).rounded(.down)
      return count < Double(width) ? Int(count) : width
    }

    /// Calls `body(i, lower, upper)` for each cell i of grid row `row`, with the cells
    /// `lower..<upper` of grid row `other` it finds within the radius (empty when
    /// `lower == upper`). It follows the nearest cell forward along `other` and moves the
    /// interval's ends by direct tests, so a row costs a few tests a cell; it is exact only
    /// where the set-up found it equal to `trace`.
    @inline(__always)
    func sweep(row: Int, other: Int, _ body: (Int, Int, Int) -> Void) {
      let (first, target) = (start(of: row), start(of: other))
      var (nearest, lower, upper, had) = (0, 0, 0, false)
      for i in 0..<width {
        let cell = first + i
        var best = squaredChord(cell, target + nearest)
        while nearest + 1 < width {
          let next = squaredChord(cell, target + nearest + 1)
          guard next <= best else { break }
          (nearest, best) = (nearest + 1, next)
        }
        guard within(cell, target + nearest) else {
          had = false
          body(i, nearest, nearest)
          continue
        }
        if had {
          (lower, upper) = (Swift.min(lower, nearest), Swift.max(upper, nearest + 1))
        } else {
          (lower, upper) = (nearest, nearest + 1)
        }
        while lower < nearest && !within(cell, target + lower) { lower += 1 }
        while lower > 0 && within(cell, target + lower - 1) { lower -= 1 }
        while upper > nearest + 1 && !within(cell, target + upper - 1) { upper -= 1 }
        while upper < width && within(cell, target + upper) { upper += 1 }
        had = true
        body(i, lower, upper)
      }
    }
  }
}
