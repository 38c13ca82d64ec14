/// The kind of model output a cube's metrics were derived from, as a cube records it
/// (docs/cube-format.md, the version 3 record), so that a metric the cube lacks is
/// explained in the input's own names: GRIB parameters for a GRIB run, never WRF
/// variables.
public enum InputConvention: UInt32, Sendable, CaseIterable {
  case wrf = 1
  case mm5 = 2
  case cf = 3
  case grib = 4

  /// "WRF", "MM5", "CF", "GRIB".
  public var name: String {
    switch self {
    case .wrf: "WRF"
    case .mm5: "MM5"
    case .cf: "CF"
    case .grib: "GRIB"
    }
  }
}
