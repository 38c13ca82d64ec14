import NetCDF

/// A small NetCDF file held in memory, to be altered and written out once per fuzz input:
/// dimensions, global attributes, and variables with their attributes and every value.
public struct NetCDFDocument: Sendable {
  /// One variable: numeric values (any numeric type, as doubles) or `char` rows.
  public struct Variable: Sendable {
    public var name: String
    public var type: NCType
    public var dimensions: [String]
    public var attributes: [(name: String, value: NCAttribute)]
    public var values: [Double]
    public var rows: [String]
  }

  public var dimensions: [NCDimension]
  public var attributes: [(name: String, value: NCAttribute)]
  public var variables: [Variable]

  /// Reads all of `path`, keeping only the variables `keep` accepts.
  public init(reading path: String, keep: (String) -> Bool = { _ in true }) throws {
    let file = try NCFile.open(path)
    defer { file.close() }
    dimensions = file.dimensions
    attributes = file.globalAttributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    variables = []
    for variable in file.variables.values.sorted(by: { $0.id < $1.id }) where keep(variable.name) {
      guard variable.type != .string else { continue }
      let start = Array(repeating: 0, count: variable.shape.count)
      let isText = variable.type == .char
      variables.append(
        Variable(
          name: variable.name, type: variable.type, dimensions: variable.dimensions,
          attributes: variable.attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
          values: isText || variable.count == 0
            ? [] : try file.readRaw(variable.name, start: start, count: variable.shape),
          rows: isText && variable.count > 0
            ? try file.readStrings(variable.name, start: start, count: variable.shape) : []))
    }
  }

  /// Writes the document as a classic 64-bit-offset file (what WRF writes, and much faster
  /// to create than NetCDF-4). Values the stored type cannot hold make this throw; the
  /// caller treats that as an input it cannot build, not as a finding.
  public func write(to path: String, format: NCFormat = .classic64BitOffset) throws {
    let file = try NCFile.create(path, format: format)
    defer { file.close() }
    let lengths = Dictionary(dimensions.map { ($0.name, $0.length) }, uniquingKeysWith: { a, _ in a })
    for dimension in dimensions {
      try file.defineDimension(dimension.name, length: dimension.isUnlimited ? nil : dimension.length)
    }
    for (name, value) in attributes {
      try file.setAttribute(name, value, type: Self.storedType(value))
    }
    for variable in variables {
      try file.defineVariable(variable.name, type: variable.type, dimensions: variable.dimensions)
      for (name, value) in variable.attributes {
        // A fill value must have its variable's type; other numbers keep their own.
        let type = name == "_FillValue" ? variable.type : Self.storedType(value)
        try file.setAttribute(name, value, on: variable.name, type: type)
      }
    }
    try file.endDefinitions()
    for variable in variables {
      // The unlimited dimension's length is the number of records the values fill.
      var shape = variable.dimensions.map { lengths[$0] ?? 0 }
      let perRecord = shape.dropFirst().reduce(1, *)
      let isRecord = variable.dimensions.first.map { name in dimensions.contains { $0.name == name && $0.isUnlimited } }
      if isRecord == true, perRecord > 0 {
        shape[0] = (variable.type == .char ? variable.rows.count : variable.values.count / perRecord)
      }
      let count = shape.reduce(1, *)
      guard count > 0 else { continue }
      let start = Array(repeating: 0, count: shape.count)
      if variable.type == .char {
        try file.writeStrings(
          variable.name, start: start, count: shape, Array(variable.rows.prefix(count / max(shape.last ?? 1, 1))))
      } else if variable.values.count >= count, variable.type == .float {
        // As floats: libnetcdf's conversion from doubles refuses ±Inf and values beyond a
        // float (NC_ERANGE), which would skip exactly the inputs the plausibility screen
        // is for; Swift's conversion makes 1e300 an infinity, as a model's overflow would.
        try file.write(variable.name, start: start, count: shape, variable.values.prefix(count).map(Float.init))
      } else if variable.values.count >= count {
        try file.write(variable.name, start: start, count: shape, Array(variable.values.prefix(count)))
      }
    }
  }

  /// The NetCDF type a numeric attribute is stored as: integers as `int` when they fit,
  /// everything else as `double`.
  static func storedType(_ value: NCAttribute) -> NCType {
    if case .integers(let values) = value, values.allSatisfy({ Int32(exactly: $0) != nil }) { return .int }
    return .double
  }

  /// The index of the variable named `name`.
  public func index(of name: String) -> Int? { variables.firstIndex { $0.name == name } }
}
