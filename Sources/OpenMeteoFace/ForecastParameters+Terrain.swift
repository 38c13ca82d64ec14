import FaceKit
import PointQuery

extension ForecastParameters {
  /// `/v1/forecast`'s cell selection when none is given: Open-Meteo's default, `land`. A
  /// cube without a land mask answers from the nearest cell, as before terrain was stored.
  package static let defaultCellSelection = CellSelection.land
  /// The elevations accepted, metres: the lowest and highest ground on Earth with room to
  /// spare (the heights a cube may hold).
  package static let elevationRange: ClosedRange<Double> = -1_000...9_000

  /// `elevation`: one height in metres per location (a list, as the coordinates), or `nan`
  /// for no correction; nil for every location when absent.
  package static func elevations(_ query: QueryParameters, count: Int) throws(FaceError) -> [Double?] {
    guard let items = query.list("elevation") else { return Array(repeating: nil, count: count) }
    let expected = "metres, e.g. 120, or nan for no correction, one per location separated by commas"
    guard items.count == count else {
      throw FaceError.parameter(
        "elevation", "has \(items.count) values for \(count) locations; give \(expected)")
    }
    return try items.map { item throws(FaceError) -> Double? in
      if item.lowercased() == "nan" { return nil }
      return try QueryParameters.number(
        String(item), name: "elevation", in: elevationRange, expected: expected)
    }
  }

  /// `cell_selection`: `land` (the default), `sea` or `nearest`.
  package static func cellSelection(_ query: QueryParameters) throws(FaceError) -> CellSelection {
    try query.choice("cell_selection", default: defaultCellSelection)
  }
}
