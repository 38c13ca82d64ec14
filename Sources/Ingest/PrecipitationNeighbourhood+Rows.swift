import Dispatch
import Foundation
import GridGeometry
import Synchronization

extension PrecipitationNeighbourhood {
  /// The unit vectors of every cell of a grid, computed once, and the two ways of finding
  /// which cells of one row lie within the radius of a cell: `trace`, exact on any row, and
  /// `sweep`, a two-pointer pass over a whole row that is exact where a row's cells within
  /// the radius of each cell form one interval moving forward along the row (every sane
  /// projected grid away from a seam), which the set-up proves or checks against `trace`
  /// for every cell before it relies on it. Immutable: the threads of the set-up and of
  /// the steps share one.
  struct Rows: Sendable {
    let width: Int
    let height: Int
    /// Each cell's unit vector, x, y and z in turn.
    private let points: [Double]
    /// The thresholds below, held here: a static computed at run time is checked for its
    /// initialization at every use, in the innermost loops.
    private let inner = Self.inner
    private let outer = Self.outer
    private let innerChord = Self.innerChord
    private let outerChord = Self.outerChord
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

    /// Below this many cells the vectors are computed on the calling thread.
    static let parallelCells = 65_536

    init(width: Int, height: Int, latitudes: [Float], longitudes: [Float]) {
      (self.width, self.height, self.latitudes, self.longitudes) = (width, height, latitudes, longitudes)
      let count = latitudes.count
      let parts = count < Self.parallelCells ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, 8)
      // The trigonometry is most of the set-up's cost on a grid that is not regular: split
      // over the cores, each part's vectors joined in cell order.
      let results = Mutex([[Double]](repeating: [], count: parts))
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        let cells = (count * part / parts)..<(count * (part + 1) / parts)
        var points = [Double]()
        points.reserveCapacity(3 * cells.count)
        for cell in cells {
          let point = Self.vector(latitudes[cell], longitudes[cell])
          points.append(point.x)
          points.append(point.y)
          points.append(point.z)
        }
        results.withLock { $0[part] = points }
      }
      points = results.withLock { parts in parts.count == 1 ? parts[0] : parts.flatMap { $0 } }
    }

    /// A cell's unit vector: one function, so that every use computes the same bits.
    @inline(__always)
    static func vector(_ latitude: Float, _ longitude: Float) -> UnitVector {
      UnitVector(latitude: Double(latitude), longitude: Double(longitude))
    }

    /// Cell `cell`'s unit vector.
    @inline(__always)
    func point(_ cell: Int) -> UnitVector {
      UnitVector(x: points[3 * cell], y: points[3 * cell + 1], z: points[3 * cell + 2])
    }

    /// The index of the first cell of row `row`.
    @inline(__always)
    func start(of row: Int) -> Int { row * width }

    /// The squared chord between cells `a` and `b`.
    @inline(__always)
    func squaredChord(_ a: Int, _ b: Int) -> Double {
      let (dx, dy, dz) = (
        points[3 * a] - points[3 * b], points[3 * a + 1] - points[3 * b + 1], points[3 * a + 2] - points[3 * b + 2]
      )
      return dx * dx + dy * dy + dz * dz
    }

    /// Whether cells `a` and `b` are within the radius, by the definition.
    @inline(__always)
    func within(_ a: Int, _ b: Int) -> Bool {
      let squared = squaredChord(a, b)
      if squared <= inner { return true }
      if squared >= outer { return false }
      return exactlyWithin(a, b)
    }

    @inline(__always)
    private func exactlyWithin(_ a: Int, _ b: Int) -> Bool {
      PrecipitationNeighbourhood.isWithin(a, b, latitudes: latitudes, longitudes: longitudes)
    }

    /// The longest chord between neighbouring cells of row `row`: how far along a row the
    /// distance to any point can change from one cell to the next.
    func longestStep(row: Int) -> Double {
      let first = start(of: row)
      var longest = 0.0
      for index in first..<(first + width - 1) { longest = Swift.max(longest, squaredChord(index, index + 1)) }
      return longest.squareRoot()
    }

    /// Calls `body` with each maximal run `lower..<upper` (indices along the row) of the
    /// cells of row `row` within the radius of cell `cell`, in order: exact on any row.
    /// From a cell at chord d, the next t cells lie within d ± t · `step` (the triangle
    /// inequality along the row), so the pass jumps over cells that are surely outside or
    /// surely inside, and tests one by one only near the radius: a few tests a row where
    /// the distance grows along the row, one per cell where it cannot be told.
    @inline(__always)
    func trace(_ cell: Int, row: Int, step: Double, _ body: (Int, Int) -> Void) {
      let first = start(of: row)
      // A little longer than the longest step, so that rounding in the bound cannot admit
      // a cell the direct test would classify otherwise.
      let reciprocal = 1 / (step * (1 + 1e-9) + 1e-15)
      var (index, lower, upper) = (0, -1, -1)
      while index < width {
        let squared = squaredChord(cell, first + index)
        let inside: Bool
        var span = 1
        if squared <= inner {
          inside = true
          span += Self.cells(spanning: innerChord - squared.squareRoot(), reciprocal: reciprocal, width: width)
        } else if squared >= outer {
          inside = false
          span += Self.cells(spanning: squared.squareRoot() - outerChord, reciprocal: reciprocal, width: width)
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
    /// most 1 / `reciprocal` between neighbours: a whole row when the row is one point (a
    /// pole).
    @inline(__always)
    static func cells(spanning room: Double, reciprocal: Double, width: Int) -> Int {
      guard room > 0 else { return 0 }
      // Truncation is the floor of a positive count.
      let count = room * reciprocal
      return count < Double(width) ? Int(count) : width
    }

    /// A range of the cells of row `row` holding every cell whose chord from cell `cell`
    /// is at most `chord` (empty when there is none): the exact pass's jumps, with one
    /// threshold and no test near it.
    func hull(around cell: Int, row: Int, chord: Double, step: Double) -> Range<Int> {
      let first = start(of: row)
      let reciprocal = 1 / (step * (1 + 1e-9) + 1e-15)
      var (index, lower, upper) = (0, -1, -1)
      while index < width {
        let distance = squaredChord(cell, first + index).squareRoot()
        if distance <= chord {
          let span = 1 + Self.cells(spanning: chord - distance, reciprocal: reciprocal, width: width)
          if lower < 0 { lower = index }
          upper = Swift.min(index + span, width)
          index = upper
        } else {
          index += 1 + Self.cells(spanning: distance - chord, reciprocal: reciprocal, width: width)
        }
      }
      return lower < 0 ? 0..<0 : lower..<upper
    }

    /// Whether the squared chord from every point within `reach` of cell `centre` to the
    /// cells `window` of row `row` is a convex sequence, with a margin that dwarfs the
    /// rounding of the unit vectors (about 1e-15): then the cells of `window` within the
    /// radius of such a point are one interval. The squared chord from p to the row's
    /// cells q has second differences −2 p·D with D = q(t+1) − 2 q(t) + q(t−1), and
    /// p·D ≤ c·D + |p − c|·|D| for the centre c.
    func isConvex(from centre: Int, reach: Double, along window: Range<Int>, row: Int) -> Bool {
      guard window.count > 2 else { return true }
      let first = start(of: row)
      let (cx, cy, cz) = (points[3 * centre], points[3 * centre + 1], points[3 * centre + 2])
      for t in (first + window.lowerBound + 1)..<(first + window.upperBound - 1) {
        let dx = points[3 * t + 3] - 2 * points[3 * t] + points[3 * t - 3]
        let dy = points[3 * t + 4] - 2 * points[3 * t + 1] + points[3 * t - 2]
        let dz = points[3 * t + 5] - 2 * points[3 * t + 2] + points[3 * t - 1]
        let bound = cx * dx + cy * dy + cz * dz + reach * (dx * dx + dy * dy + dz * dz).squareRoot()
        guard bound <= -1e-13 else { return false }
      }
      return true
    }

    /// Calls `body(i, lower, upper, nearest)` for each cell i of row `row`, with the cells
    /// `lower..<upper` of row `other` it finds within the radius (empty when
    /// `lower == upper`) and the cell it took for the nearest. It follows the nearest cell
    /// forward along `other` and moves the interval's ends by direct tests, so a row costs
    /// a few tests a cell; it is exact only where the set-up proved it or found it equal to
    /// `trace`.
    @inline(__always)
    func sweep(row: Int, other: Int, _ body: (_ i: Int, _ lower: Int, _ upper: Int, _ nearest: Int) -> Void) {
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
          body(i, nearest, nearest, nearest)
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
        body(i, lower, upper, nearest)
      }
    }
  }
}
