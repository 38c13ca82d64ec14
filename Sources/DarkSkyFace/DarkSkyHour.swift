import Meteorology

/// One Dark Sky data point's values in nwpcube's canonical units (°C, m/s, mm/h, hPa, m,
/// %), before the request's units: what `currently` and each hour of `hourly` show, and
/// what summaries and daily values are made from.
///
/// An hour's point (`time` at the start of a local hour) describes the hour that starts
/// there: its instantaneous values are those at `time`, its precipitation, probability and
/// weather code those of the model hour ending an hour later. `currently` takes every value
/// at its own instant (precipitation of the model hour containing it).
public struct DarkSkyHour: Sendable, Equatable {
  /// Unix seconds.
  public var time: Int64
  /// The zone's offset from UTC at `time`, seconds.
  public var utcOffset: Int
  /// Whether the sun is up at `time`.
  public var isDay: Bool
  public var temperature: Double?
  public var apparentTemperature: Double?
  public var dewPoint: Double?
  /// Relative humidity, %.
  public var humidity: Double?
  /// Mean sea-level pressure, hPa.
  public var pressure: Double?
  public var windSpeed: Double?
  public var windGust: Double?
  /// Degrees the wind blows from.
  public var windBearing: Double?
  /// Cloud cover, %.
  public var cloudCover: Double?
  /// Metres, capped at `visibilityCap`.
  public var visibility: Double?
  /// Downward shortwave flux, W/m², for `uvIndex`.
  public var shortwave: Double?
  /// Precipitation rate, mm/h (the hour's amount).
  public var precipitation: Double?
  /// Its snow (water equivalent), mm/h.
  public var snow: Double?
  /// Precipitation probability, %.
  public var probability: Double?
  public var weatherCode: WeatherCode?

  public init(time: Int64, utcOffset: Int = 0, isDay: Bool = true) {
    self.time = time
    self.utcOffset = utcOffset
    self.isDay = isDay
  }

  /// 10 miles in metres: Dark Sky's visibility never exceeded it.
  public static let visibilityCap = 16_093.44

  /// Shortwave flux per UV index step: `uvIndex` is round(shortwave / 100 W/m²). A clear
  /// summer noon at mid-latitudes (about 900–1,000 W/m²) gives 9–10, the published index
  /// there; with the sun low, when ozone takes more of the UV than of the rest, it
  /// overstates by a step or two.
  public static let uvStep = 100.0

  /// The UV index estimated from the shortwave flux; nil without it.
  public var uvIndex: Int? {
    shortwave.map { Int(($0 / Self.uvStep).rounded()) }
  }

  /// The local hour of the day, 0–23.
  public var localHour: Int {
    let local = time + Int64(utcOffset)
    return Int(((local % 86_400) + 86_400) % 86_400 / 3_600)
  }

  /// Whether precipitation falls: a rate of at least `Metric.wetHour` mm/h, the threshold
  /// of the weather code and of the precipitation probability.
  public var isWet: Bool { (precipitation ?? 0) >= Metric.wetHour }

  /// Dark Sky's `precipType`, nil when the hour is dry: `snow` or `sleet` when the weather
  /// code is snow or freezing precipitation; otherwise by the snow's share of the amount,
  /// `snow` from 90 %, `sleet` (a mix) from 10 %, `rain` below.
  public var precipitationType: DarkSkyPrecipitation? {
    guard isWet, let total = precipitation else { return nil }
    switch weatherCode?.darkSky.dayIcon {
    case "snow": return .snow
    case "sleet": return .sleet
    default: break
    }
    let share = (snow ?? 0) / total
    return share >= 0.9 ? .snow : share >= 0.1 ? .sleet : .rain
  }
}

/// Dark Sky's precipitation types, which are also its icons for them.
public enum DarkSkyPrecipitation: String, Sendable, CaseIterable {
  case rain, snow, sleet
}
