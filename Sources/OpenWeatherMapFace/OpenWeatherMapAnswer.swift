import Forecast
import Meteorology

/// The values of an `OpenWeatherMapQuery`, in the query's units, ready to be written.
public struct OpenWeatherMapAnswer: Sendable {
  /// One forecast entry, or the current weather: the fields of OpenWeatherMap's list
  /// item, each as docs/openweathermap.md derives it; nil where the store has no value.
  public struct Entry: Sendable, Equatable {
    /// Unix seconds: the entry's `dt`.
    public var time: Int64
    /// `main.temp`: temperature at `time`.
    public var temperature: Double?
    /// `main.feels_like`: apparent temperature at `time`.
    public var feelsLike: Double?
    /// `main.temp_min`, `main.temp_max`: the extremes of the window's hourly temperatures.
    public var temperatureMinimum: Double?
    public var temperatureMaximum: Double?
    /// `main.pressure` and `main.sea_level`: sea-level pressure at `time`, hPa.
    public var seaLevelPressure: Double?
    /// `main.grnd_level`: surface pressure at `time`, hPa.
    public var groundPressure: Double?
    /// `main.humidity`: relative humidity at `time`, %.
    public var humidity: Double?
    /// `clouds.all`: total cloud cover at `time`, %.
    public var cloud: Double?
    /// `wind.speed`, `wind.deg`, `wind.gust` at `time`.
    public var windSpeed: Double?
    public var windDirection: Double?
    public var windGust: Double?
    /// `visibility`: metres at `time`, at most `visibilityLimit`.
    public var visibility: Double?
    /// `pop`: the window's highest precipitation probability, 0–1; nil for `/weather`.
    public var precipitationProbability: Double?
    /// `rain`: liquid precipitation over the window, mm (total less snow water).
    public var rain: Double?
    /// `snow`: snow water equivalent over the window, mm.
    public var snow: Double?
    /// The window's most significant weather.
    public var condition: WeatherCode?
    /// Whether the sun's centre is up at `time` at the point (what `is_day` answers):
    /// `sys.pod` and the icon's letter.
    public var isDay: Bool

    /// OpenWeatherMap's largest visibility, metres.
    public static let visibilityLimit = 10_000.0

    /// The entry at `time` from the hourly values `value(metric, hour)` of the hours of
    /// `window`, the last of which is `time`'s. Day or night is the sun's at the point.
    ///
    /// The window's statistics are gathered in one loop without arrays: this runs 40 times
    /// a forecast.
    init(
      time: Int64, window: Range<Int>, latitude: Double, longitude: Double,
      value: (Metric, Int) -> Double?
    ) {
      let at = window.upperBound - 1
      self.time = time
      temperature = value(.temp, at)
      feelsLike = value(.apparentTemp, at)
      seaLevelPressure = value(.atmPress, at)
      groundPressure = value(.sfcPress, at)
      humidity = value(.hum, at)
      cloud = value(.cloud, at)
      windSpeed = value(.windVel, at)
      windDirection = value(.windDir, at)
      windGust = value(.windGusts, at)
      visibility = value(.visibility, at).map { min($0, Self.visibilityLimit) }
      var (lowest, highest, probability): (Double?, Double?, Double?) = (nil, nil, nil)
      var (rain, snow): (Double?, Double?) = (nil, nil)
      var condition: WeatherCode?
      for hour in window {
        if let temperature = value(.temp, hour) {
          lowest = min(lowest ?? temperature, temperature)
          highest = max(highest ?? temperature, temperature)
        }
        if let share = value(.precipitationProbability, hour) { probability = max(probability ?? share, share) }
        // `rain` is the hour's whole precipitation, snow water included; the liquid part is
        // what is left without the snow.
        let frozen = value(.snow, hour)
        if let frozen { snow = (snow ?? 0) + frozen }
        if let total = value(.rain, hour) { rain = (rain ?? 0) + max(0, total - (frozen ?? 0)) }
        // The most significant, as `WeatherCode.mostSignificant` picks it. A code is a small
        // integer; anything else read from a cube is no code at all.
        if let number = value(.weatherCode, hour), abs(number) < 1_000,
          let code = WeatherCode(rawValue: Int(number.rounded())),
          code.significance > condition?.significance ?? -1
        {
          condition = code
        }
      }
      (temperatureMinimum, temperatureMaximum) = (lowest, highest)
      precipitationProbability = probability.map { ShareUnit.fraction.convert(fromCanonical: $0) }
      (self.rain, self.snow, self.condition) = (rain, snow, condition)
      isDay = SolarEvents.isDay(latitude: latitude, longitude: longitude, at: time)
    }
  }

  public let query: OpenWeatherMapQuery
  /// The forecast's entries, 3 hours apart; `/weather`'s one.
  public let entries: [Entry]
}
