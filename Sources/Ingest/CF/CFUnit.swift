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
  /// Geopotential, divided by standard gravity into metres by the caller.
  case geopotential = "m²/s²"
  /// A fraction of 1 (a land-sea mask).
  case fraction = "1"

  /// A conversion from `units` (as written in the file's `units` attribute), or nil when
  /// nwpcube does not know how: a guess would be a silently wrong number.
  func converter(from units: String) -> (@Sendable (Double) -> Double)? {
    let u = units.trimmingCharacters(in: .whitespaces)
    switch self {
    case .celsius:
      switch u {
      case "K", "k", "kelvin", "Kelvin", "degK", "deg_K": return { $0 - 273.15 }
      case "degC", "deg_C", "°C", "C", "celsius", "Celsius", "degree_Celsius", "degrees_Celsius": return { $0 }
      case "degF", "°F", "F", "fahrenheit": return { ($0 - 32) * 5 / 9 }
      default: return nil
      }
    case .percent:
      switch u {
      case "%", "percent": return { $0 }
      case "1", "0-1", "(0 - 1)", "fraction", "": return { $0 * 100 }
      default: return nil
      }
    case .metresPerSecond:
      switch u {
      case "m/s", "m s-1", "m s**-1", "m.s-1", "m s^-1", "meter second-1", "m/sec": return { $0 }
      case "km/h", "km h-1": return { $0 / 3.6 }
      case "knots", "kt", "kn": return { $0 * 1852 / 3600 }
      default: return nil
      }
    case .hectopascal:
      switch u {
      case "Pa", "pa", "pascal": return { $0 / 100 }
      case "hPa", "mbar", "mb", "millibar": return { $0 }
      case "kPa": return { $0 * 10 }
      default: return nil
      }
    case .millimetres:
      switch u {
      case "kg m-2", "kg m**-2", "kg/m^2", "kg/m2", "mm": return { $0 }
      case "m", "m of water equivalent": return { $0 * 1000 }
      default: return nil
      }
    case .millimetresPerHour:
      switch u {
      case "kg m-2 s-1", "kg m**-2 s**-1", "kg/m^2/s", "kg/m2/s", "mm s-1", "mm/s": return { $0 * 3600 }
      case "mm/h", "mm h-1": return { $0 }
      case "m s-1", "m/s": return { $0 * 3_600_000 }
      default: return nil
      }
    case .metres:
      switch u {
      case "m", "metre", "meter", "metres", "meters": return { $0 }
      case "km": return { $0 * 1000 }
      default: return nil
      }
    case .geopotential:
      switch u {
      case "m2 s-2", "m**2 s**-2", "m^2/s^2", "m2/s2", "m^2 s^-2": return { $0 }
      default: return nil
      }
    case .fraction:
      switch u {
      case "1", "0-1", "(0 - 1)", "fraction", "", "~": return { $0 }
      case "%", "percent": return { $0 / 100 }
      default: return nil
      }
    case .wattsPerSquareMetre:
      switch u {
      case "W m-2", "W m**-2", "W/m^2", "W/m2", "w m-2": return { $0 }
      default: return nil
      }
    }
  }
}
