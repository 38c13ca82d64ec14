import GridGeometry
import NetCDF

/// Builds variants of real NetCDF files for tests: the same file without some variables,
/// or with some values changed, written through libnetcdf like any model output.
public enum WRFFixture {
  /// Copies `source` to `destination`, leaving out `dropping`, replacing global attributes
  /// with `attributes`, passing char variables' rows through `strings(name, rows)` and every
  /// numeric variable's values through `transform(name, values)`. A variable named in
  /// `levels` (4-D, levels second) gets that many levels on a dimension of its own,
  /// `<name>_levels`, its highest level repeated or its top levels left out.
  public static func copy(
    _ source: String, to destination: String, dropping: Set<String> = [],
    attributes: [String: NCAttribute] = [:], format: NCFormat = .netcdf4, levels: [String: Int] = [:],
    strings: (String, [String]) -> [String] = { $1 },
    transform: (String, [Double]) -> [Double] = { $1 }
  ) throws {
    let input = try NCFile.open(source)
    defer { input.close() }
    let output = try NCFile.create(destination, format: format)
    defer { output.close() }
    for dimension in input.dimensions {
      try output.defineDimension(dimension.name, length: dimension.isUnlimited ? nil : dimension.length)
    }
    for (name, count) in levels.sorted(by: { $0.key < $1.key }) {
      try output.defineDimension("\(name)_levels", length: count)
    }
    let globals = input.globalAttributes.merging(attributes) { _, replacement in replacement }
    for (name, value) in globals.sorted(by: { $0.key < $1.key }) {
      try output.setAttribute(name, value)
    }
    let variables = input.variables.values.filter { !dropping.contains($0.name) && $0.type != .string }
      .sorted { $0.id < $1.id }
    for variable in variables {
      var dimensions = variable.dimensions
      if levels[variable.name] != nil, dimensions.count == 4 { dimensions[1] = "\(variable.name)_levels" }
      try output.defineVariable(variable.name, type: variable.type, dimensions: dimensions)
      for (name, value) in variable.attributes.sorted(by: { $0.key < $1.key }) {
        try output.setAttribute(name, value, on: variable.name, type: name == "_FillValue" ? variable.type : .double)
      }
    }
    try output.endDefinitions()
    for variable in variables where variable.count > 0 {
      let start = Array(repeating: 0, count: variable.shape.count)
      if variable.type == .char {
        let rows = try input.readStrings(variable.name, start: start, count: variable.shape)
        try output.writeStrings(variable.name, start: start, count: variable.shape, strings(variable.name, rows))
      } else {
        var values = transform(variable.name, try input.readRaw(variable.name, start: start, count: variable.shape))
        var shape = variable.shape
        if let count = levels[variable.name], shape.count == 4, shape[1] > 0 {
          let (plane, old) = (shape[2] * shape[3], shape[1])
          var moved: [Double] = []
          moved.reserveCapacity(shape[0] * count * plane)
          for time in 0..<shape[0] {
            for level in 0..<count {
              let first = (time * old + min(level, old - 1)) * plane
              moved += values[first..<(first + plane)]
            }
          }
          values = moved
          shape[1] = count
        }
        if variable.type == .float {
          // Written as floats, so that a test can store what libnetcdf's range-checked
          // conversion from doubles refuses: ±Inf in a float field.
          try output.write(variable.name, start: start, count: shape, values.map(Float.init))
        } else {
          try output.write(variable.name, start: start, count: shape, values)
        }
      }
    }
  }
}

extension WRFFixture {
  /// A WRF file's mass-point coordinates (XLAT/XLONG, with or without a Time dimension; the
  /// first time when there is one) as a grid.
  public static func grid(_ path: String) throws -> CurvilinearGrid {
    let file = try NCFile.open(path)
    defer { file.close() }
    let shape = try file.variable("XLAT").shape
    var count = shape
    if count.count == 3 { count[0] = 1 }
    let start = Array(repeating: 0, count: shape.count)
    return try CurvilinearGrid(
      width: shape[shape.count - 1], height: shape[shape.count - 2],
      latitudes: try file.readFloats("XLAT", start: start, count: count),
      longitudes: try file.readFloats("XLONG", start: start, count: count))
  }
}
