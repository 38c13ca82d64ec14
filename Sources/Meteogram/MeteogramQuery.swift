import Forecast
import Meteorology
import PointQuery

/// A meteogram's question — a point, its zone and units, and whole local days — read as
/// hourly values of whole local days from the point located once (`PointForecast.days`),
/// the read `/v1/forecast` and `nwpcube forecast` make, so that the chart shows the numbers
/// they print.
public struct MeteogramQuery: Sendable {
  /// Days a meteogram may cover.
  public static let dayLimit = 1...7
  /// The cell a meteogram answers from unless told otherwise: a land cell near the point,
  /// `/v1/forecast`'s default, so that a coastal town's chart is the town's, not the sea's.
  public static let defaultCellSelection = CellSelection.land
  /// Days drawn when none are asked for.
  public static let defaultDays = 3

  /// The hourly metrics a meteogram draws.
  public static let metrics: [Metric] = [
    .temp, .apparentTemp, .rain, .precipitationProbability, .windVel, .windGusts, .windDir, .cloudLow, .cloudMid,
    .cloudHigh, .weatherCode, .isDay,
  ]

  /// The point, method, zone and units (`MeteogramUnits.system`).
  public var request: ForecastRequest
  /// The first local day.
  public var start: LocalDate
  /// The number of local days, within `dayLimit`.
  public var days: Int

  public init(request: ForecastRequest, start: LocalDate, days: Int) {
    self.request = request
    self.start = start
    self.days = days
  }

  /// The chart of the days, from `forecaster`'s store.
  /// - Throws: `ForecastError` when the point is outside every domain, no run covers the
  ///   days, or `days` is outside `dayLimit`.
  public func chart(_ forecaster: Forecaster) throws(ForecastError) -> MeteogramChart {
    guard Self.dayLimit.contains(days) else {
      throw .outOfRange(parameter: "days", value: days, allowed: Self.dayLimit)
    }
    let series = try forecaster.point(request).days(metrics: Self.metrics, from: start, count: days)
    return MeteogramChart(request: request, series: series)
  }
}
