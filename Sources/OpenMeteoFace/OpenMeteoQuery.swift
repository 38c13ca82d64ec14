import FaceKit
import Forecast
import Meteorology
import PointQuery

/// One point's `/v1/forecast` question in Open-Meteo's terms: the columns of each block,
/// each under the name the request gave it, and the times of each block.
public struct OpenMeteoQuery: Sendable {
  /// A column of the current, hourly or `minutely_15` block.
  public struct Column: Sendable, Hashable {
    /// The name as the request spelled it, which the answer keys the column by.
    public let name: String
    public let quantity: OpenMeteoQuantity

    public init(name: String, quantity: OpenMeteoQuantity) {
      self.name = name
      self.quantity = quantity
    }
  }

  /// A daily column.
  public struct DailyColumn: Sendable, Hashable {
    public let name: String
    public let quantity: OpenMeteoDailyQuantity

    public init(name: String, quantity: OpenMeteoDailyQuantity) {
      self.name = name
      self.quantity = quantity
    }
  }

  /// The point, method, domain, zone and units.
  public var request: ForecastRequest
  public var current: [Column] = []
  /// The start of the current quarter hour, Unix seconds.
  public var currentTime: Int64 = 0
  public var hourly: [Column] = []
  /// The hours of the hourly block, with their local offsets.
  public var hours: [LocalHour] = []
  public var minutely15: [Column] = []
  /// The quarter hours of the `minutely_15` block.
  public var quarters: [LocalHour] = []
  public var daily: [DailyColumn] = []
  /// The first local day of the daily block, and the number of days.
  public var start: LocalDate
  public var days: Int

  /// Seconds a current value describes, as Open-Meteo's `interval`.
  public static let currentInterval = CurrentInterval.seconds

  public init(request: ForecastRequest, start: LocalDate, days: Int) {
    self.request = request
    self.start = start
    self.days = days
  }

  /// Reads every block asked for.
  /// - Throws: `ForecastError` when the point is outside every domain or no run covers a
  ///   block's times.
  public func answer(_ forecaster: Forecaster) throws(ForecastError) -> OpenMeteoAnswer {
    // The point is located once for every block; a request for no variable asks nothing of
    // it, even outside every domain.
    guard !(self.current.isEmpty && self.hourly.isEmpty && minutely15.isEmpty && self.daily.isEmpty) else {
      return OpenMeteoAnswer(
        query: self, current: nil, hourly: nil, minutely15: nil, minutely15Steps: [], daily: nil)
    }
    let point = try forecaster.point(request)
    let current =
      self.current.isEmpty
      ? nil
      : try block(
        self.current, times: [LocalHour(instant: currentTime, utcOffset: request.timeZone.utcOffset(at: currentTime))],
        interval: Self.currentInterval, point)
    let hourly = self.hourly.isEmpty ? nil : try block(self.hourly, times: hours, interval: 3_600, point)
    let minutely = minutely15.isEmpty ? nil : try block(minutely15, times: quarters, interval: 900, point)
    let minutelySteps = minutely == nil ? [] : point.sources.sources.map(\.cube.stepLength)
    let daily = self.daily.isEmpty ? nil : try dailyBlock(point)
    return OpenMeteoAnswer(
      query: self, current: current, hourly: hourly, minutely15: minutely, minutely15Steps: minutelySteps,
      daily: daily)
  }

  /// The columns at `times`, each value describing the `interval` ending at its time where
  /// the quantity is an amount or a mean.
  private func block(
    _ columns: [Column], times: [LocalHour], interval: Int64, _ point: PointForecast
  ) throws(ForecastError) -> OpenMeteoAnswer.Block {
    var metrics: [Metric] = []
    for column in columns {
      for metric in column.quantity.inputs where !metrics.contains(metric) { metrics.append(metric) }
    }
    let instants = times.map(\.instant)
    let series = try point.hourly(metrics: metrics, instants: instants, utcOffsets: times.map(\.utcOffset))
    // The flux at each interval's start, for the means; an interval starting before every
    // run has no mean.
    var previous: [Double?] = []
    if columns.contains(where: { $0.quantity == .shortwaveMean }) {
      let earlier = try? point.hourly(metrics: [.shortwave], instants: instants.map { $0 - interval })
      previous = earlier?.values[0] ?? Array(repeating: nil, count: instants.count)
    }
    // An amount is stored per hour; a shorter interval gets its share of the hour.
    let share = Double(interval) / 3_600
    func scaled(_ values: [Double?]) -> [Double?] {
      share == 1 ? values : values.map { $0.map { $0 * share } }
    }
    let values = columns.map { column -> [Double?] in
      switch column.quantity {
      case .metric(let metric):
        let values = series.values(of: metric) ?? []
        return OpenMeteoAnswer.isAmount(metric) ? scaled(values) : values
      case .liquidRain:
        let (total, showers, snow) = (series.values(of: .rain), series.values(of: .showers), series.values(of: .snow))
        return scaled(
          instants.indices.map { index -> Double? in
            guard let total = total?[index], let showers = showers?[index], let snow = snow?[index] else { return nil }
            return max(0, total - showers - snow)
          })
      case .shortwaveMean:
        let now = series.values(of: .shortwave) ?? []
        return zip(previous, now).map { before, after in
          guard let before, let after else { return nil }
          return (before + after) / 2
        }
      }
    }
    return OpenMeteoAnswer.Block(times: times, values: values, series: series)
  }

  private func dailyBlock(_ point: PointForecast) throws(ForecastError) -> OpenMeteoAnswer.Daily {
    // No day asks nothing of the runs (`forecast_days=0`).
    guard days > 0 else { return OpenMeteoAnswer.Daily(summaries: [], values: daily.map { _ in [] }) }
    var variables: [DailyVariable] = []
    for column in daily {
      for variable in column.quantity.inputs where !variables.contains(variable) { variables.append(variable) }
    }
    let summaries = try point.daily(variables: variables, from: start, days: days)
    let values = daily.map { column -> [Double?] in
      summaries.map { summary -> Double? in
        switch column.quantity {
        case .variable(let variable):
          return variable.value(in: summary)
        case .liquidRainSum:
          let sums = column.quantity.inputs.map { $0.value(in: summary) }
          guard let total = sums[0], let showers = sums[1], let snow = sums[2] else { return nil }
          return max(0, total - showers - snow)
        case .shortwaveSum:
          // W/m² over an hour each: J/m² = W/m² · 3600 s, MJ/m² = J/m² / 10⁶.
          return DailyVariable.statistic(.shortwave, .sum).value(in: summary).map { $0 * 0.0036 }
        }
      }
    }
    return OpenMeteoAnswer.Daily(summaries: summaries, values: values)
  }
}

/// The values of an `OpenMeteoQuery`, in the request's units, ready to be written.
public struct OpenMeteoAnswer: Sendable {
  /// A block of values at times.
  public struct Block: Sendable {
    public let times: [LocalHour]
    /// `values[c][t]`: column c at time t.
    public let values: [[Double?]]
    /// Where the values came from.
    public let series: HourlySeries
  }

  /// The daily block.
  public struct Daily: Sendable {
    public let summaries: [DailySummary]
    /// `values[c][d]`: column c on day d.
    public let values: [[Double?]]
  }

  public let query: OpenMeteoQuery
  public let current: Block?
  public let hourly: Block?
  public let minutely15: Block?
  /// The step lengths (seconds) of the cubes that could answer the point, for saying how
  /// `minutely_15` was made.
  public let minutely15Steps: [Int64]
  public let daily: Daily?

  /// Whether `metric` is an amount over the hour ending at its time (a depth, which a
  /// shorter interval gets a share of), rather than a rate, a state or a percentage.
  static func isAmount(_ metric: Metric) -> Bool {
    metric == .rain || metric == .showers || metric == .snow || metric == .snowfall
  }
}
