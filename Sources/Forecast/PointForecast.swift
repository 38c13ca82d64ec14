import Meteorology
import PointQuery

/// A forecast at one point over one catalog: the point is located in every cube that
/// holds it once, when the value is made (`Forecaster.point(_:)`), and every answer of a
/// request — current conditions, hours, days, quarter hours, the next hours — is read
/// from those locations.
///
/// Every hour comes from the newest run covering it (see `RunCatalog`), so days 1–3 can
/// come from the 12 UTC 72-hour run and days 4–7 from the 00 UTC 180-hour run. Each answer
/// carries the provenance of its values. Values are in the request's units; an hour no run
/// covers is nil, and a request none of whose hours is covered is an error.
public struct PointForecast: Sendable {
  /// The question: the point, its time zone, units, method and elevation.
  public let request: ForecastRequest
  /// The catalog the point was located in.
  public let catalog: RunCatalog
  /// The cubes holding the point, with its location in each.
  public let sources: PointSources
  /// The model's terrain height at the point in each source whose grid does not move (nil
  /// for a moving grid, whose height is its position's, and where the cube has no
  /// terrain): found once, for `elevation=`'s correction.
  private let fixedTerrain: [Double?]

  /// The same point, answering in `units`: nothing is located again.
  public func inUnits(_ units: UnitSystem) -> PointForecast {
    var request = self.request
    request.units = units
    return PointForecast(request: request, catalog: catalog, sources: sources, fixedTerrain: fixedTerrain)
  }

  private init(request: ForecastRequest, catalog: RunCatalog, sources: PointSources, fixedTerrain: [Double?]) {
    (self.request, self.catalog, self.sources, self.fixedTerrain) = (request, catalog, sources, fixedTerrain)
  }

  /// Locates `request`'s point in `catalog`.
  init(_ request: ForecastRequest, catalog: RunCatalog) throws(ForecastError) {
    self.request = request
    self.catalog = catalog
    do {
      sources = try catalog.sources(
        latitude: request.latitude, longitude: request.longitude, method: request.method, domain: request.domain,
        cellSelection: request.cellSelection)
    } catch {
      throw .query(error)
    }
    // A cube that does not know its terrain answers uncorrected; a damaged block read here
    // is found by the reads' intact check.
    fixedTerrain =
      request.elevation == nil
      ? []
      : sources.sources.map { source in
        source.cube.isMoving ? nil : (try? source.cube.terrainHeight(at: source.location)) ?? nil
      }
  }

  /// `metrics` at each of `instants`.
  public func hourly(
    metrics: [Metric], instants: [Int64], utcOffsets: [Int]? = nil
  ) throws(ForecastError) -> HourlySeries {
    // No times asks nothing of the runs (`forecast_hours=0`): an empty series, not a search
    // for a run that covers no time.
    guard !instants.isEmpty else {
      return HourlySeries(
        metrics: metrics, hours: [], values: metrics.map { _ in [] }, provenance: [], sourceOfHour: [],
        probabilityMembers: [], units: request.units)
    }
    var reader = try reader(instants: instants)
    var (provenance, sourceOfHour) = reader.provenance()
    var probabilityMembers: [[Int]] = []
    if metrics.contains(.precipitationProbability) {
      let probabilities = reader.probabilities()
      (provenance, probabilityMembers) = reader.probabilityMembers(provenance, probabilities: probabilities)
      reader.knownProbabilities = probabilities
    }
    var columns = [Double](repeating: .nan, count: metrics.count * instants.count)
    reader.prefetch(metrics)
    columns.withUnsafeMutableBufferPointer { reader.read(metrics, into: $0) }
    try reader.checkIntact()
    let values = metrics.enumerated().map { index, metric in
      // Found once per metric: looking the unit up for every value was a third of a day
      // series' cost.
      let convert = request.units.conversion(of: metric)
      return columns[(index * instants.count)..<((index + 1) * instants.count)].map { $0.isNaN ? nil : convert($0) }
    }
    let offsets = utcOffsets ?? instants.map(request.timeZone.utcOffset(at:))
    return HourlySeries(
      metrics: metrics, hours: zip(instants, offsets).map { LocalHour(instant: $0, utcOffset: $1) }, values: values,
      provenance: provenance, sourceOfHour: sourceOfHour, probabilityMembers: probabilityMembers,
      units: request.units)
  }

  /// `metrics` at every hour of a local day: 24 values, or 23/25 on a DST day.
  public func day(metrics: [Metric], date: LocalDate) throws(ForecastError) -> HourlySeries {
    try days(metrics: metrics, from: date, count: 1)
  }

  /// `metrics` at every hour of `count` local days from `start`.
  public func days(metrics: [Metric], from start: LocalDate, count: Int) throws(ForecastError) -> HourlySeries {
    let hours = request.timeZone.days(from: start, count: count).flatMap(\.hours)
    return try hourly(metrics: metrics, instants: hours.map(\.instant), utcOffsets: hours.map(\.utcOffset))
  }

  /// `metrics` at `count` consecutive hours starting at `start`.
  public func nextHours(metrics: [Metric], from start: Int64, count: Int) throws(ForecastError) -> HourlySeries {
    guard Forecaster.hourLimit.contains(count) else {
      throw .outOfRange(parameter: "hours", value: count, allowed: Forecaster.hourLimit)
    }
    return try hourly(metrics: metrics, instants: (0..<count).map { start + Int64($0) * 3600 })
  }

  /// Every metric in `metrics` at `time`, with the local day's temperature maximum and
  /// minimum (from that day's hourly values).
  public func current(metrics: [Metric], at time: Int64) throws(ForecastError) -> CurrentConditions {
    let now = try hourly(metrics: metrics, instants: [time])
    let today = try day(metrics: [.temp], date: request.timeZone.date(containing: time))
    let temperature = DailyStatistics(hourly: today.values[0])
    return CurrentConditions(
      time: time, metrics: metrics, values: now.values.map { $0[0] },
      provenance: now.sourceOfHour[0].map { now.provenance[$0] },
      probabilityMembers: now.probabilityMembers.first.map { $0.map { now.provenance[$0] } } ?? [],
      temperatureMaximum: temperature.maximum,
      temperatureMinimum: temperature.minimum, units: request.units)
  }

  /// Daily summaries of `metrics` for `days` local days from `start`: each metric's median,
  /// extremes and (for amounts) total, the vector-mean wind, and (computed when asked for)
  /// sunrise and sunset.
  public func daily(metrics: [Metric], from start: LocalDate, days: Int) throws(ForecastError) -> [DailySummary] {
    try daily(metrics: metrics, medians: MetricSet(metrics), from: start, days: days)
  }

  /// Daily summaries with what `variables` need (medians only where asked for).
  public func daily(
    variables: [DailyVariable], from start: LocalDate, days: Int
  ) throws(ForecastError) -> [DailySummary] {
    var metrics: [Metric] = []
    metrics.reserveCapacity(variables.count)
    // The median is the one statistic that needs sorting, most of a summary's cost; only
    // the medians asked for are computed.
    var medians = MetricSet()
    var conditions = DailyConditions.Wanted()
    for variable in variables {
      switch variable {
      case .weatherCode: conditions.insert(.weatherCode)
      case .precipitationHours: conditions.insert(.precipitationHours)
      default: break
      }
      guard let metric = variable.metric else { continue }
      if !metrics.contains(metric) { metrics.append(metric) }
      if case .statistic(_, .median) = variable { medians.insert(metric) }
    }
    return try daily(metrics: metrics, medians: medians, conditions: conditions, from: start, days: days)
  }

  /// `daily`, computing medians only for `medians` (the others' are nil) and the day's
  /// `conditions` only when wanted.
  ///
  /// This is the path of `nwpcube bench --kinds daily7`, so it avoids per-day work that is
  /// not arithmetic: statistics are computed for all days at once (see
  /// `DailyStatistics.summarize`), into one table the summaries share, and days answered by
  /// the same runs share one provenance list.
  func daily(
    metrics: [Metric], medians: MetricSet, conditions: DailyConditions.Wanted = [], from start: LocalDate, days: Int
  ) throws(ForecastError) -> [DailySummary] {
    guard Forecaster.dayLimit.contains(days) else {
      throw .outOfRange(parameter: "days", value: days, allowed: Forecaster.dayLimit)
    }
    let localDays = request.timeZone.days(from: start, count: days)
    // Every hour of the days, in order, and where each day's hours lie among them.
    var instants: [Int64] = []
    var dayHours: [Range<Int>] = []
    instants.reserveCapacity(days * 25)
    dayHours.reserveCapacity(days)
    for day in localDays {
      dayHours.append(instants.count..<(instants.count + day.hours.count))
      for hour in day.hours { instants.append(hour.instant) }
    }
    let reader = try reader(instants: instants)

    // A day's wind direction is that of its mean vector, from the hourly components; every
    // other metric (wind speed included) gets statistics of its hourly values. The day's
    // conditions come from their hourly columns too, read after the wind's.
    let summarizedMetrics = metrics.filter { $0 != .windDir }
    let summarized = summarizedMetrics.count
    let wantsWind = summarized < metrics.count
    var columns = summarizedMetrics
    columns.reserveCapacity(summarized + 4)
    if wantsWind {
      columns.append(.windU)
      columns.append(.windV)
    }
    if conditions.contains(.weatherCode) { columns.append(.weatherCode) }
    if conditions.contains(.precipitationHours) { columns.append(.rain) }
    let extraColumns = columns.count - summarized
    let hours = instants.count
    reader.prefetch(columns)
    // Stored metrics are summarised from their words where the runs allow it (see
    // `DailyStatistics.summarize(days:words:decoding:conversion:medians:into:)`); the rest
    // (wind speed, bilinear values, times between a run's steps) and the wind components
    // are read as values, one column each of `values`, in the order of `valueMetrics`.
    var valueMetrics: [Metric] = []
    var values: [Double] = []
    // Metric-major: the statistics of metric m on day d are at m · days + d.
    let table = [DailyStatistics](unsafeUninitializedCapacity: summarized * days) { table, count in
      func output(_ index: Int) -> UnsafeMutableBufferPointer<DailyStatistics> {
        UnsafeMutableBufferPointer(rebasing: table[(index * days)..<((index + 1) * days)])
      }
      dayHours.withUnsafeBufferPointer { dayHours in
        var words = [UInt16](repeating: WordDecoding.missing, count: hours)
        var fromValues: [Int] = []
        words.withUnsafeMutableBufferPointer { words in
          for (index, metric) in summarizedMetrics.enumerated() {
            let conversion = request.units.conversion(of: metric)
            guard conversion.scale > 0, let decoding = reader.readWords(metric, into: words) else {
              fromValues.append(index)
              continue
            }
            DailyStatistics.summarize(
              days: dayHours, words: UnsafeBufferPointer(words), decoding: decoding, conversion: conversion,
              medians: medians.contains(metric), into: output(index))
          }
        }
        valueMetrics = fromValues.map { summarizedMetrics[$0] } + columns[summarized...]
        values = [Double](repeating: .nan, count: hours * valueMetrics.count)
        values.withUnsafeMutableBufferPointer { values in
          reader.read(valueMetrics, into: values)
          for (column, index) in fromValues.enumerated() {
            let metric = summarizedMetrics[index]
            let series = UnsafeMutableBufferPointer(rebasing: values[(column * hours)..<((column + 1) * hours)])
            let convert = request.units.conversion(of: metric)
            if convert != .identity {
              for hour in series.indices { series[hour] = convert(series[hour]) }  // NaN stays NaN
            }
            DailyStatistics.summarize(
              days: dayHours, of: UnsafeBufferPointer(series), medians: medians.contains(metric), into: output(index))
          }
        }
      }
      count = summarized * days
    }
    try reader.checkIntact()
    return values.withUnsafeBufferPointer { values in
      // The extra columns (wind components, then conditions) are the last value columns.
      let firstWindColumn = valueMetrics.count - extraColumns
      var nextExtra = firstWindColumn + (wantsWind ? 2 : 0)
      func column(_ index: Int) -> UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(rebasing: values[(index * hours)..<((index + 1) * hours)])
      }
      func extra(_ wanted: DailyConditions.Wanted) -> UnsafeBufferPointer<Double>? {
        guard conditions.contains(wanted) else { return nil }
        defer { nextExtra += 1 }
        return column(nextExtra)
      }
      let (codes, rain) = (extra(.weatherCode), extra(.precipitationHours))
      let statistics = DailyStatisticsTable(metrics: summarizedMetrics, days: days, statistics: table)
      var provenance = reader.provenanceByDay(dayHours)
      if metrics.contains(.precipitationProbability) {
        provenance = reader.addingProbabilityMembers(to: provenance, days: dayHours)
      }
      return localDays.indices.map { index in
        let hours = dayHours[index]
        let wind =
          wantsWind
          ? DailyWind(
            u: UnsafeBufferPointer(rebasing: column(firstWindColumn)[hours]),
            v: UnsafeBufferPointer(rebasing: column(firstWindColumn + 1)[hours])) : nil
        let dayConditions =
          conditions.isEmpty
          ? nil
          : DailyConditions(
            codes: codes.map { UnsafeBufferPointer(rebasing: $0[hours]) },
            rain: rain.map { UnsafeBufferPointer(rebasing: $0[hours]) })
        return DailySummary(
          day: localDays[index], latitude: request.latitude, longitude: request.longitude, statistics: statistics,
          dayIndex: index, wind: wind, conditions: dayConditions, provenance: provenance[index], units: request.units)
      }
    }
  }

  private func reader(instants: [Int64]) throws(ForecastError) -> HourlyReader {
    var reader = HourlyReader(sources: sources, instants: instants)
    if let target = request.elevation {
      // Per segment: a moving nest's terrain at the point is its position's. A fixed grid's
      // is the same at every step.
      reader.temperatureShifts = reader.segments.map { segment in
        guard let index = segment.source, let step = reader.terrainStep(of: segment) else { return 0 }
        let source = sources.sources[index]
        let height =
          source.cube.isMoving
          ? (try? source.cube.terrainHeight(at: source.location, step: step)) ?? nil : fixedTerrain[index]
        return height.map { ElevationCorrection.shift(modelHeight: $0, target: target) } ?? 0
      }
    }
    guard reader.coversAny else {
      throw .notCovered(first: instants.min() ?? 0, last: instants.max() ?? 0, runs: sources.coverage)
    }
    return reader
  }
}
