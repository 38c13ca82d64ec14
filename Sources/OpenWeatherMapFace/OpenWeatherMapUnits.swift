import Meteorology

/// OpenWeatherMap's `units`: the temperature and wind speed units of its answers. Pressure
/// is hPa, visibility metres, precipitation mm and humidity and cloud cover % in all three,
/// as OpenWeatherMap gives them.
public enum OpenWeatherMapUnits: String, CaseIterable, Sendable {
  /// K and m/s, OpenWeatherMap's default.
  case standard
  /// °C and m/s.
  case metric
  /// °F and mph.
  case imperial

  /// The units as a `UnitSystem`, so that every conversion is the one `Meteorology` has.
  public var unitSystem: UnitSystem {
    let (temperature, windSpeed): (TemperatureUnit, WindSpeedUnit) =
      switch self {
      case .standard: (.kelvin, .metresPerSecond)
      case .metric: (.celsius, .metresPerSecond)
      case .imperial: (.fahrenheit, .milesPerHour)
      }
    return UnitSystem(
      temperature: temperature, windSpeed: windSpeed, precipitation: .millimetres, pressure: .hectopascals,
      visibility: .metres, share: .percent)
  }
}
