import Foundation

/// The units nwpcube stores CF quantities in, and conversions from what files carry.
enum CFUnit: String {
  case celsius = "°C"
  case percent = "%"
  case metresPerSecond = "m/s"
  case hectopascal = "hPa"
  case millimetres = "mm"
  case millimetresPerHour = "mm/h"
  case wattsPerSquareMetre = "W/m²"
  case metres = "m"
  case kilogramsPerCubicMetre = "kg/m³"
  /// Geopotential, divided by standard gravity into metres by the caller.
  case geopotential = "m²/s²"
  /// A fraction of 1 (a land-sea mask).
  case fraction = "1"

  /// The conversion from `units` (as written in the file's `units` attribute), or nil when
  /// nwpcube does not know how: a guess would be a silently wrong number.
  func conversion(from units: String) -> CFConversion? {
    let u = units.trimmingCharacters(in: .whitespaces)
    switch self {
    case .celsius:
      switch u {
      case "K", "k", "kelvin", "Kelvin", "degK", "deg_K": return CFConversion(.subtract(273.15))
      case "degC", "deg_C", "°C", "C", "celsius", "Celsius", "degree_Celsius", "degrees_Celsius": return .identity
      case "degF", "°F", "F", "fahrenheit": return CFConversion(.subtract(32), .multiply(5), .divide(9))
      default: return nil
      }
    case .percent:
      switch u {
      case "%", "percent": return .identity
      case "1", "0-1", "(0 - 1)", "fraction", "": return CFConversion(.multiply(100))
      default: return nil
      }
    case .metresPerSecond:
      switch u {
      case "m/s", "m s-1", "m s**-1", "m.s-1", "m s^-1", "meter second-1", "m/sec": return .identity
      case "km/h", "km h-1": return CFConversion(.divide(3.6))
      case "knots", "kt", "kn": return CFConversion(.multiply(1852), .divide(3600))
      default: return nil
      }
    case .hectopascal:
      switch u {
      case "Pa", "pa", "pascal": return CFConversion(.divide(100))
      case "hPa", "mbar", "mb", "millibar": return .identity
      case "kPa": return CFConversion(.multiply(10))
      default: return nil
      }
    case .millimetres:
      switch u {
      case "kg m-2", "kg m**-2", "kg/m^2", "kg/m2", "mm": return .identity
      case "m", "m of water equivalent": return CFConversion(.multiply(1000))
      default: return nil
      }
    case .millimetresPerHour:
      switch u {
      case "kg m-2 s-1", "kg m**-2 s**-1", "kg/m^2/s", "kg/m2/s", "mm s-1", "mm/s": return CFConversion(.multiply(3600))
      case "mm/h", "mm h-1": return .identity
      case "m s-1", "m/s": return CFConversion(.multiply(3_600_000))
      default: return nil
      }
    case .kilogramsPerCubicMetre: return ["kg m-3", "kg m**-3", "kg/m3", "kg/m^3"].contains(u) ? .identity : nil
    case .metres:
      switch u {
      case "m", "metre", "meter", "metres", "meters": return .identity
      case "km": return CFConversion(.multiply(1000))
      default: return nil
      }
    case .geopotential:
      switch u {
      case "m2 s-2", "m**2 s**-2", "m^2/s^2", "m2/s2", "m^2 s^-2": return .identity
      default: return nil
      }
    case .fraction:
      switch u {
      case "1", "0-1", "(0 - 1)", "fraction", "", "~": return .identity
      case "%", "percent": return CFConversion(.divide(100))
      default: return nil
      }
    case .wattsPerSquareMetre:
      switch u {
      case "W m-2", "W m**-2", "W/m^2", "W/m2", "w m-2": return .identity
      default: return nil
      }
    }
  }
}
