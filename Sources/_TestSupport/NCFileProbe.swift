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

  /// A variable's shape (dimension lengths, slowest first).
  public static func shape(_ path: String, _ variable: String) throws -> [Int] {
    let file = try NCFile.open(path)
    defer { file.close() }
    return try file.variable(variable).shape
  }

  /// A numeric global attribute, nil when absent or not a number.
  public static func globalNumber(_ path: String, _ name: String) throws -> Double? {
    let file = try NCFile.open(path)
    defer { file.close() }
    return file.globalAttributes[name]?.number
  }
}
