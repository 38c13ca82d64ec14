import NetCDF

/// One raw value from a NetCDF file, for tests that compare output against the source.
public enum NCFileProbe {
  /// The value at flat `index` of the whole variable, without CF unpacking.
  public static func value(_ path: String, _ variable: String, index: Int) throws -> Double {
    try values(path, variable)[index]
  }

  /// The whole variable in the file's order (last dimension fastest), without CF unpacking.
  public static func values(_ path: String, _ variable: String) throws -> [Double] {
    let file = try NCFile.open(path)
    defer { file.close() }
    let shape = try file.variable(variable).shape
    return try file.readRaw(variable, start: Array(repeating: 0, count: shape.count), count: shape)
  }
}
