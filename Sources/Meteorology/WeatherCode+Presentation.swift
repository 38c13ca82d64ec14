extension WeatherCode {
  /// What every client API shows for a code: the one table they share.
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
    /// The OpenWeatherMap condition.
    public let openWeatherMap: OpenWeatherMapCondition
    /// The Dark Sky condition.
    public let darkSky: DarkSkyCondition

    /// The icon for the day or the night.
    public func icon(isDay: Bool) -> String { isDay ? dayIcon : nightIcon }
  }

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

  /// The code's row of the table.
  public var presentation: Presentation {
    switch self {
    case .clearSky:
      row(
        "Clear sky", "Clear", ("clear-day", "clear-night"), (800, "Clear", "clear sky", "01"),
        ("clear-day", "clear-night", "Clear"))
    case .mainlyClear:
      row(
        "Mainly clear", "Mostly clear", ("mostly-clear-day", "mostly-clear-night"),
        (801, "Clouds", "few clouds", "02"), ("clear-day", "clear-night", "Mostly Clear"))
    case .partlyCloudy:
      row(
        "Partly cloudy", "Partly cloudy", ("partly-cloudy-day", "partly-cloudy-night"),
        (802, "Clouds", "scattered clouds", "03"), ("partly-cloudy-day", "partly-cloudy-night", "Partly Cloudy"))
    case .overcast:
      row(
        "Overcast", "Overcast", ("cloudy", "cloudy"), (804, "Clouds", "overcast clouds", "04"),
        ("cloudy", "cloudy", "Overcast"))
    case .fog:
      row("Fog", "Fog", ("fog", "fog"), (741, "Fog", "fog", "50"), ("fog", "fog", "Foggy"))
    case .depositingRimeFog:
      row(
        "Depositing rime fog", "Freezing fog", ("fog", "fog"), (741, "Fog", "fog", "50"),
        ("fog", "fog", "Freezing Fog"))
    case .lightDrizzle:
      row(
        "Light drizzle", "Light drizzle", ("drizzle", "drizzle"), (300, "Drizzle", "light intensity drizzle", "09"),
        ("rain", "rain", "Light Drizzle"))
    case .moderateDrizzle:
      row(
        "Moderate drizzle", "Drizzle", ("drizzle", "drizzle"), (301, "Drizzle", "drizzle", "09"),
        ("rain", "rain", "Drizzle"))
    case .denseDrizzle:
      row(
        "Dense drizzle", "Heavy drizzle", ("drizzle", "drizzle"), (302, "Drizzle", "heavy intensity drizzle", "09"),
        ("rain", "rain", "Heavy Drizzle"))
    case .lightFreezingDrizzle:
      row(
        "Light freezing drizzle", "Light freezing drizzle", ("freezing-rain", "freezing-rain"),
        (511, "Rain", "freezing rain", "13"), ("sleet", "sleet", "Light Freezing Drizzle"))
    case .denseFreezingDrizzle:
      row(
        "Dense freezing drizzle", "Freezing drizzle", ("freezing-rain", "freezing-rain"),
        (511, "Rain", "freezing rain", "13"), ("sleet", "sleet", "Freezing Drizzle"))
    case .slightRain:
      row(
        "Slight rain", "Light rain", ("rain", "rain"), (500, "Rain", "light rain", "10"),
        ("rain", "rain", "Light Rain"))
    case .moderateRain:
      row("Moderate rain", "Rain", ("rain", "rain"), (501, "Rain", "moderate rain", "10"), ("rain", "rain", "Rain"))
    case .heavyRain:
      row(
        "Heavy rain", "Heavy rain", ("rain", "rain"), (502, "Rain", "heavy intensity rain", "10"),
        ("rain", "rain", "Heavy Rain"))
    case .lightFreezingRain:
      row(
        "Light freezing rain", "Light freezing rain", ("freezing-rain", "freezing-rain"),
        (511, "Rain", "freezing rain", "13"), ("sleet", "sleet", "Light Freezing Rain"))
    case .heavyFreezingRain:
      row(
        "Heavy freezing rain", "Freezing rain", ("freezing-rain", "freezing-rain"),
        (511, "Rain", "freezing rain", "13"), ("sleet", "sleet", "Freezing Rain"))
    case .slightSnowFall:
      row(
        "Slight snow fall", "Light snow", ("snow", "snow"), (600, "Snow", "light snow", "13"),
        ("snow", "snow", "Light Snow"))
    case .moderateSnowFall:
      row("Moderate snow fall", "Snow", ("snow", "snow"), (601, "Snow", "snow", "13"), ("snow", "snow", "Snow"))
    case .heavySnowFall:
      row(
        "Heavy snow fall", "Heavy snow", ("snow", "snow"), (602, "Snow", "heavy snow", "13"),
        ("snow", "snow", "Heavy Snow"))
    case .snowGrains:
      row(
        "Snow grains", "Snow grains", ("snow", "snow"), (600, "Snow", "light snow", "13"),
        ("snow", "snow", "Snow Grains"))
    case .slightRainShowers:
      row(
        "Slight rain showers", "Light showers", ("showers-day", "showers-night"),
        (520, "Rain", "light intensity shower rain", "09"), ("rain", "rain", "Light Showers"))
    case .moderateRainShowers:
      row(
        "Moderate rain showers", "Showers", ("showers-day", "showers-night"), (521, "Rain", "shower rain", "09"),
        ("rain", "rain", "Showers"))
    case .violentRainShowers:
      row(
        "Violent rain showers", "Heavy showers", ("showers-day", "showers-night"),
        (522, "Rain", "heavy intensity shower rain", "09"), ("rain", "rain", "Heavy Showers"))
    case .slightSnowShowers:
      row(
        "Slight snow showers", "Light snow showers", ("snow-showers-day", "snow-showers-night"),
        (620, "Snow", "light shower snow", "13"), ("snow", "snow", "Light Snow Showers"))
    case .heavySnowShowers:
      row(
        "Heavy snow showers", "Snow showers", ("snow-showers-day", "snow-showers-night"),
        (622, "Snow", "heavy shower snow", "13"), ("snow", "snow", "Snow Showers"))
    case .thunderstorm:
      row(
        "Thunderstorm", "Thunderstorm", ("thunderstorm", "thunderstorm"),
        (201, "Thunderstorm", "thunderstorm with rain", "11"), ("rain", "rain", "Thunderstorm"))
    case .thunderstormWithSlightHail:
      row(
        "Thunderstorm with slight hail", "Thunderstorm with hail", ("hail", "hail"),
        (211, "Thunderstorm", "thunderstorm", "11"), ("rain", "rain", "Thunderstorm with Hail"))
    case .thunderstormWithHeavyHail:
      row(
        "Thunderstorm with heavy hail", "Severe thunderstorm with hail", ("hail", "hail"),
        (212, "Thunderstorm", "heavy thunderstorm", "11"), ("rain", "rain", "Severe Thunderstorm with Hail"))
    }
  }

  /// One row, in the table's column order, so that the switch above reads as the table.
  private func row(
    _ description: String, _ summary: String, _ icons: (day: String, night: String),
    _ owm: (id: Int, main: String, description: String, icon: String),
    _ darkSky: (day: String, night: String, summary: String)
  ) -> Presentation {
    Presentation(
      description: description, summary: summary, dayIcon: icons.day, nightIcon: icons.night,
      openWeatherMap: OpenWeatherMapCondition(
        id: owm.id, main: owm.main, description: owm.description, iconBase: owm.icon),
      darkSky: DarkSkyCondition(dayIcon: darkSky.day, nightIcon: darkSky.night, summary: darkSky.summary))
  }
}
