import Meteorology

extension WeatherCode {
  /// The columns of the weather-code table the faces and the pictures share
  /// (docs/weather-codes.md); each API's own condition (OpenWeatherMap's, Dark Sky's) is in
  /// its face.
  public struct Presentation: Sendable, Equatable {
    /// Open-Meteo's wording of the code, e.g. "Slight rain".
    public let description: String
    /// The short form apps show, e.g. "Light rain".
    public let summary: String
    /// The icon by day, in nwpcube's icon scheme: Dark Sky's names and the few it lacks
    /// (docs/weather-codes.md), e.g. `partly-cloudy-day`.
    public let dayIcon: String
    /// The icon by night, in the same scheme, e.g. `partly-cloudy-night`.
    public let nightIcon: String

    /// The icon for the day or the night.
    public func icon(isDay: Bool) -> String { isDay ? dayIcon : nightIcon }
  }

  /// The code's row of the table.
  public var presentation: Presentation {
    switch self {
    case .clearSky: row("Clear sky", "Clear", ("clear-day", "clear-night"))
    case .mainlyClear: row("Mainly clear", "Mostly clear", ("mostly-clear-day", "mostly-clear-night"))
    case .partlyCloudy: row("Partly cloudy", "Partly cloudy", ("partly-cloudy-day", "partly-cloudy-night"))
    case .overcast: row("Overcast", "Overcast", ("cloudy", "cloudy"))
    case .fog: row("Fog", "Fog", ("fog", "fog"))
    case .depositingRimeFog: row("Depositing rime fog", "Freezing fog", ("fog", "fog"))
    case .lightDrizzle: row("Light drizzle", "Light drizzle", ("drizzle", "drizzle"))
    case .moderateDrizzle: row("Moderate drizzle", "Drizzle", ("drizzle", "drizzle"))
    case .denseDrizzle: row("Dense drizzle", "Heavy drizzle", ("drizzle", "drizzle"))
    case .lightFreezingDrizzle:
      row("Light freezing drizzle", "Light freezing drizzle", ("freezing-rain", "freezing-rain"))
    case .denseFreezingDrizzle: row("Dense freezing drizzle", "Freezing drizzle", ("freezing-rain", "freezing-rain"))
    case .slightRain: row("Slight rain", "Light rain", ("rain", "rain"))
    case .moderateRain: row("Moderate rain", "Rain", ("rain", "rain"))
    case .heavyRain: row("Heavy rain", "Heavy rain", ("rain", "rain"))
    case .lightFreezingRain: row("Light freezing rain", "Light freezing rain", ("freezing-rain", "freezing-rain"))
    case .heavyFreezingRain: row("Heavy freezing rain", "Freezing rain", ("freezing-rain", "freezing-rain"))
    case .slightSnowFall: row("Slight snow fall", "Light snow", ("snow", "snow"))
    case .moderateSnowFall: row("Moderate snow fall", "Snow", ("snow", "snow"))
    case .heavySnowFall: row("Heavy snow fall", "Heavy snow", ("snow", "snow"))
    case .snowGrains: row("Snow grains", "Snow grains", ("snow", "snow"))
    case .slightRainShowers: row("Slight rain showers", "Light showers", ("showers-day", "showers-night"))
    case .moderateRainShowers: row("Moderate rain showers", "Showers", ("showers-day", "showers-night"))
    case .violentRainShowers: row("Violent rain showers", "Heavy showers", ("showers-day", "showers-night"))
    case .slightSnowShowers:
      row("Slight snow showers", "Light snow showers", ("snow-showers-day", "snow-showers-night"))
    case .heavySnowShowers: row("Heavy snow showers", "Snow showers", ("snow-showers-day", "snow-showers-night"))
    case .thunderstorm: row("Thunderstorm", "Thunderstorm", ("thunderstorm", "thunderstorm"))
    case .thunderstormWithSlightHail: row("Thunderstorm with slight hail", "Thunderstorm with hail", ("hail", "hail"))
    case .thunderstormWithHeavyHail:
      row("Thunderstorm with heavy hail", "Severe thunderstorm with hail", ("hail", "hail"))
    }
  }

  /// One row, in the table's column order, so that the switch above reads as the table.
  private func row(_ description: String, _ summary: String, _ icons: (day: String, night: String)) -> Presentation {
    Presentation(description: description, summary: summary, dayIcon: icons.day, nightIcon: icons.night)
  }
}
