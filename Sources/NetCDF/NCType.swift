import CNetCDF

/// The external type of a NetCDF variable or attribute.
public enum NCType: Int32, Sendable, CustomStringConvertible {
  case byte = 1, char, short, int, float, double, ubyte, ushort, uint, int64, uint64, string

  public var description: String {
    switch self {
    case .byte: "byte"
    case .char: "char"
    case .short: "short"
    case .int: "int"
    case .float: "float"
    case .double: "double"
    case .ubyte: "ubyte"
    case .ushort: "ushort"
    case .uint: "uint"
    case .int64: "int64"
    case .uint64: "uint64"
    case .string: "string"
    }
  }

  /// The value libnetcdf writes into unwritten cells when a variable has no `_FillValue`.
  /// CF readers (netCDF4-python among them) treat it as missing for every type but bytes.
  var defaultFill: Double? {
    switch self {
    case .short: Double(NC_FILL_SHORT)
    case .int: Double(NC_FILL_INT)
    case .float: Double(Float(NC_FILL_FLOAT))
    case .double: NC_FILL_DOUBLE
    case .ushort: Double(NC_FILL_USHORT)
    case .uint: Double(NC_FILL_UINT)
    default: nil
    }
  }
}
