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
  /// The metrics summarised (wind direction is in `wind`).
  public let metrics: [Metric]
  /// Per metric, in `units`: median, minimum, maximum and total of the hourly values.
  public let statistics: [DailyStatistics]
  /// The day's wind from its hourly components, speeds in m/s (convert with `units`);
  /// nil unless wind direction was asked for.
  public let wind: DailyWind?
  /// The cubes the day's values came from.
  public let provenance: [Provenance]
  public let units: UnitSystem

  /// The statistics of `metric`, or nil when it was not asked for.
  public func statistics(of metric: Metric) -> DailyStatistics? {
    metrics.firstIndex(of: metric).map { statistics[$0] }
  }

  /// Sunrise and sunset at the point within the local day, computed on each call (about a
  /// microsecond) so that summaries that do not show them do not pay for them.
  public var sun: SolarEvents {
    SolarEvents(latitude: latitude, longitude: longitude, from: day.start, to: day.end)
  }

  /// The mean wind speed in `units`.
  public var meanWindSpeed: Double? {
    wind?.meanSpeed.map { units.convert($0, of: .windVel) }
  }
}
