import Meteorology
import PointQuery

/// Answers the questions a weather app asks about a point — now, today hour by hour, the
/// next hours, the next days — from one catalog of runs, stitching runs hour by hour
/// (`PointForecast` says how).
///
/// A `Forecaster` is a value over one `RunCatalog`, an immutable snapshot of a store: a
/// request makes one from the store's current catalog and asks it every question of the
/// request, so that a run published meanwhile cannot mix into one answer. A request about
/// one point locates it once (`point(_:)`) and asks the `PointForecast`.
public struct Forecaster: Sendable {
  /// The runs answers come from.
  public let catalog: RunCatalog

  /// Day counts a daily forecast may ask for.
  public static let dayLimit = 1...16
  /// Hour counts a next-hours forecast may ask for.
  public static let hourLimit = 1...384

  /// A forecaster over `catalog` (a store's `catalog`, taken once per request).
  public init(catalog: RunCatalog) {
    self.catalog = catalog
  }

  /// The metrics named, in order; an unknown name is an error listing the known ones.
  public static func metrics(_ names: [String]) throws(ForecastError) -> [Metric] {
    try names.map { name throws(ForecastError) in
      guard let metric = Metric.named(name) else { throw .unknownMetric(name) }
      return metric
    }
  }

  /// The point of `request` located in every cube of the catalog that holds it, from which
  /// every answer of a request is read.
  /// - Throws: `ForecastError.query` when the point is outside every domain.
  public func point(_ request: ForecastRequest) throws(ForecastError) -> PointForecast {
    try PointForecast(request, catalog: catalog)
  }

  // Each question below locates the point anew: a request asking several questions of one
  // point makes a `point(_:)` once and asks it.

  /// `metrics` at each of `instants` (see `PointForecast.hourly`).
  public func hourly(
    _ request: ForecastRequest, metrics: [Metric], instants: [Int64], utcOffsets: [Int]? = nil
  ) throws(ForecastError) -> HourlySeries {
    try point(request).hourly(metrics: metrics, instants: instants, utcOffsets: utcOffsets)
  }

  /// `metrics` at every hour of a local day: 24 values, or 23/25 on a DST day.
  public func day(_ request: ForecastRequest, metrics: [Metric], date: LocalDate) throws(ForecastError) -> HourlySeries
  {
    try point(request).day(metrics: metrics, date: date)
  }

  /// `metrics` at every hour of `count` local days from `start`.
  public func days(
    _ request: ForecastRequest, metrics: [Metric], from start: LocalDate, count: Int
  ) throws(ForecastError) -> HourlySeries {
    try point(request).days(metrics: metrics, from: start, count: count)
  }

  /// `metrics` at `count` consecutive hours starting at `start`.
  public func nextHours(
    _ request: ForecastRequest, metrics: [Metric], from start: Int64, count: Int
  ) throws(ForecastError) -> HourlySeries {
    try point(request).nextHours(metrics: metrics, from: start, count: count)
  }

  /// Every metric in `metrics` at `time`, with the local day's temperature maximum and
  /// minimum.
  public func current(
    _ request: ForecastRequest, metrics: [Metric], at time: Int64
  ) throws(ForecastError) -> CurrentConditions {
    try point(request).current(metrics: metrics, at: time)
  }

  /// Daily summaries of `metrics` for `days` local days from `start`.
  public func daily(
    _ request: ForecastRequest, metrics: [Metric], from start: LocalDate, days: Int
  ) throws(ForecastError) -> [DailySummary] {
    try point(request).daily(metrics: metrics, from: start, days: days)
  }

  /// Daily summaries with what `variables` need (medians only where asked for).
  public func daily(
    _ request: ForecastRequest, variables: [DailyVariable], from start: LocalDate, days: Int
  ) throws(ForecastError) -> [DailySummary] {
    try point(request).daily(variables: variables, from: start, days: days)
  }

  /// Runs `body` for each request, collecting each answer or error: one failing point does
  /// not fail the batch.
  public func batch<Answer>(
    _ requests: [ForecastRequest], _ body: (Forecaster, ForecastRequest) throws(ForecastError) -> Answer
  ) -> [Result<Answer, ForecastError>] {
    requests.map { request in Result { () throws(ForecastError) in try body(self, request) } }
  }
}
