import Forecast
import Meteorology

/// What an hourly, current or `minutely_15` column of `/v1/forecast` holds: a catalogue
/// metric, or one of the two Open-Meteo quantities nwpcube computes from several metrics.
public enum OpenMeteoQuantity: Sendable, Hashable {
  /// The metric's value in the request's units.
  case metric(Metric)
  /// Open-Meteo's `rain`: the non-convective liquid part of the precipitation,
  /// `rain − showers − snow` (total minus convective minus snow water equivalent), at least
  /// 0. In WRF terms RAINNC − SNOWNC deaccumulated: the grid-scale water that did not fall
  /// as snow (graupel and hail count as liquid here, as WRF has no separate rain field).
  /// nwpcube's own metric `rain` is the total, Open-Meteo's `precipitation`.
  case liquidRain
  /// Open-Meteo's `shortwave_radiation`: the mean flux over the interval ending at the time
  /// (the preceding hour for hourly values, the preceding 15 minutes for current and
  /// `minutely_15`). The cube stores WRF's instantaneous SWDOWN; the mean is the trapezoid
  /// of the values at the interval's start and end, which is exact for a flux varying
  /// linearly over the interval and is what the cube's own steps give when they are that
  /// interval apart.
  case shortwaveMean

  /// The stored or derived metrics the quantity is computed from.
  public var inputs: [Metric] {
    switch self {
    case .metric(let metric): [metric]
    case .liquidRain: [.rain, .showers, .snow]
    case .shortwaveMean: [.shortwave]
    }
  }
}

/// What a daily column of `/v1/forecast` holds.
public enum OpenMeteoDailyQuantity: Sendable, Hashable {
  /// One of nwpcube's daily variables, as it computes it.
  case variable(DailyVariable)
  /// `rain_sum`: the day's `liquidRain`, the precipitation total less the convective and
  /// snow water totals (the hourly difference is never negative, so the difference of the
  /// sums is the sum of the differences), at least 0.
  case liquidRainSum
  /// `shortwave_radiation_sum`, MJ/m²: the day's hourly SWDOWN values × 3600 s. This is the
  /// sum of the hourly trapezoid means whenever the flux is zero at both of the day's
  /// midnights, as it is wherever local midnight is dark.
  case shortwaveSum

  /// The daily variables the quantity is computed from.
  public var inputs: [DailyVariable] {
    switch self {
    case .variable(let variable): [variable]
    case .liquidRainSum: [.statistic(.rain, .sum), .statistic(.showers, .sum), .statistic(.snow, .sum)]
    case .shortwaveSum: [.statistic(.shortwave, .sum)]
    }
  }
}

/// Open-Meteo's variable names, each mapped onto nwpcube: the one table of the names
/// `/v1/forecast` speaks. nwpcube's own metric and daily names stay accepted beside them.
public enum OpenMeteoNames {
  /// Hourly, current and `minutely_15` names, in Open-Meteo's documentation order.
  public static let hourly: [(name: String, quantity: OpenMeteoQuantity)] = [
    ("temperature_2m", .metric(.temp)),
    ("relative_humidity_2m", .metric(.hum)),
    ("dew_point_2m", .metric(.dewPoint)),
    ("apparent_temperature", .metric(.apparentTemp)),
    ("precipitation_probability", .metric(.precipitationProbability)),
    ("precipitation", .metric(.rain)),
    ("rain", .liquidRain),
    ("showers", .metric(.showers)),
    ("snowfall", .metric(.snowfall)),
    ("snow_depth", .metric(.snowDepth)),
    ("weather_code", .metric(.weatherCode)),
    ("pressure_msl", .metric(.atmPress)),
    ("surface_pressure", .metric(.sfcPress)),
    ("cloud_cover", .metric(.cloud)),
    ("cloud_cover_low", .metric(.cloudLow)),
    ("cloud_cover_mid", .metric(.cloudMid)),
    ("cloud_cover_high", .metric(.cloudHigh)),
    ("visibility", .metric(.visibility)),
    ("wind_speed_10m", .metric(.windVel)),
    ("wind_direction_10m", .metric(.windDir)),
    ("wind_gusts_10m", .metric(.windGusts)),
    ("shortwave_radiation", .shortwaveMean),
    ("is_day", .metric(.isDay)),
  ]

  /// Daily names, in Open-Meteo's documentation order.
  public static let daily: [(name: String, quantity: OpenMeteoDailyQuantity)] = [
    ("weather_code", .variable(.weatherCode)),
    ("temperature_2m_max", .variable(.statistic(.temp, .max))),
    ("temperature_2m_min", .variable(.statistic(.temp, .min))),
    ("apparent_temperature_max", .variable(.statistic(.apparentTemp, .max))),
    ("apparent_temperature_min", .variable(.statistic(.apparentTemp, .min))),
    ("sunrise", .variable(.sunrise)),
    ("sunset", .variable(.sunset)),
    ("daylight_duration", .variable(.daylightDuration)),
    ("precipitation_sum", .variable(.statistic(.rain, .sum))),
    ("rain_sum", .liquidRainSum),
    ("showers_sum", .variable(.statistic(.showers, .sum))),
    ("snowfall_sum", .variable(.statistic(.snowfall, .sum))),
    ("precipitation_hours", .variable(.precipitationHours)),
    ("precipitation_probability_max", .variable(.statistic(.precipitationProbability, .max))),
    ("wind_speed_10m_max", .variable(.statistic(.windVel, .max))),
    ("wind_gusts_10m_max", .variable(.statistic(.windGusts, .max))),
    ("wind_direction_10m_dominant", .variable(.windDirectionDominant)),
    ("shortwave_radiation_sum", .shortwaveSum),
  ]

  private static let hourlyByName = Dictionary(uniqueKeysWithValues: hourly.map { ($0.name, $0.quantity) })
  private static let dailyByName = Dictionary(uniqueKeysWithValues: daily.map { ($0.name, $0.quantity) })

  /// The hourly quantity called `name`: an Open-Meteo name, else one of nwpcube's metric
  /// names (where the two spell the same word, as `weather_code` and `rain` do, Open-Meteo's
  /// meaning wins).
  public static func hourly(_ name: String) -> OpenMeteoQuantity? {
    hourlyByName[name] ?? Metric.named(name).map(OpenMeteoQuantity.metric)
  }

  /// The daily quantities `name` stands for: an Open-Meteo name, else one of nwpcube's
  /// daily names (a bare metric name stands for several, see `DailyVariable.defaults`), each
  /// with the name its column is keyed by. Nil when it is neither.
  public static func daily(_ name: String) -> [(name: String, quantity: OpenMeteoDailyQuantity)]? {
    if let quantity = dailyByName[name] { return [(name, quantity)] }
    guard let variables = try? DailyVariable.parse(list: name) else { return nil }
    return variables.map { ($0.description, .variable($0)) }
  }

  /// The hourly names, for messages.
  public static var hourlyList: String { hourly.map(\.name).joined(separator: ", ") }
  /// The daily names, for messages.
  public static var dailyList: String { daily.map(\.name).joined(separator: ", ") }
}
