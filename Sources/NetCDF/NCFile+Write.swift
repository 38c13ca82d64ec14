import CNetCDF

/// The on-disk format of a file being created.
public enum NCFormat: Sendable {
  /// NetCDF-4 (HDF5 storage), what newer WRF builds write with `io_form=11`.
  case netcdf4
  /// Classic 64-bit-offset (CDF-2), what WRF writes by default.
  case classic64BitOffset
  /// The original classic format (CDF-1, 32-bit offsets), MM5's converters' and old tools'.
  case classic
  /// CDF-5 (64-bit counts and offsets, PnetCDF's).
  case cdf5

  var mode: Int32 {
    switch self {
    case .netcdf4: NC_NETCDF4 | NC_CLOBBER
    case .classic64BitOffset: NC_64BIT_OFFSET | NC_CLOBBER
    case .classic: NC_CLOBBER
    case .cdf5: NC_64BIT_DATA | NC_CLOBBER
    }
  }
}

/// Writing, used to produce sample runs and test fixtures.
extension NCFile {
  /// Creates (or overwrites) a file in define mode (`nc_create`).
  public static func create(_ path: String, format: NCFormat) throws(NCError) -> NCFile {
    var ncid: Int32 = 0
    try NCLibrary.call("nc_create", path: path) { nc_create(path, format.mode, &ncid) }
    return try NCFile(createdAt: path, ncid: ncid)
  }

  /// Defines a dimension (`nc_def_dim`); `length` nil makes it the unlimited one.
  public func defineDimension(_ name: String, length: Int?) throws(NCError) {
    var dimid: Int32 = 0
    try NCLibrary.call("nc_def_dim", path: path, variable: "dimension \(name)") {
      nc_def_dim(ncid, name, length ?? 0, &dimid)
    }
    // The cached metadata is kept current by hand while defining: re-reading the whole
    // header after each call made writing a WRF-sized file quadratic in its attributes.
    dimensions.append(NCDimension(name: name, length: length ?? 0, isUnlimited: length == nil))
  }

  /// Defines a variable over named dimensions (`nc_def_var`).
  public func defineVariable(_ name: String, type: NCType, dimensions: [String]) throws(NCError) {
    var dimids: [Int32] = []
    for dimension in dimensions {
      var dimid: Int32 = 0
      try NCLibrary.call("nc_inq_dimid", path: path, variable: name) {
        nc_inq_dimid(ncid, dimension, &dimid)
      }
      dimids.append(dimid)
    }
    var varid: Int32 = 0
    try NCLibrary.call("nc_def_var", path: path, variable: name) {
      nc_def_var(ncid, name, type.rawValue, Int32(dimids.count), dimids, &varid)
    }
    variables[name] = NCVariable(
      name: name, id: varid, type: type, dimensions: dimensions,
      shape: dimids.map { self.dimensions[Int($0)].length }, attributes: [:])
  }

  /// Sets an attribute on a variable, or a global one when `variable` is nil
  /// (`nc_put_att_text` / `nc_put_att_double` / `nc_put_att_longlong`); numeric attributes
  /// are stored as `type`.
  public func setAttribute(
    _ name: String, _ value: NCAttribute, on variable: String? = nil, type: NCType = .double
  ) throws(NCError) {
    let varid = try variable.map { (name) throws(NCError) in try self.variable(name).id } ?? NC_GLOBAL
    let label = variable.map { "\($0) attribute \(name)" } ?? "global attribute \(name)"
    switch value {
    case .text(let text):
      try NCLibrary.call("nc_put_att_text", path: path, variable: label) {
        nc_put_att_text(ncid, varid, name, text.utf8.count, text)
      }
    case .reals(let values):
      try NCLibrary.call("nc_put_att_double", path: path, variable: label) {
        nc_put_att_double(ncid, varid, name, type.rawValue, values.count, values)
      }
    case .integers(let values):
      let wide = values.map { CLongLong($0) }
      try NCLibrary.call("nc_put_att_longlong", path: path, variable: label) {
        nc_put_att_longlong(ncid, varid, name, type.rawValue, wide.count, wide)
      }
    }
    if let variable, let defined = variables[variable] {
      var attributes = defined.attributes
      attributes[name] = value
      variables[variable] = NCVariable(
        name: defined.name, id: defined.id, type: defined.type, dimensions: defined.dimensions,
        shape: defined.shape, attributes: attributes)
    } else if variable == nil {
      globalAttributes[name] = value
    }
  }

  /// Leaves define mode (`nc_enddef`) so that data can be written.
  public func endDefinitions() throws(NCError) {
    try NCLibrary.call("nc_enddef", path: path) { nc_enddef(ncid) }
    // From here on the file's own header is the truth (types and lengths as stored).
    try reloadMetadata()
  }

  /// Writes a hyperslab from `Double`s, converting to the stored type (`nc_put_vara_double`).
  public func write(
    _ name: String, start: [Int], count: [Int], _ values: [Double]
  ) throws(NCError) {
    let variable = try checkedWrite(name, count: count, valueCount: values.count)
    try NCLibrary.call("nc_put_vara_double", path: path, variable: name) {
      nc_put_vara_double(ncid, variable.id, start, count, values)
    }
  }

  /// Writes a hyperslab from `Float`s (`nc_put_vara_float`).
  public func write(_ name: String, start: [Int], count: [Int], _ values: [Float]) throws(NCError) {
    let variable = try checkedWrite(name, count: count, valueCount: values.count)
    try NCLibrary.call("nc_put_vara_float", path: path, variable: name) {
      nc_put_vara_float(ncid, variable.id, start, count, values)
    }
  }

  /// Writes a hyperslab from `Int16`s (`nc_put_vara_short`), e.g. packed CF data.
  public func write(_ name: String, start: [Int], count: [Int], _ values: [Int16]) throws(NCError) {
    let variable = try checkedWrite(name, count: count, valueCount: values.count)
    try NCLibrary.call("nc_put_vara_short", path: path, variable: name) {
      nc_put_vara_short(ncid, variable.id, start, count, values)
    }
  }

  /// Writes strings into a `char` variable, one per row of its last dimension, padded
  /// with NULs (`nc_put_vara_text`).
  public func writeStrings(_ name: String, start: [Int], count: [Int], _ rows: [String]) throws(NCError) {
    let width = count.last ?? 0
    var bytes = [CChar](repeating: 0, count: rows.count * width)
    for (row, text) in rows.enumerated() {
      for (column, byte) in text.utf8.prefix(width).enumerated() {
        bytes[row * width + column] = CChar(bitPattern: byte)
      }
    }
    let variable = try checkedWrite(name, count: count, valueCount: bytes.count)
    try NCLibrary.call("nc_put_vara_text", path: path, variable: name) {
      nc_put_vara_text(ncid, variable.id, start, count, bytes)
    }
  }

  private func checkedWrite(_ name: String, count: [Int], valueCount: Int) throws(NCError) -> NCVariable {
    let variable = try variable(name)
    guard count.reduce(1, *) == valueCount else {
      throw NCError(
        code: NC_EEDGE, reason: "slab \(count) needs \(count.reduce(1, *)) values, got \(valueCount)",
        path: path, variable: name)
    }
    return variable
  }
}
