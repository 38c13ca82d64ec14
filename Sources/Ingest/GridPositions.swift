import Foundation
import UTCTime

/// The positions a run's grid takes, decided step by step: the same place as a position
/// seen before, a move by whole cells (a WRF vortex-following nest), or an error.
///
/// - A step whose every cell lies within `InputGrid.tolerance` of a cell size of the same
///   cell of a known position uses that position.
/// - A step of the same shape whose cells lie, within the tolerance, on the cells of the
///   previous step's position shifted by whole cells is a new position (unless it is one
///   seen before), `shift` cells from the previous one.
/// - Anything else is refused, naming the file, the step and the first cell that is
///   neither: a different shape, NaN, a shift by a fraction of a cell, scrambled cells.
///
/// Positions are numbered in order of first use, as a cube numbers them. A position's
/// coordinates are those most of its steps share (the earliest of equally common ones):
/// a first step slightly off from the rest stores the rest's coordinates.
struct GridPositions {
  /// One position of the grid.
  struct Position {
    /// The coordinates first seen at this position; steps are compared with these.
    let first: InputGrid
    /// `first`'s cell sizes, metres, once a comparison has needed them (`sizes(of:)`): a
    /// grid whose every step has the same coordinates never does.
    var sizes: [Float]?
    /// `first`'s key (`key(_:)`), so that a step with the same coordinates is not hashed.
    let firstKey: Int
    /// Where this position lies relative to position 0: its cell (i, j) is at the place
    /// of position 0's cell (i + offset.i, j + offset.j), extended beyond its edges.
    let offset: InputGrid.Shift
    /// The first step (index into the run's steps) at this position.
    let firstStep: Int
    /// The coordinates most of its steps share so far, and how many do.
    var common: InputGrid
    var commonCount: Int
    /// Each distinct set of coordinates seen, by its hash: the step it was first seen
    /// at and how many steps have it.
    var variants: [Int: (step: Int, count: Int)]
  }

  private(set) var positions: [Position] = []
  /// Each step's position, in step order.
  private(set) var stepPositions: [Int] = []

  /// Places the next step's grid; `step` names it in errors.
  mutating func add(_ grid: InputGrid, step: StepSource) throws(IngestError) {
    let index = stepPositions.count
    guard let previous = stepPositions.last.map({ positions[$0] }) else {
      _ = try grid.validated()
      positions.append(Self.position(grid, offset: .zero, step: index))
      stepPositions.append(0)
      return
    }
    try grid.requireShape(of: previous.first, step: step)
    try grid.requireFinite(step: step)
    // The previous step's position first: a grid that does not move matches it at once.
    let candidates = [stepPositions[index - 1]] + positions.indices.reversed().filter { $0 != stepPositions[index - 1] }
    for candidate in candidates {
      let first = positions[candidate].first
      // The same coordinates, the usual case, need neither cell sizes nor a hash. Bit for
      // bit, so that the key is `first`'s (0 and −0 are equal but hash apart).
      if Self.sameBits(grid.latitudes, first.latitudes), Self.sameBits(grid.longitudes, first.longitudes) {
        record(grid, at: candidate, step: index, key: positions[candidate].firstKey)
        return
      }
      if matches(grid, candidate) {
        record(grid, at: candidate, step: index, key: Self.key(grid))
        return
      }
    }
    // A move is looked for from the previous step's position only: the search costs a
    // pass over the position's cells per sample, and a nest moves from where it was.
    let sizes = sizes(of: stepPositions[index - 1])
    let reference = positions[stepPositions[index - 1]]
    let found = Self.shifts(of: grid, from: reference, sizes: sizes)
    var failed: (offset: InputGrid.Offset, shift: InputGrid.Shift)?
    for shift in found.shifts {
      let comparison = grid.compare(with: reference.first, sizes: sizes, shift: shift)
      guard let outside = comparison.outside else {
        _ = try grid.validated(step: step)
        let offset = InputGrid.Shift(i: reference.offset.i + shift.i, j: reference.offset.j + shift.j)
        positions.append(Self.position(grid, offset: offset, step: index))
        stepPositions.append(positions.count - 1)
        return
      }
      if failed == nil { failed = (outside, shift) }
    }
    if let failed {
      // Most cells agree with a move by whole cells, but not this one: scrambled cells.
      throw IngestError(
        path: grid.path, variable: grid.variables,
        reason:
          "the grid changes within the run\(InputGrid.at(step)): cell \(grid.cell(failed.offset.cell)) is at latitude \(failed.offset.latitude), longitude \(failed.offset.longitude), \(InputGrid.percent(failed.offset.fraction)) of a cell from \(failed.offset.otherLatitude), \(failed.offset.otherLongitude), where a move by \(failed.shift.i) columns and \(failed.shift.j) rows from the grid of \(reference.first.path) (step \(reference.firstStep) of the run) puts it: neither the same grid nor a move by whole cells"
      )
    }
    let offset = found.nearest ?? grid.compare(with: reference.first, sizes: sizes).outside
    let cell =
      offset.map { grid.describe($0, in: reference.first, step: reference.firstStep) }
      ?? "no cell overlaps the previous step's grid"
    throw IngestError(
      path: grid.path, variable: grid.variables,
      reason:
        "the grid changes within the run\(InputGrid.at(step)): \(cell); neither the same grid (within \(InputGrid.percent(InputGrid.tolerance)) of a cell) nor a move by whole cells of the previous step's"
    )
  }

  /// Each position's coordinates (those most of its steps share), the largest offset of
  /// any step from its position's coordinates with the step's source, and a refusal when
  /// that exceeds the tolerance. `grid(step)` reads a step's coordinates again; only
  /// steps whose coordinates differ from the chosen ones are read.
  func finished(
    steps: [StepSource], grid: (Int) throws(IngestError) -> InputGrid
  ) throws(IngestError) -> (grids: [InputGrid], warning: String?) {
    var worst: (offset: InputGrid.Offset, step: Int, grid: InputGrid, position: InputGrid)?
    for position in positions where position.variants.count > 1 {
      let common = position.common
      let sizes = position.common.cellSizes()
      let chosen = Self.key(common)
      // In step order, so that the warning and any refusal name the same step every time.
      for (key, variant) in position.variants.sorted(by: { $0.value.step < $1.value.step }) where key != chosen {
        let other = try grid(variant.step)
        let comparison = other.compare(with: common, sizes: sizes)
        if let outside = comparison.outside {
          throw IngestError(
            path: other.path, variable: other.variables,
            reason:
              "the grid changes within the run\(InputGrid.at(steps[variant.step])): \(other.describe(outside, in: common)), where most steps at this position have it: beyond the \(InputGrid.percent(InputGrid.tolerance)) of a cell that makes steps the same grid"
          )
        }
        if let largest = comparison.largest, largest.fraction > worst?.offset.fraction ?? -1 {
          worst = (largest, variant.step, other, common)
        }
      }
    }
    let warning = worst.flatMap { worst -> String? in
      guard worst.offset.fraction > 0 else { return nil }
      return worst.grid.toleranceWarning(
        worst.offset, from: worst.position, step: steps[worst.step],
        stored: "the coordinates most steps share")
    }
    return (positions.map(\.common), warning)
  }

  /// Whether every cell of `grid` lies within the tolerance of the same cell of position
  /// `index`.
  private mutating func matches(_ grid: InputGrid, _ index: Int) -> Bool {
    let (first, sizes) = (positions[index].first, sizes(of: index))
    // A few cells first: a moved grid fails at once, without a pass over every cell.
    let corners = [0, grid.width - 1, grid.latitudes.count - grid.width, grid.latitudes.count - 1]
    for cell in corners where !(grid.fraction(cell, from: first, cell, size: sizes[cell]) <= InputGrid.tolerance) {
      return false
    }
    return grid.compare(with: first, sizes: sizes).outside == nil
  }

  /// Whether two arrays hold the same bits.
  private static func sameBits(_ a: [Float], _ b: [Float]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { a in
      b.withUnsafeBytes { b in
        guard let first = a.baseAddress, let second = b.baseAddress else { return a.count == b.count }
        return memcmp(first, second, a.count) == 0
      }
    }
  }

  /// Position `index`'s cell sizes, made when first needed.
  private mutating func sizes(of index: Int) -> [Float] {
    if let sizes = positions[index].sizes { return sizes }
    let sizes = positions[index].first.cellSizes()
    positions[index].sizes = sizes
    return sizes
  }

  /// The whole-cell shifts that put sample cells of `grid` within the tolerance of cells
  /// of `position`, most voted first, found by locating 25 sample cells (a 5 × 5 lattice
  /// across the grid) among the position's cells; and the sample cell nearest to a cell
  /// of the position when none is within the tolerance (for the error), nil when none
  /// lies within a cell of it.
  private static func shifts(
    of grid: InputGrid, from position: Position, sizes: [Float]
  ) -> (
    shifts: [InputGrid.Shift], nearest: InputGrid.Offset?
  ) {
    let reference = position.first
    var nearest: InputGrid.Offset?
    var votes: [InputGrid.Shift: Int] = [:]
    for sj in 0..<5 {
      for si in 0..<5 {
        let (i, j) = ((grid.width - 1) * si / 4, (grid.height - 1) * sj / 4)
        let cell = j * grid.width + i
        guard let other = nearestCell(grid.latitudes[cell], grid.longitudes[cell], in: reference) else { continue }
        let fraction = grid.fraction(cell, from: reference, other, size: sizes[other])
        if fraction <= InputGrid.tolerance {
          votes[InputGrid.Shift(i: other % reference.width - i, j: other / reference.width - j), default: 0] += 1
        } else if fraction <= 1, fraction < nearest?.fraction ?? .infinity {
          nearest = InputGrid.Offset(
            cell: cell, fraction: fraction, latitude: grid.latitudes[cell], longitude: grid.longitudes[cell],
            otherLatitude: reference.latitudes[other], otherLongitude: reference.longitudes[other])
        }
      }
    }
    let ranked = votes.sorted { ($0.value, $1.key.i, $1.key.j) > ($1.value, $0.key.i, $0.key.j) }.map(\.key)
    return (ranked, ranked.isEmpty ? nearest : nil)
  }

  /// The cell of `grid` nearest to a point, by brute force over a flat approximation
  /// (exact enough to rank the cells near the point).
  private static func nearestCell(_ latitude: Float, _ longitude: Float, in grid: InputGrid) -> Int? {
    let scale = Float(cos(Double(latitude) * .pi / 180))
    var best: (cell: Int, squared: Float)?
    for cell in 0..<grid.latitudes.count {
      let dLatitude = grid.latitudes[cell] - latitude
      var dLongitude = abs(grid.longitudes[cell] - longitude).truncatingRemainder(dividingBy: 360)
      dLongitude = min(dLongitude, 360 - dLongitude) * scale
      let squared = dLatitude * dLatitude + dLongitude * dLongitude
      if squared < best?.squared ?? .infinity { best = (cell, squared) }
    }
    return best?.cell
  }

  /// Counts `grid` (whose `key` is given) as a step at position `index`.
  private mutating func record(_ grid: InputGrid, at index: Int, step: Int, key: Int) {
    stepPositions.append(index)
    var variant = positions[index].variants[key] ?? (step, 0)
    variant.count += 1
    positions[index].variants[key] = variant
    if variant.count > positions[index].commonCount {
      positions[index].common = grid
      positions[index].commonCount = variant.count
    }
  }

  private static func position(_ grid: InputGrid, offset: InputGrid.Shift, step: Int) -> Position {
    let key = key(grid)
    return Position(
      first: grid, sizes: nil, firstKey: key, offset: offset, firstStep: step, common: grid, commonCount: 1,
      variants: [key: (step, 1)])
  }

  /// The coordinates' identity: equal coordinates have equal keys (and unequal ones, but
  /// for a 64-bit collision, unequal keys).
  private static func key(_ grid: InputGrid) -> Int {
    var hasher = Hasher()
    for value in grid.latitudes { hasher.combine(value.bitPattern) }
    for value in grid.longitudes { hasher.combine(value.bitPattern) }
    return hasher.finalize()
  }
}
