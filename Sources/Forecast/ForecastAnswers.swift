import Meteorology

/// Hourly values of several metrics at one point.
public struct HourlySeries: Sendable {
  /// The metrics, in the order asked for.
  public let metrics: [Metric]
  /// The hours, with their local offsets.
  public let hours: [LocalHour]
  /// `values[m][h]`: metric `m` at hour `h`, in `units`; nil where missing or no run covers
  /// the hour.
  public let values: [[Double?]]
  /// The cubes the values came from, in order of first use.
  public let provenance: [Provenance]
  /// For each hour, its index in `provenance`, or nil where no run covers it.
  public let sourceOfHour: [Int?]
  /// When `precipitation_probability` was asked for, for each hour the indices in
  /// `provenance` of the runs whose `precip_neighbourhood` it averages, newest first (one
  /// run: the value is that run's neighbourhood share; none: no run had a value); empty
  /// otherwise.
  public let probabilityMembers: [[Int]]
  /// The units of `values`.
  public let units: UnitSystem

  /// The values of `metric`, or nil when it was not asked for.
  public func values(of metric: Metric) -> [Double?]? {
    metrics.firstIndex(of: metric).map { values[$0] }
  }
}

/// Conditions at one time, with the local day's temperature range.
public struct CurrentConditions: Sendable {
  /// Unix seconds.
  public let time: Int64
  public let metrics: [Metric]
  /// One value per metric, in `units`; nil where missing.
  public let values: [Double?]
  /// The cube that answered.
  public let provenance: Provenance?
  /// The runs whose `precip_neighbourhood` `precipitation_probability` averages, newest
  /// first; empty when it was not asked for or no run had a value.
  public let probabilityMembers: [Provenance]
  /// The highest and lowest hourly temperature of the local day containing `time`, in
  /// `units` (nil when no hour of the day is covered).
  public let temperatureMaximum: Double?
  public let temperatureMinimum: Double?
  public let units: UnitSystem

  /// The value of `metric`, or nil when missing or not asked for.
  public func value(of metric: Metric) -> Double? {
    metrics.firstIndex(of: metric).flatMap { values[$0] }
  }
}

/// One local day's summary at a point.
public struct DailySummary: Sendable {
  /// The local day: date, bounds and hours (23 or 25 on DST days).
  public let day: LocalDay
  /// The point, for `sun`.
  public let latitude: Double
  public let longitude: Double
  /// Every day's statistics of the forecast this summary belongs to, and this day's place
  /// in it.
  let table: DailyStatisticsTable
  let dayIndex: Int
  /// The day's wind from its hourly components, speeds in m/s (convert with `units`);
  /// nil unless wind direction was asked for.
  public let wind: DailyWind?
  /// The day's most significant weather and wet hours; nil unless asked for.
  public let conditions: DailyConditions?
  /// The cubes the day's values came from.
  public let provenance: [Provenance]
  public let units: UnitSystem

  init(
    day: LocalDay, latitude: Double, longitude: Double, statistics: DailyStatisticsTable, dayIndex: Int,
    wind: DailyWind?, conditions: DailyConditions? = nil, provenance: [Provenance], units: UnitSystem
  ) {
    self.day = day
    self.latitude = latitude
    self.longitude = longitude
    self.table = statistics
    self.dayIndex = dayIndex
    self.wind = wind
    self.conditions = conditions
    self.provenance = provenance
    self.units = units
  }

  /// The metrics summarised (wind direction is in `wind`).
  public var metrics: [Metric] { table.metrics }

  /// Per metric, in `units`: median, minimum, maximum and total of the hourly values.
  public var statistics: [DailyStatistics] { table.metrics.indices.map { table[metric: $0, day: dayIndex] } }

  /// The statistics of `metric`, or nil when it was not asked for.
  public func statistics(of metric: Metric) -> DailyStatistics? {
    table.metrics.firstIndex(of: metric).map { table[metric: $0, day: dayIndex] }
  }

  /// Sunrise and sunset at the point within the local day, computed on each call (about a
  /// microsecond) so that summaries that do not show them do not pay for them.
  public var sun: SolarEvents {
    SolarEvents(latitude: latitude, longitude: longitude, from: day.start, to: day.end)
  }

  /// Seconds the sun's centre is above the apparent horizon within the local day.
  public var daylightDuration: Int64 {
    SolarEvents.daylight(latitude: latitude, longitude: longitude, from: day.start, to: day.end)
  }

  /// The mean wind speed in `units`.
  public var meanWindSpeed: Double? {
    wind?.meanSpeed.map { units.convert($0, of: .windVel) }
  }
}

/// The statistics of every metric on every day of one daily forecast, in one array that
/// the forecast's summaries share: a summary per day does not mean an allocation per day.
/// A class, so that a summary holds it with one reference.
final class DailyStatisticsTable: Sendable {
  let metrics: [Metric]
  let days: Int
  /// Metric-major: metric m on day d is at m · days + d.
  let statistics: [DailyStatistics]

  init(metrics: [Metric], days: Int, statistics: [DailyStatistics]) {
    self.metrics = metrics
    self.days = days
    self.statistics = statistics
  }

  subscript(metric metric: Int, day day: Int) -> DailyStatistics { statistics[metric * days + day] }
}
