import Forecast
import Meteorology

/// What one forecast answer holds — current conditions, hourly values and daily summaries
/// for whole local days — turned into a `ForecastDocument` by `answer(_:)`.
///
/// `nwpcube forecast` and `/v1/forecast` both describe their answer this way, so that the
/// two read the store the same way and print the same numbers.
public struct ForecastQuery: Sendable {
  /// The point, method, zone and units.
  public var request: ForecastRequest
  /// Metrics for the current-conditions block; empty for none.
  public var current: [Metric]
  /// The instant (Unix seconds) current conditions are for.
  public var currentTime: Int64
  /// Metrics for every hour of the days; empty for none.
  public var hourly: [Metric]
  /// Variables for each day; empty for none.
  public var daily: [DailyVariable]
  /// The first local day (in `request.timeZone`).
  public var start: LocalDate
  /// The number of local days hourly and daily values cover.
  public var days: Int

  public init(
    request: ForecastRequest, current: [Metric] = [], currentTime: Int64 = 0, hourly: [Metric] = [],
    daily: [DailyVariable] = [], start: LocalDate, days: Int
  ) {
    self.request = request
    self.current = current
    self.currentTime = currentTime
    self.hourly = hourly
    self.daily = daily
    self.start = start
    self.days = days
  }

  /// Reads the blocks asked for from `forecaster`'s catalog, the point located once.
  /// - Throws: `ForecastError` when the point is outside every domain, no run covers a
  ///   block's times, or `days` is out of `Forecaster.dayLimit` for daily values.
  public func answer(_ forecaster: Forecaster) throws(ForecastError) -> ForecastDocument {
    // A request for no block asks nothing of the point, even outside every domain.
    guard !(current.isEmpty && hourly.isEmpty && daily.isEmpty) else {
      return ForecastDocument(request: request, current: nil, hourly: nil, dailyVariables: daily, daily: [])
    }
    let point = try forecaster.point(request)
    let conditions = current.isEmpty ? nil : try point.current(metrics: current, at: currentTime)
    let series = hourly.isEmpty ? nil : try point.days(metrics: hourly, from: start, count: days)
    let summaries = daily.isEmpty ? [] : try point.daily(variables: daily, from: start, days: days)
    return ForecastDocument(
      request: request, current: conditions, hourly: series, dailyVariables: daily, daily: summaries)
  }
}
