import Meteorology

/// One value per day that a forecast can ask for, named as in `--daily` and `daily=`:
/// `<metric>_<statistic>` (`temp_max`, `hum_median`, `rain_sum`, `wind_vel_max`),
/// `wind_dir_dominant` (the direction of the day's mean wind vector), `weather_code` (the
/// day's most significant hourly code), `precipitation_hours`, `sunrise`, `sunset` and
/// `daylight_duration`.
public enum DailyVariable: Sendable, Hashable, CustomStringConvertible {
  /// A statistic of a metric's hourly values.
  case statistic(Metric, DailyStatistic)
  /// Where the day's mean wind vector blows from, degrees.
  case windDirectionDominant
  /// The most significant of the day's hourly weather codes (`WeatherCode.mostSignificant`).
  case weatherCode
  /// How many of the day's hours have at least 0.1 mm of precipitation (`rain`).
  case precipitationHours
  case sunrise
  case sunset
  /// Seconds the sun's centre is above the apparent horizon within the local day.
  case daylightDuration

  /// What a day's hourly values are summarised by.
  public enum DailyStatistic: String, Sendable, CaseIterable {
    case median, min, max, sum
  }

  /// The variables a bare metric name stands for: a total for hourly amounts (rain, snow),
  /// the most significant code for `weather_code`, the median and extremes for the rest,
  /// the dominant direction for `wind_dir`.
  public static func defaults(for metric: Metric) -> [DailyVariable] {
    if metric == .windDir { return [.windDirectionDominant] }
    if metric == .weatherCode { return [.weatherCode] }
    if metric == .precipitationProbability || metric == .isDay { return [.statistic(metric, .max)] }
    if metric.temporal == .hourlyAmount { return [.statistic(metric, .sum)] }
    return [.statistic(metric, .median), .statistic(metric, .min), .statistic(metric, .max)]
  }

  /// Parses a comma-separated list; a bare metric name expands to its `defaults`.
  public static func parse(list: String) throws(ForecastError) -> [DailyVariable] {
    var variables: [DailyVariable] = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
      for variable in try parse(name) where !variables.contains(variable) { variables.append(variable) }
    }
    return variables
  }

  private static func parse(_ name: String) throws(ForecastError) -> [DailyVariable] {
    switch name {
    case "sunrise": return [.sunrise]
    case "sunset": return [.sunset]
    case "wind_dir_dominant": return [.windDirectionDominant]
    case "precipitation_hours": return [.precipitationHours]
    case "daylight_duration": return [.daylightDuration]
    default: break
    }
    if let metric = Metric.named(name) { return defaults(for: metric) }
    if let separator = name.lastIndex(of: "_"),
      let metric = Metric.named(String(name[..<separator])), metric != .windDir, metric != .weatherCode,
      let statistic = DailyStatistic(rawValue: String(name[name.index(after: separator)...]))
    {
      return [.statistic(metric, statistic)]
    }
    throw .unknownDailyVariable(name)
  }

  /// The name as asked for and as answers key it.
  public var description: String {
    switch self {
    case .statistic(let metric, let statistic): "\(metric.name)_\(statistic.rawValue)"
    case .windDirectionDominant: "wind_dir_dominant"
    case .weatherCode: "weather_code"
    case .precipitationHours: "precipitation_hours"
    case .sunrise: "sunrise"
    case .sunset: "sunset"
    case .daylightDuration: "daylight_duration"
    }
  }

  /// The metric whose hourly values the variable needs, if any.
  public var metric: Metric? {
    switch self {
    case .statistic(let metric, _): metric
    case .windDirectionDominant: .windDir
    case .weatherCode: .weatherCode
    case .precipitationHours: .rain
    case .sunrise, .sunset, .daylightDuration: nil
    }
  }

  /// The variable's value on one day, in the summary's units (Unix seconds for sunrise and
  /// sunset, seconds for daylight, hours for precipitation hours); nil when it has none.
  public func value(in summary: DailySummary) -> Double? {
    switch self {
    case .statistic(let metric, let statistic):
      guard let statistics = summary.statistics(of: metric) else { return nil }
      return switch statistic {
      case .median: statistics.median
      case .min: statistics.minimum
      case .max: statistics.maximum
      case .sum: statistics.sum
      }
    case .windDirectionDominant: return summary.wind?.direction
    case .weatherCode: return summary.conditions?.weatherCode.map { Double($0.rawValue) }
    case .precipitationHours: return summary.conditions?.precipitationHours.map(Double.init)
    case .sunrise: return summary.sun.sunrise.map(Double.init)
    case .sunset: return summary.sun.sunset.map(Double.init)
    case .daylightDuration: return Double(summary.daylightDuration)
    }
  }
}
