import GridGeometry
import UTCTime

/// The cell coordinates of one input file (or one step of it) as read, with the names its
/// errors give them: so that every convention refuses a bad or changing grid in the same
/// words, naming the file, the step, the variables and the first bad cell.
struct InputGrid {
  /// The file the coordinates come from.
  let path: String
  /// The coordinate variables as the convention names them, e.g. "XLAT/XLONG".
  let variables: String
  let width: Int
  let height: Int
  let latitudes: [Float]
  let longitudes: [Float]

  /// How far, as a fraction of the local cell size (great circle), a cell may lie from
  /// the same cell of another step or file and still be the same place: real WRF files
  /// show a first step off by up to 7 % of a cell, while a move shifts by whole cells
  /// and a different grid by more.
  static let tolerance = 0.1

  /// A whole-cell displacement: cell (i, j) of one grid lies where cell (i + i, j + j)
  /// of another does.
  struct Shift: Equatable, Hashable {
    var i: Int
    var j: Int

    static let zero = Shift(i: 0, j: 0)
  }

  /// Where one cell lies relative to the cell it is compared with.
  struct Offset {
    /// The cell, index in the grid compared.
    let cell: Int
    /// The great-circle distance as a fraction of the local cell size.
    let fraction: Double
    let latitude: Float
    let longitude: Float
    /// The other grid's coordinates of the cell compared with.
    let otherLatitude: Float
    let otherLongitude: Float
  }

  /// The outcome of comparing two grids cell by cell.
  struct Comparison {
    /// The overlapping cell farthest from its counterpart, nil without overlap.
    var largest: Offset?
    /// The first cell beyond `tolerance`, when there is one (the comparison stops there).
    var outside: Offset?
    /// Overlapping cells compared.
    var compared = 0
  }

  /// The grid, checked by `CurvilinearGrid.validate()`; its refusal names this file, the
  /// variables and, when given, the step.
  func validated(step: StepSource? = nil) throws(IngestError) -> CurvilinearGrid {
    do {
      let grid = try CurvilinearGrid(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
      try grid.validate()
      return grid
    } catch {
      let place = step.map { "at step \($0.index) (\(UTC.iso8601($0.time))): " } ?? ""
      throw IngestError(path: path, variable: variables, reason: place + error.description)
    }
  }

  /// Each cell's size in metres: the shorter of its great-circle distances to its
  /// neighbours along the rows and along the columns (the previous one at the last
  /// column or row), so that a tolerance in cells is one on the ground.
  func cellSizes() -> [Float] {
    var sizes = [Float](repeating: .infinity, count: width * height)
    for j in 0..<height {
      for i in 0..<width {
        let cell = j * width + i
        var size = Double.infinity
        if width > 1 {
          size = min(size, distance(cell, j * width + (i + 1 < width ? i + 1 : i - 1)))
        }
        if height > 1 {
          size = min(size, distance(cell, (j + 1 < height ? j + 1 : j - 1) * width + i))
        }
        sizes[cell] = Float(size)
      }
    }
    return sizes
  }

  /// Compares every cell (i, j) of this grid with cell (i + shift.i, j + shift.j) of
  /// `reference` where that exists, in fractions of `sizes` (the reference's cell sizes),
  /// stopping at the first cell beyond `tolerance`. NaN counts as beyond.
  func compare(with reference: InputGrid, sizes: [Float], shift: Shift = .zero) -> Comparison {
    var result = Comparison()
    let (west, east) = (max(0, -shift.i), min(width, reference.width - shift.i))
    let (south, north) = (max(0, -shift.j), min(height, reference.height - shift.j))
    guard west < east, south < north else { return result }
    let (columns, rows) = (west..<east, south..<north)
    for j in rows {
      for i in columns {
        let cell = j * width + i
        let other = (j + shift.j) * reference.width + i + shift.i
        result.compared += 1
        let fraction = self.fraction(cell, from: reference, other, size: sizes[other])
        // Identical coordinates, the usual case, need no offset recorded beyond the first.
        if fraction == 0 {
          if result.largest == nil { result.largest = Offset(cell, 0, self, reference, other) }
          continue
        }
        let offset = Offset(cell, fraction, self, reference, other)
        // Written so that NaN counts as beyond.
        guard fraction <= Self.tolerance else {
          result.outside = offset
          result.largest = offset
          return result
        }
        if fraction > result.largest?.fraction ?? -1 { result.largest = offset }
      }
    }
    return result
  }

  /// How far `cell` lies from `reference`'s cell `other`, as a fraction of `size`
  /// (metres); 0 without trigonometry when the coordinates are identical.
  func fraction(_ cell: Int, from reference: InputGrid, _ other: Int, size: Float) -> Double {
    let (latitude, longitude) = (latitudes[cell], longitudes[cell])
    let (otherLatitude, otherLongitude) = (reference.latitudes[other], reference.longitudes[other])
    if latitude == otherLatitude, longitude == otherLongitude { return 0 }
    return GreatCircle.distance(
      latitude1: Double(latitude), longitude1: Double(longitude), latitude2: Double(otherLatitude),
      longitude2: Double(otherLongitude)) / Double(size)
  }

  /// The first cell whose latitude or longitude is not finite, as an error naming it.
  func requireFinite(step: StepSource?) throws(IngestError) {
    for cell in 0..<latitudes.count where !(latitudes[cell].isFinite && longitudes[cell].isFinite) {
      throw IngestError(
        path: path, variable: variables,
        reason:
          "cell \(self.cell(cell))\(Self.at(step)) is at latitude \(latitudes[cell]), longitude \(longitudes[cell]): coordinates must be numbers"
      )
    }
  }

  /// Throws, naming this file, `step` and the grid sizes, when this grid's shape is not
  /// `reference`'s.
  func requireShape(of reference: InputGrid, step: StepSource?) throws(IngestError) {
    guard width != reference.width || height != reference.height else { return }
    throw IngestError(
      path: path, variable: variables,
      reason:
        "the grid is \(width)×\(height)\(Self.at(step)) but \(reference.width)×\(reference.height) in \(reference.path); ingest one grid at a time"
    )
  }

  /// Throws, naming this file, `step` (when the coordinates vary by step) and the first
  /// cell that moved, when these coordinates are not those of `reference` (the run's first
  /// grid, whose cell sizes are `sizes`) within `tolerance` of a cell; returns the largest
  /// offset otherwise. For conventions whose grid never moves (MM5, CF).
  func requireSame(
    as reference: InputGrid, sizes: [Float], step: StepSource? = nil
  ) throws(IngestError) -> Offset? {
    try requireShape(of: reference, step: step)
    let comparison = compare(with: reference, sizes: sizes)
    if let outside = comparison.outside {
      throw IngestError(
        path: path, variable: variables,
        reason:
          "the grid changes within the run\(Self.at(step)): \(describe(outside, in: reference)); ingest one grid at a time"
      )
    }
    return comparison.largest
  }

  /// "cell (i, j) is at latitude …, longitude … but at …, … in FILE (x % of a cell away)",
  /// with "at step N of the run" after FILE when `step` is given.
  func describe(_ offset: Offset, in reference: InputGrid, step: Int? = nil) -> String {
    let when = step.map { " at step \($0) of the run" } ?? ""
    return
      "cell \(cell(offset.cell)) is at latitude \(offset.latitude), longitude \(offset.longitude) but at \(offset.otherLatitude), \(offset.otherLongitude) in \(reference.path)\(when) (\(Self.percent(offset.fraction)) of a cell away)"
  }

  /// The warning that this grid (at `step`, when its coordinates vary by step) lies
  /// within the tolerance of `reference` but not on it: the largest offset in degrees and
  /// in cells, and which coordinates are stored (`stored`).
  func toleranceWarning(_ offset: Offset, from reference: InputGrid, step: StepSource?, stored: String) -> String {
    let latitude = abs(offset.latitude - offset.otherLatitude)
    let longitude = abs(offset.longitude - offset.otherLongitude)
    return
      "\(path): \(variables)\(Self.at(step)) are off by up to \(latitude)° latitude and \(longitude)° longitude (cell \(cell(offset.cell)), \(Self.percent(offset.fraction)) of a cell) from those of \(reference.path): within the \(Self.percent(Self.tolerance)) tolerance, the same grid; \(stored) are stored"
  }

  /// "(i, j)" of a cell index.
  func cell(_ index: Int) -> String {
    "(\(index % max(width, 1)), \(index / max(width, 1)))"
  }

  /// " at step N (time)" naming a step within its file, or nothing without one.
  static func at(_ step: StepSource?) -> String {
    step.map { " at step \($0.index) (\(UTC.iso8601($0.time)))" } ?? ""
  }

  /// A fraction as a percentage with one decimal, "7.2 %"; "NaN %" stays readable.
  static func percent(_ fraction: Double) -> String {
    guard fraction.isFinite else { return "\(fraction * 100) %" }
    return "\((fraction * 1000).rounded() / 10) %"
  }

  private func distance(_ a: Int, _ b: Int) -> Double {
    GreatCircle.distance(
      latitude1: Double(latitudes[a]), longitude1: Double(longitudes[a]), latitude2: Double(latitudes[b]),
      longitude2: Double(longitudes[b]))
  }
}

extension InputGrid.Offset {
  fileprivate init(_ cell: Int, _ fraction: Double, _ grid: InputGrid, _ reference: InputGrid, _ other: Int) {
    self.init(
      cell: cell, fraction: fraction, latitude: grid.latitudes[cell], longitude: grid.longitudes[cell],
      otherLatitude: reference.latitudes[other], otherLongitude: reference.longitudes[other])
  }
}
