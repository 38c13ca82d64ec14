import GridGeometry
import UTCTime

/// The cell coordinates of one input file (or one step of it) as read, with the names its
/// errors give them: so that every convention refuses a bad or changing grid in the same
/// words, naming the file, the variables and the first bad cell.
struct InputGrid {
  /// The file the coordinates come from.
  let path: String
  /// The coordinate variables as the convention names them, e.g. "XLAT/XLONG".
  let variables: String
  let width: Int
  let height: Int
  let latitudes: [Float]
  let longitudes: [Float]

  /// How far, in degrees, a coordinate may move between the files or steps of one run:
  /// a rounding of the stored value, about 10 m on the ground, not a different grid.
  static let tolerance: Float = 1e-4

  /// The grid, checked by `CurvilinearGrid.validate()`; its refusal names this file and
  /// the variables.
  func validated() throws(IngestError) -> CurvilinearGrid {
    do {
      let grid = try CurvilinearGrid(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
      try grid.validate()
      return grid
    } catch {
      throw IngestError(path: path, variable: variables, reason: error.description)
    }
  }

  /// Throws, naming this file, `step` (when the coordinates vary by step) and the first
  /// cell that moved, when these coordinates are not those of `reference` (the run's first
  /// grid) up to `tolerance`. Longitudes are compared modulo 360°, so −180 and 180 are the
  /// same.
  func requireSame(as reference: InputGrid, step: StepSource? = nil) throws(IngestError) {
    let place = step.map { " at step \($0.index) (\(UTC.iso8601($0.time)))" } ?? ""
    guard width == reference.width, height == reference.height else {
      throw IngestError(
        path: path, variable: variables,
        reason:
          "the grid is \(width)×\(height)\(place) but \(reference.width)×\(reference.height) in \(reference.path); ingest one grid at a time"
      )
    }
    for cell in 0..<latitudes.count {
      let dLatitude = abs(latitudes[cell] - reference.latitudes[cell])
      var dLongitude = abs(longitudes[cell] - reference.longitudes[cell]).truncatingRemainder(dividingBy: 360)
      dLongitude = min(dLongitude, 360 - dLongitude)
      // Written so that NaN counts as moved.
      guard !(dLatitude <= Self.tolerance && dLongitude <= Self.tolerance) else { continue }
      throw IngestError(
        path: path, variable: variables,
        reason:
          "the grid changes within the run:\(place) cell (\(cell % width), \(cell / width)) is at latitude \(latitudes[cell]), longitude \(longitudes[cell]) but at \(reference.latitudes[cell]), \(reference.longitudes[cell]) in \(reference.path); ingest one grid at a time"
      )
    }
  }
}
