import Meteorology

extension WeatherCode {
  /// An OpenWeatherMap `weather` entry (openweathermap.org/weather-conditions).
  public struct OpenWeatherMapCondition: Sendable, Equatable {
    /// The condition id, e.g. 500.
    public let id: Int
    /// Its group, e.g. "Rain".
    public let main: String
    /// OpenWeatherMap's description, e.g. "light rain".
    public let description: String
    /// The icon without its day/night letter, e.g. "10".
    public let iconBase: String

    /// The icon code, e.g. "10d" by day and "10n" by night.
    public func icon(isDay: Bool) -> String { iconBase + (isDay ? "d" : "n") }
  }

  /// The code's OpenWeatherMap condition: its column of the weather-code table
  /// (docs/weather-codes.md).
  public var openWeatherMap: OpenWeatherMapCondition {
    switch self {
    case .clearSky: row(800, "Clear", "clear sky", "01")
    case .mainlyClear: row(801, "Clouds", "few clouds", "02")
    case .partlyCloudy: row(802, "Clouds", "scattered clouds", "03")
    case .overcast: row(804, "Clouds", "overcast clouds", "04")
    case .fog: row(741, "Fog", "fog", "50")
    case .depositingRimeFog: row(741, "Fog", "fog", "50")
    case .lightDrizzle: row(300, "Drizzle", "light intensity drizzle", "09")
    case .moderateDrizzle: row(301, "Drizzle", "drizzle", "09")
    case .denseDrizzle: row(302, "Drizzle", "heavy intensity drizzle", "09")
    case .lightFreezingDrizzle: row(511, "Rain", "freezing rain", "13")
    case .denseFreezingDrizzle: row(511, "Rain", "freezing rain", "13")
    case .slightRain: row(500, "Rain", "light rain", "10")
    case .moderateRain: row(501, "Rain", "moderate rain", "10")
    case .heavyRain: row(502, "Rain", "heavy intensity rain", "10")
    case .lightFreezingRain: row(511, "Rain", "freezing rain", "13")
    case .heavyFreezingRain: row(511, "Rain", "freezing rain", "13")
    case .slightSnowFall: row(600, "Snow", "light snow", "13")
    case .moderateSnowFall: row(601, "Snow", "snow", "13")
    case .heavySnowFall: row(602, "Snow", "heavy snow", "13")
    case .snowGrains: row(600, "Snow", "light snow", "13")
    case .slightRainShowers: row(520, "Rain", "light intensity shower rain", "09")
    case .moderateRainShowers: row(521, "Rain", "shower rain", "09")
    case .violentRainShowers: row(522, "Rain", "heavy intensity shower rain", "09")
    case .slightSnowShowers: row(620, "Snow", "light shower snow", "13")
    case .heavySnowShowers: row(622, "Snow", "heavy shower snow", "13")
    case .thunderstorm: row(201, "Thunderstorm", "thunderstorm with rain", "11")
    case .thunderstormWithSlightHail: row(211, "Thunderstorm", "thunderstorm", "11")
    case .thunderstormWithHeavyHail: row(212, "Thunderstorm", "heavy thunderstorm", "11")
    }
  }

  /// One row, in the table's column order.
  private func row(_ id: Int, _ main: String, _ description: String, _ icon: String) -> OpenWeatherMapCondition {
    OpenWeatherMapCondition(id: id, main: main, description: description, iconBase: icon)
  }
}
