import NetCDF

/// Reads the fields of one output step from the files the scan left open (`OpenInputs`).
final class WRFFieldReader: FieldSource, Sendable {
  let width: Int
  let height: Int
  /// The scan's open files, shared so that no file is opened twice.
  private let inputs: OpenInputs

  init(width: Int, height: Int, inputs: OpenInputs) {
    self.width = width
    self.height = height
    self.inputs = inputs
  }

  /// Rows `rows` of a 2-D field (`south_north × west_east`) at a step, with or without a
  /// Time dimension.
  func field(_ name: String, rows: Range<Int>, at step: StepSource) throws(IngestError) -> [Double] {
    let file = try open(step.path)
    return try readingInput(name, from: step.path) { () throws -> [Double] in
      let variable = try file.variable(name)
      let shape = variable.shape
      guard shape.suffix(2) == [height, width] else {
        throw IngestError(
          path: step.path, variable: name,
          reason: "expected (south_north, west_east) = (\(height), \(width)), found \(variable.dimensions) = \(shape)")
      }
      switch (variable.dimensions.first, shape.count) {
      case ("Time", 3):
        return try file.readUnpacked(
          name, start: [step.index, rows.lowerBound, 0], count: [1, rows.count, width])
      case (_, 2):
        return try file.readUnpacked(name, start: [rows.lowerBound, 0], count: [rows.count, width])
      default:
        throw IngestError(
          path: step.path, variable: name,
          reason: "expected a 2-D surface field, found dimensions \(variable.dimensions)")
      }
    }
  }

  /// Levels of rows `rows` of a `(Time, bottom_top, gridRows, columns)` field at a step,
  /// level by level.
  func levels(
    _ name: String, _ levels: Range<Int>?, rows: Range<Int>, of gridRows: Int, columns: Int, at step: StepSource
  ) throws(IngestError) -> [Double] {
    let file = try open(step.path)
    return try readingInput(name, from: step.path) { () throws -> [Double] in
      let variable = try file.variable(name)
      guard variable.shape.count == 4, variable.dimensions[0] == "Time",
        variable.shape.suffix(2) == [gridRows, columns]
      else {
        throw IngestError(
          path: step.path, variable: name,
          reason:
            "expected (Time, bottom_top, \(gridRows), \(columns)), found \(variable.dimensions) = \(variable.shape)")
      }
      // Fields are combined level by level (cloud layers from CLDFRA and P + PB, the lifted
      // index from P, PB, T and QVAPOR), so each must be on the vertical dimension WRF puts
      // it on: one dimension has one length in a file, and the levels then line up.
      let vertical = Self.verticalDimension(of: name)
      guard variable.dimensions[1] == vertical else {
        throw IngestError(
          path: step.path, variable: name,
          reason:
            "expected its levels on \(vertical), as WRF writes it, found \(variable.dimensions[1]) (\(variable.shape[1]) levels): it would not line up level by level with the fields it is combined with"
        )
      }
      let range = (levels ?? 0..<variable.shape[1]).clamped(to: 0..<variable.shape[1])
      guard !range.isEmpty else {
        throw IngestError(path: step.path, variable: name, reason: "has no levels")
      }
      return try file.readUnpacked(
        name, start: [step.index, range.lowerBound, rows.lowerBound, 0], count: [1, range.count, rows.count, columns])
    }
  }

  /// The vertical dimension of a 3-D field as WRF writes it: the staggered interfaces for
  /// the geopotential and the vertical wind, the mass levels for every other.
  static func verticalDimension(of name: String) -> String {
    ["PH", "PHB", "W"].contains(name) ? "bottom_top_stag" : "bottom_top"
  }

  private func open(_ path: String) throws(IngestError) -> NCFile {
    try inputs.file(path)
  }
}
