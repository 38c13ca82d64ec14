import Meteorology

extension WeatherCode {
  /// A Dark Sky data point's `icon` and `summary` (darksky.net/dev/docs/response).
  public struct DarkSkyCondition: Sendable, Equatable {
    /// The icon by day, one of Dark Sky's ten, e.g. `clear-day`.
    public let dayIcon: String
    /// The icon by night, e.g. `clear-night`.
    public let nightIcon: String
    /// The summary in Dark Sky's title case, e.g. "Light Rain".
    public let summary: String

    /// The icon for the day or the night.
    public func icon(isDay: Bool) -> String { isDay ? dayIcon : nightIcon }
  }

  /// The code's Dark Sky icons and summary, from a table made once: building the row for
  /// each hour's tests and texts was 2–3 % of a Dark Sky forecast.
  public var darkSky: DarkSkyCondition {
    rawValue >= 0 && rawValue < Self.darkSkyConditions.count
      ? Self.darkSkyConditions[rawValue] ?? darkSkyRow : darkSkyRow
  }

  /// Indexed by code (WMO codes are 0–99).
  private static let darkSkyConditions: [DarkSkyCondition?] = (0..<100).map {
    WeatherCode(rawValue: $0)?.darkSkyRow
  }

  /// The code's Dark Sky column of the weather-code table (docs/weather-codes.md).
  private var darkSkyRow: DarkSkyCondition {
    switch self {
    case .clearSky: row("clear-day", "clear-night", "Clear")
    case .mainlyClear: row("clear-day", "clear-night", "Mostly Clear")
    case .partlyCloudy: row("partly-cloudy-day", "partly-cloudy-night", "Partly Cloudy")
    case .overcast: row("cloudy", "cloudy", "Overcast")
    case .fog: row("fog", "fog", "Foggy")
    case .depositingRimeFog: row("fog", "fog", "Freezing Fog")
    case .lightDrizzle: row("rain", "rain", "Light Drizzle")
    case .moderateDrizzle: row("rain", "rain", "Drizzle")
    case .denseDrizzle: row("rain", "rain", "Heavy Drizzle")
    case .lightFreezingDrizzle: row("sleet", "sleet", "Light Freezing Drizzle")
    case .denseFreezingDrizzle: row("sleet", "sleet", "Freezing Drizzle")
    case .slightRain: row("rain", "rain", "Light Rain")
    case .moderateRain: row("rain", "rain", "Rain")
    case .heavyRain: row("rain", "rain", "Heavy Rain")
    case .lightFreezingRain: row("sleet", "sleet", "Light Freezing Rain")
    case .heavyFreezingRain: row("sleet", "sleet", "Freezing Rain")
    case .slightSnowFall: row("snow", "snow", "Light Snow")
    case .moderateSnowFall: row("snow", "snow", "Snow")
    case .heavySnowFall: row("snow", "snow", "Heavy Snow")
    case .snowGrains: row("snow", "snow", "Snow Grains")
    case .slightRainShowers: row("rain", "rain", "Light Showers")
    case .moderateRainShowers: row("rain", "rain", "Showers")
    case .violentRainShowers: row("rain", "rain", "Heavy Showers")
    case .slightSnowShowers: row("snow", "snow", "Light Snow Showers")
    case .heavySnowShowers: row("snow", "snow", "Snow Showers")
    case .thunderstorm: row("rain", "rain", "Thunderstorm")
    case .thunderstormWithSlightHail: row("rain", "rain", "Thunderstorm with Hail")
    case .thunderstormWithHeavyHail: row("rain", "rain", "Severe Thunderstorm with Hail")
    }
  }

  /// One row, in the table's column order.
  private func row(_ day: String, _ night: String, _ summary: String) -> DarkSkyCondition {
    DarkSkyCondition(dayIcon: day, nightIcon: night, summary: summary)
  }
}
