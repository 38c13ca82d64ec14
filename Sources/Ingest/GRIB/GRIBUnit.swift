import Foundation

/// The units the GRIB convention hands quantities over in (`QuantityDerivation`'s), and
/// the conversion from the units ecCodes gives a message (its `units` key, which follows
/// from the parameter and the centre: ECMWF's `tp` is in metres, NCEP's in kg m⁻²).
enum GRIBUnit: String, Sendable {
  case celsius = "°C"
  case percent = "%"
  case kilogramsPerKilogram = "kg/kg"
  case metresPerSecond = "m/s"
  case hectopascal = "hPa"
  /// An amount of water, kg m⁻² = mm.
  case millimetres = "mm"
  /// A rate of water, kg m⁻² s⁻¹ = mm/s.
  case millimetresPerSecond = "mm/s"
  /// Radiant energy per area (an accumulated flux).
  case joulesPerSquareMetre = "J/m²"
  case wattsPerSquareMetre = "W/m²"
  case metres = "m"
  /// A temperature difference (the lifted index).
  case kelvin = "K"
  /// A density (of snow).
  case kilogramsPerCubicMetre = "kg/m³"
  /// Energy per mass (CAPE).
  case joulesPerKilogram = "J/kg"
  /// A flag or category (code table 4.222: 0 no, 1 yes).
  case flag = "flag"
  /// A fraction of 1 (a land-sea mask).
  case fraction = "1"

  /// Standard gravity, m/s², which turns a surface geopotential into a height.
  static let gravity = 9.80665

  /// How a value becomes one in this unit: raw · multiply / divide + add, the formula's own
  /// operations in order (Pa → hPa divides by 100 rather than multiplying by 0.01, which
  /// would change the last bit of some values and so some stored words), as the CF
  /// conversions are. A factor of 1 and a term of 0 are exact no-ops.
  struct Conversion: Sendable, Equatable {
    var multiply = 1.0
    var divide = 1.0
    var add = 0.0

    static let identity = Conversion()

    /// `raw` in the unit.
    @inline(__always) func apply(_ raw: Double) -> Double { raw * multiply / divide + add }
  }

  /// The conversion from ecCodes' `units` text; nil when nwpcube does not know it (a guess
  /// would be a silently wrong number).
  func conversion(from units: String) -> Conversion? {
    let u = units.trimmingCharacters(in: .whitespaces)
    switch self {
    case .celsius:
      switch u {
      case "K": return Conversion(add: -273.15)
      case "C", "deg C", "°C", "degC": return .identity
      default: return nil
      }
    case .percent:
      switch u {
      case "%", "percent": return .identity
      case "(0 - 1)", "0-1", "(0-1)", "Proportion", "proportion", "Fraction", "fraction", "1":
        return Conversion(multiply: 100)
      default: return nil
      }
    case .kilogramsPerKilogram: return ["kg kg**-1", "kg/kg", "1"].contains(u) ? .identity : nil
    case .metresPerSecond: return ["m s**-1", "m/s"].contains(u) ? .identity : nil
    case .hectopascal:
      switch u {
      case "Pa": return Conversion(divide: 100)
      case "hPa": return .identity
      default: return nil
      }
    case .millimetres:
      switch u {
      case "kg m**-2", "mm": return .identity
      // ECMWF's water amounts are depths of water (tp, cp, sf).
      case "m", "m of water equivalent": return Conversion(multiply: 1000)
      default: return nil
      }
    case .millimetresPerSecond:
      switch u {
      case "kg m**-2 s**-1", "mm s**-1": return .identity
      case "m s**-1", "m of water equivalent s**-1": return Conversion(multiply: 1000)
      default: return nil
      }
    case .joulesPerSquareMetre: return u == "J m**-2" ? .identity : nil
    case .wattsPerSquareMetre: return u == "W m**-2" ? .identity : nil
    case .metres:
      switch u {
      case "m", "gpm": return .identity
      // A surface geopotential (ECMWF's z): the height is it over g.
      case "m**2 s**-2": return Conversion(divide: Self.gravity)
      default: return nil
      }
    case .kelvin: return u == "K" ? .identity : nil
    case .kilogramsPerCubicMetre: return ["kg m**-3", "kg/m3"].contains(u) ? .identity : nil
    case .joulesPerKilogram: return ["J kg**-1", "J/kg"].contains(u) ? .identity : nil
    case .flag:
      return ["(Code table 4.222)", "Code table 4.222", "Numeric", "1", "(0 - 1)"].contains(u) ? .identity : nil
    case .fraction:
      return ["(0 - 1)", "0-1", "(0-1)", "Proportion", "proportion", "Fraction", "1"].contains(u) ? .identity : nil
    }
  }
}
