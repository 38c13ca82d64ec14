import CubeFormat

/// The positions of a grid that moves within a run (a WRF vortex-following nest), and
/// the position each step uses.
///
/// A nest's data stay indexed by its own cells: the value at step t of cell c is at the
/// place that step's position gives c. Positions are whole-cell shifts of one another,
/// so a place's cell at one step follows from its cell at another by the difference of
/// the two positions' offsets.
struct GridMotion: Sendable {
  /// One position: its coordinates, its terrain (read at its first step: HGT and the
  /// land mask move with the nest) and where it lies relative to position 0.
  struct Position: Sendable {
    let latitudes: [Float]
    let longitudes: [Float]
    let terrain: CubeTerrain?
    /// Cell (i, j) here is at the place of position 0's cell (i + offset.i, j + offset.j).
    let offset: InputGrid.Shift
  }

  let width: Int
  let height: Int
  /// Numbered in order of first use; position 0 is the plan's own grid.
  let positions: [Position]
  /// Each step's position.
  let stepPositions: [Int]

  /// How many cells the place of a cell at `step` is from the same cell at `earlier`:
  /// the place of cell (i, j) at `step` is cell (i + shift.i, j + shift.j) at `earlier`.
  func shift(from earlier: Int, to step: Int) -> InputGrid.Shift {
    let (now, before) = (positions[stepPositions[step]].offset, positions[stepPositions[earlier]].offset)
    return InputGrid.Shift(i: now.i - before.i, j: now.j - before.j)
  }

  /// The rows of step `earlier` that hold the places of rows `rows` at step `step`,
  /// clipped to the grid (empty when none does).
  func earlierRows(_ rows: Range<Int>, of earlier: Int, at step: Int) -> Range<Int> {
    let shift = shift(from: earlier, to: step).j
    let lower = min(max(rows.lowerBound + shift, 0), height)
    return lower..<max(lower, min(rows.upperBound + shift, height))
  }

  /// `values` of step `earlier` over its rows `read` (`earlierRows(rows, …)`), re-indexed
  /// by the cells of rows `rows` at step `step`: each cell gets the value at its own
  /// place, NaN where that place was outside the grid at `earlier` (the leading edge of a
  /// move).
  func atPlaces(_ values: [Double], rows read: Range<Int>, of earlier: Int, at step: Int, rows: Range<Int>) -> [Double]
  {
    let shift = shift(from: earlier, to: step)
    guard shift != .zero else { return values }
    var placed = [Double](repeating: .nan, count: width * rows.count)
    let (west, east) = (max(0, -shift.i), min(width, width - shift.i))
    // Rows whose place at `earlier` is among the rows read (which are inside the grid).
    let (south, north) = (
      max(rows.lowerBound, read.lowerBound - shift.j), min(rows.upperBound, read.upperBound - shift.j)
    )
    guard west < east, south < north else { return placed }
    for j in south..<north {
      let from = (j + shift.j - read.lowerBound) * width + shift.i
      let to = (j - rows.lowerBound) * width
      for i in west..<east { placed[to + i] = values[from + i] }
    }
    return placed
  }

  /// The cells of step `step` whose place was outside the grid at `earlier`.
  func leadingEdge(from earlier: Int, to step: Int) -> Int {
    let shift = shift(from: earlier, to: step)
    let overlap = max(0, width - abs(shift.i)) * max(0, height - abs(shift.j))
    return width * height - overlap
  }
}
