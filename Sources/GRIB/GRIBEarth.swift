/// The shape of the earth a message's grid is defined on (GRIB2 code table 3.2, or
/// edition 1's fixed sphere), as ecCodes reports it.
public enum GRIBEarth: Sendable, Equatable {
  /// A sphere of this radius in metres (ecCodes' `radius`).
  case sphere(radius: Double)
  /// An oblate spheroid with these semi-axes in metres (`earthMajorAxisInMetres`,
  /// `earthMinorAxisInMetres`).
  case spheroid(major: Double, minor: Double)

  /// Reads the shape from `handle`'s `earthIsOblate` and radius or axes keys.
  init(_ handle: GRIBHandle) throws(GRIBError) {
    if try handle.optionalLong("earthIsOblate") == 1 {
      let major = try handle.double("earthMajorAxisInMetres")
      let minor = try handle.double("earthMinorAxisInMetres")
      self = .spheroid(major: major, minor: minor)
    } else {
      self = .sphere(radius: try handle.double("radius"))
    }
  }
}
