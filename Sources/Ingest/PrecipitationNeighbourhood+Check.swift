import Dispatch
import Foundation
import Synchronization

extension PrecipitationNeighbourhood {
  /// Rows whose set-up one task of the check runs: tasks are shared among the cores.
  static let setUpRows = 16

  /// The set-up of any grid: for each row, the rows it reaches, whether the sweep is exact
  /// on each (checked cell by cell against the exact pass), and its cells' exact runs as
  /// segments while the grid's stay within `limit`; each row's longest step; and whether
  /// the segments were kept. Rows are independent, so their checks share the cores.
  static func checkedSetUp(_ rows: Rows, limit: Int) -> (rows: [RowSetUp], steps: [Double], kept: Bool) {
    let height = rows.height
    let (candidates, steps) = candidateRows(rows)
    let tasks = (height + setUpRows - 1) / setUpRows
    let results = Mutex([[RowSetUp]](repeating: [], count: tasks))
    // The segments kept so far, or nil once they outgrew the limit: then no task keeps any.
    let total = Mutex<Int?>(0)
    DispatchQueue.concurrentPerform(iterations: tasks) { task in
      var found: [RowSetUp] = []
      for row in (task * setUpRows)..<Swift.min((task + 1) * setUpRows, height) {
        let keep = total.withLock { $0 != nil }
        var setUp = check(row: row, among: candidates[row], in: rows, steps: steps, keepingSegments: keep)
        total.withLock { kept in
          guard let sum = kept else { return }
          kept = sum + setUp.segments.count <= limit ? sum + setUp.segments.count : nil
        }
        if total.withLock({ $0 == nil }) { setUp.segments = [] }
        found.append(setUp)
      }
      results.withLock { $0[task] = found }
    }
    let kept = total.withLock { $0 != nil }
    return (results.withLock { $0.flatMap { $0 } }, steps, kept)
  }

  /// For each row, the rows that can hold a cell within the radius of one of its cells
  /// (a superset, from a lattice of unit vectors whose spacing is the radius's chord: two
  /// points within the radius are in the same or adjacent lattice boxes), and each row's
  /// longest step. Memory: one entry per occupied box and per row.
  private static func candidateRows(_ grid: Rows) -> (rows: [Range<Int>], steps: [Double]) {
    let (width, height) = (grid.width, grid.height)
    let edge = Rows.chord * (1 + 1e-6)
    // Boxes numbered along x, then y, then z, with a margin so that a neighbour's number is
    // the box's plus a fixed offset.
    let span = Int64((2 / edge).rounded(.up)) + 4
    func box(_ cell: Int) -> Int64 {
      let point = grid.point(cell)
      func index(_ coordinate: Double) -> Int64 { Int64((coordinate / edge).rounded(.down)) + span / 2 }
      return (index(point.z) * span + index(point.y)) * span + index(point.x)
    }
    let around = (-1...1).flatMap { dz in
      (-1...1).flatMap { dy in (-1...1).map { dx in (Int64(dz) * span + Int64(dy)) * span + Int64(dx) } }
    }
    var spans: [Int64: (lower: Int32, upper: Int32)] = [:]
    var steps = [Double](repeating: 0, count: height)
    for row in 0..<height {
      var previous: Int64?
      for cell in (row * width)..<((row + 1) * width) {
        let key = box(cell)
        guard key != previous else { continue }
        previous = key
        if let span = spans[key] {
          spans[key] = (Swift.min(span.lower, Int32(row)), Swift.max(span.upper, Int32(row)))
        } else {
          spans[key] = (Int32(row), Int32(row))
        }
      }
      steps[row] = grid.longestStep(row: row)
    }
    var rows: [Range<Int>] = []
    rows.reserveCapacity(height)
    for row in 0..<height {
      var (lower, upper) = (row, row)
      var previous: Int64?
      for cell in (row * width)..<((row + 1) * width) {
        let key = box(cell)
        guard key != previous else { continue }
        previous = key
        for offset in around {
          guard let rows = spans[key + offset] else { continue }
          (lower, upper) = (Swift.min(lower, Int(rows.lower)), Swift.max(upper, Int(rows.upper)))
        }
      }
      rows.append(lower..<(upper + 1))
    }
    return (rows, steps)
  }

  /// Cells of a row whose runs are proved together: one bound on their distance from a
  /// centre cell serves them all.
  static let blockCells = 64

  /// The rows `row` truly reaches among `candidates`, for each of them whether the sweep
  /// gives the exact pass's answer for every cell, and (when `keepingSegments`) the exact
  /// runs as segments.
  ///
  /// The sweep is proved exact for a block of the row's cells at once where it can be:
  /// every cell of the other row farther than the radius plus the block's reach from the
  /// block's centre is beyond the radius of all of them (the triangle inequality), so
  /// their runs lie in the hull of the nearer ones, the window; where the squared chord
  /// from each of them is convex along the window, the cells within the radius are one
  /// interval, and the sweep's ends, each tested by the definition with its outer
  /// neighbour, are that interval's. An empty answer is proved where the sweep's nearest
  /// cell lies in the window, is a local minimum and is surely beyond the radius. Every
  /// other cell is checked against the exact pass, whose runs it then keeps.
  private static func check(
    row: Int, among candidates: Range<Int>, in rows: Rows, steps: [Double], keepingSegments: Bool
  ) -> RowSetUp {
    let (width, start) = (rows.width, rows.start(of: row))
    var (lower, upper) = (row, row)
    var exact: [Bool] = []
    exact.reserveCapacity(candidates.count)
    // Each block's centre and reach: its farthest cell's chord, a little longer.
    let blocks = stride(from: 0, to: width, by: blockCells).map {
      first -> (cells: Range<Int>, centre: Int, reach: Double) in
      let cells = first..<Swift.min(first + blockCells, width)
      let centre = (cells.lowerBound + cells.upperBound) / 2
      let reach = cells.reduce(0.0) { Swift.max($0, rows.squaredChord(start + centre, start + $1)) }.squareRoot()
      return (cells, centre, reach * (1 + 1e-9) + 1e-15)
    }
    var windows = [Range<Int>](repeating: 0..<0, count: blocks.count)
    var answers = [(lower: Int, upper: Int, nearest: Int)](repeating: (0, 0, 0), count: width)
    var segments = SegmentBuilder()
    for other in candidates {
      var anyWindow = false
      for (index, block) in blocks.enumerated() {
        let chord = (Rows.outerChord + block.reach) * (1 + 1e-9)
        windows[index] = rows.hull(around: start + block.centre, row: other, chord: chord, step: steps[other])
        if !windows[index].isEmpty { anyWindow = true }
      }
      // No cell of the other row is near any cell of this one: the sweep finds nothing,
      // as the exact pass does.
      guard anyWindow else {
        exact.append(true)
        continue
      }
      rows.sweep(row: row, other: other) { i, from, to, nearest in answers[i] = (from, to, nearest) }
      var (agrees, reached) = (true, false)
      for (index, block) in blocks.enumerated() {
        let window = windows[index]
        let convex =
          window.isEmpty || rows.isConvex(from: start + block.centre, reach: block.reach, along: window, row: other)
        for i in block.cells {
          let (from, to, nearest) = answers[i]
          if convex && proved(from, to, nearest, cell: start + i, window: window, row: other, in: rows) {
            if from < to {
              reached = true
              if keepingSegments { segments.add(other: other, column: i, lower: from, upper: to) }
            }
            continue
          }
          var runs = 0
          rows.trace(start + i, row: other, step: steps[other]) { a, b in
            runs += 1
            if a != from || b != to { agrees = false }
            if keepingSegments { segments.add(other: other, column: i, lower: a, upper: b) }
          }
          if runs > 0 { reached = true }
          if runs > 1 || (runs == 0 && from != to) { agrees = false }
        }
      }
      exact.append(agrees)
      if reached { (lower, upper) = (Swift.min(lower, other), Swift.max(upper, other)) }
    }
    let reach = (lower - candidates.lowerBound)...(upper - candidates.lowerBound)
    return RowSetUp(lower: lower, upper: upper, swept: Array(exact[reach]), segments: segments.segments)
  }

  /// Whether the sweep's answer `from..<to` (its nearest cell `nearest`) for `cell` is
  /// proved exact in row `row`, given that the cells within the radius of `cell` lie in
  /// `window` and form one interval there.
  @inline(__always)
  private static func proved(
    _ from: Int, _ to: Int, _ nearest: Int, cell: Int, window: Range<Int>, row: Int, in rows: Rows
  ) -> Bool {
    // No cell of the other row is near: nothing is within the radius.
    if window.isEmpty { return from == to }
    // Its ends were tested by the definition, and so were the cells just outside them.
    if from < to { return true }
    guard window.contains(nearest) else { return false }
    // A local minimum of a convex sequence is its minimum (the sweep moved forward while
    // the chord shrank, so the next cell is farther); surely beyond the radius, with room
    // for rounding, so is every cell.
    let target = rows.start(of: row)
    let squared = rows.squaredChord(cell, target + nearest)
    guard squared >= Rows.outer else { return false }
    return nearest == window.lowerBound || rows.squaredChord(cell, target + nearest - 1) >= squared
  }

  /// Collects one row's exact runs as segments, row by row and within a row column by
  /// column: a run of cell i with the offsets of one of the last few segments, which
  /// ended at cell i, extends it, so a stretch of cells whose runs keep their offsets is
  /// one segment (or two, across a seam).
  struct SegmentBuilder {
    private(set) var segments: [Segment] = []

    /// The segments searched for one to extend.
    static let recent = 4

    /// Adds a segment as it is.
    mutating func append(_ segment: Segment) { segments.append(segment) }

    /// Adds cell `column`'s run `lower..<upper` of row `other`.
    mutating func add(other: Int, column: Int, lower: Int, upper: Int) {
      let (row, cell, start, end) = (Int32(other), Int32(column), Int32(lower - column), Int32(upper - column))
      for index in segments.indices.reversed().prefix(Self.recent) {
        let segment = segments[index]
        guard segment.end == cell, segment.other == row, segment.lower == start, segment.upper == end else { continue }
        segments[index].end += 1
        return
      }
      segments.append(Segment(other: row, first: cell, end: cell + 1, lower: start, upper: end))
    }
  }
}
