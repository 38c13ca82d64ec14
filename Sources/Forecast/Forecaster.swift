import Meteorology
import PointQuery

/// Answers the questions a weather app asks about a point — now, today hour by hour, the
/// next hours, the next days — from a live store, stitching runs hour by hour.
///
/// Every hour comes from the newest run covering it (see `RunCatalog`), so days 1–3 can
/// come from the 12 UTC 72-hour run and days 4–7 from the 00 UTC 180-hour run. Each answer
/// carries the provenance of its values. Values are in the request's units; an hour no run
/// covers is nil, and a request none of whose hours is covered is an error.
///
/// A `Forecaster` is a value over a `ForecastStore`; the store picks up new runs on the
/// next call, so a service keeps one for its lifetime.
public struct Forecaster: Sendable {
  /// The store answers come from.
  public let store: ForecastStore

  /// Day counts a daily forecast may ask for.
  public static let dayLimit = 1...16
  /// Hour counts a next-hours forecast may ask for.
  public static let hourLimit = 1...384

  public init(store: ForecastStore) {
    self.store = store
  }

  /// The metrics named, in order; an unknown name is an error listing the known ones.
  public static func metrics(_ names: [String]) throws(ForecastError) -> [Metric] {
    try names.map { name throws(ForecastError) in
      guard let metric = Metric.named(name) else { throw .unknownMetric(name) }
      return metric
    }
  }

  /// `metrics` at each of `instants`.
  public func hourly(
    _ request: ForecastRequest, metrics: [Metric], instants: [Int64], utcOffsets: [Int]? = nil
  ) throws(ForecastError) -> HourlySeries {
    let reader = try reader(request, instants: instants)
    let (provenance, sourceOfHour) = reader.provenance()
    reader.prefetch(metrics)
    let values = metrics.map { metric in
      // Found once per metric: looking the unit up for every value (a string comparison of
      // the metric's unit each time) was a third of a day series' cost.
      let convert = request.units.conversion(of: metric)
      return reader.read(metric).map { $0.map { convert($0) } }
    }
    let offsets = utcOffsets ?? instants.map(request.timeZone.utcOffset(at:))
    return HourlySeries(
      metrics: metrics, hours: zip(instants, offsets).map { LocalHour(instant: $0, utcOffset: $1) }, values: values,
      provenance: provenance, sourceOfHour: sourceOfHour, units: request.units)
  }

  /// `metrics` at every hour of a local day: 24 values, or 23/25 on a DST day.
  public func day(
    _ request: ForecastRequest, metrics: [Metric], date: LocalDate
  ) throws(ForecastError)
    -> HourlySeries
  {
    try days(request, metrics: metrics, from: date, count: 1)
  }

  /// `metrics` at every hour of `count` local days from `start`.
  public func days(
    _ request: ForecastRequest, metrics: [Metric], from start: LocalDate, count: Int
  ) throws(ForecastError) -> HourlySeries {
    let hours = request.timeZone.days(from: start, count: count).flatMap(\.hours)
    return try hourly(request, metrics: metrics, instants: hours.map(\.instant), utcOffsets: hours.map(\.utcOffset))
  }

  /// `metrics` at `count` consecutive hours starting at `start`.
  public func nextHours(
    _ request: ForecastRequest, metrics: [Metric], from start: Int64, count: Int
  )
    throws(ForecastError) -> HourlySeries
  {
    guard Self.hourLimit.contains(count) else {
      throw .outOfRange(parameter: "hours", value: count, allowed: Self.hourLimit)
    }
    return try hourly(request, metrics: metrics, instants: (0..<count).map { start + Int64($0) * 3600 })
  }

  /// Every metric in `metrics` at `time`, with the local day's temperature maximum and
  /// minimum (from that day's hourly values).
  public func current(
    _ request: ForecastRequest, metrics: [Metric], at time: Int64
  ) throws(ForecastError)
    -> CurrentConditions
  {
    let now = try hourly(request, metrics: metrics, instants: [time])
    let today = try day(request, metrics: [.temp], date: request.timeZone.date(containing: time))
    let temperature = DailyStatistics(hourly: today.values[0])
    return CurrentConditions(
      time: time, metrics: metrics, values: now.values.map { $0[0] },
      provenance: now.provenance.first, temperatureMaximum: temperature.maximum,
      temperatureMinimum: temperature.minimum, units: request.units)
  }

  /// Daily summaries of `metrics` for `days` local days from `start`: each metric's median,
  /// extremes and (for amounts) total, the vector-mean wind, and (computed when asked for)
  /// sunrise and sunset.
  public func daily(
    _ request: ForecastRequest, metrics: [Metric], from start: LocalDate, days: Int
  )
    throws(ForecastError) -> [DailySummary]
  {
    try daily(request, metrics: metrics, medians: Set(metrics), from: start, days: days)
  }

  /// `daily`, computing medians only for `medians` (the others' are nil).
  func daily(
    _ request: ForecastRequest, metrics: [Metric], medians: Set<Metric>, from start: LocalDate, days: Int
  ) throws(ForecastError) -> [DailySummary] {
    guard Self.dayLimit.contains(days) else {
      throw .outOfRange(parameter: "days", value: days, allowed: Self.dayLimit)
    }
    let localDays = request.timeZone.days(from: start, count: days)
    let instants = localDays.flatMap { $0.hours.map(\.instant) }
    let reader = try reader(request, instants: instants)
    let (provenance, sourceOfHour) = reader.provenance()
    // A day's wind direction is that of its mean vector, from the hourly components; every
    // other metric (wind speed included) gets statistics of its hourly values.
    let stored = metrics.filter { $0 != .windDir }
    let wantsWind = metrics.contains(.windDir)
    let wantsMedian = stored.map(medians.contains)
    reader.prefetch(wantsWind ? stored + [.windU, .windV] : stored)
    var columns = [Double](repeating: .nan, count: instants.count * (stored.count + (wantsWind ? 2 : 0)))
    return columns.withUnsafeMutableBufferPointer { buffer in
      func column(_ index: Int) -> UnsafeMutableBufferPointer<Double> {
        UnsafeMutableBufferPointer(rebasing: buffer[(index * instants.count)..<((index + 1) * instants.count)])
      }
      for (index, metric) in stored.enumerated() {
        let values = column(index)
        reader.read(metric, into: values)
        let convert = request.units.conversion(of: metric)
        if convert != .identity {
          for hour in values.indices { values[hour] = convert(values[hour]) }  // NaN stays NaN
        }
      }
      if wantsWind {
        reader.read(.windU, into: column(stored.count))
        reader.read(.windV, into: column(stored.count + 1))
      }
      var first = 0
      return localDays.map { day in
        let hours = first..<(first + day.hours.count)
        first += day.hours.count
        let statistics = stored.indices.map { index in
          DailyStatistics(hourly: UnsafeBufferPointer(rebasing: column(index)[hours]), median: wantsMedian[index])
        }
        let wind =
          wantsWind
          ? DailyWind(
            u: UnsafeBufferPointer(rebasing: column(stored.count)[hours]),
            v: UnsafeBufferPointer(rebasing: column(stored.count + 1)[hours])) : nil
        var used: [Int] = []
        for hour in hours { if let source = sourceOfHour[hour], !used.contains(source) { used.append(source) } }
        return DailySummary(
          day: day, latitude: request.latitude, longitude: request.longitude, metrics: stored,
          statistics: statistics, wind: wind, provenance: used.sorted().map { provenance[$0] }, units: request.units)
      }
    }
  }

  /// Daily summaries with what `variables` need (medians only where asked for).
  public func daily(
    _ request: ForecastRequest, variables: [DailyVariable], from start: LocalDate, days: Int
  )
    throws(ForecastError) -> [DailySummary]
  {
    var metrics: [Metric] = []
    for metric in variables.compactMap(\.metric) where !metrics.contains(metric) { metrics.append(metric) }
    // Sorting a day for its median is most of a summary's cost; only medians asked for.
    let medians = Set(
      variables.compactMap { variable -> Metric? in
        if case .statistic(let metric, .median) = variable { return metric }
        return nil
      })
    return try daily(request, metrics: metrics, medians: medians, from: start, days: days)
  }

  /// Runs `body` for each request, collecting each answer or error: one failing point does
  /// not fail the batch.
  public func batch<Answer>(
    _ requests: [ForecastRequest], _ body: (Forecaster, ForecastRequest) throws(ForecastError) -> Answer
  ) -> [Result<Answer, ForecastError>] {
    requests.map { request in Result { () throws(ForecastError) in try body(self, request) } }
  }

  private func reader(_ request: ForecastRequest, instants: [Int64]) throws(ForecastError) -> HourlyReader {
    let sources: PointSources
    do {
      sources = try store.catalog.sources(
        latitude: request.latitude, longitude: request.longitude, method: request.method, domain: request.domain)
    } catch {
      throw .query(error)
    }
    let reader = HourlyReader(sources: sources, instants: instants)
    guard reader.coversAny else {
      throw .notCovered(first: instants.min() ?? 0, last: instants.max() ?? 0, runs: sources.coverage)
    }
    return reader
  }
}
