import Forecast
import Meteorology
import PointQuery

/// Finds the warnings a point's forecast triggers under a set of rules.
///
/// The evaluation reads hours `[H + k h, H + (k + 1) h)` for k = 0, 1, … up to the longest
/// validity, H the start of the hour holding `now`, all metrics in one `Forecaster.hourly`
/// call in canonical units. An hour's value of an instantaneous metric (temperature, gusts)
/// is the one at its start; that of an hourly amount or class (rain, weather code) is the
/// one stamped at its end, which covers exactly that hour. A rule triggers on every run of
/// consecutive hours within its validity whose values are on its side of the threshold and
/// which lasts at least its duration: onset is the start of the run's first hour, expiry
/// the end of its last. An hour without a value (no run covers it) ends a run.
public struct WarningEvaluator: Sendable {
  public let rules: WarningRules

  public init(rules: WarningRules) {
    self.rules = rules
  }

  /// The warnings `point` triggers from the current hour of `now` (Unix seconds), in order
  /// of onset, then of the rules in the file. Only the request's place, method, domain, cell
  /// selection and elevation count: thresholds are compared in their own units, whatever
  /// units the request asks for.
  /// - Throws: `ForecastError` when no run covers any of the hours.
  public func warnings(for point: PointForecast, now: Int64) throws(ForecastError) -> [Warning] {
    try evaluate(point, now: now, outlineFirstCell: false).warnings
  }

  /// `warnings(for:now:)` with the hours read and the cell that answered the first of
  /// them, which a document with no warning still names.
  public func evaluate(_ point: PointForecast, now: Int64) throws(ForecastError) -> WarningEvaluation {
    try evaluate(point, now: now, outlineFirstCell: true)
  }

  /// The warnings from hours a caller has read already, so that a forecast that lists
  /// warnings beside its own hours (Dark Sky's) reads them once. `series` must hold every
  /// rule's metric in canonical units (`UnitSystem.si`) and, somewhere among its instants,
  /// the consecutive hours H, H + 1 h, … H + `horizonHours` h, H the start of the hour
  /// holding `now`: a series of local hours does where the zone's offset is whole hours.
  /// Nil when it does not; the caller then asks `warnings(for:now:)`. The
  /// values of an instant do not depend on the other instants read with it, so both give
  /// the same warnings.
  public func warnings(in series: HourlySeries, now: Int64, catalog: RunCatalog) -> [Warning]? {
    let hours = max(rules.horizonHours, 1)
    let start = Self.hourStart(now)
    guard series.units == .si, rules.rules.allSatisfy({ series.metrics.contains($0.metric) }),
      let first = series.hours.firstIndex(where: { $0.instant == start }), first + hours < series.hours.count,
      (first...(first + hours)).allSatisfy({ series.hours[$0].instant == start + Int64($0 - first) * 3_600 })
    else { return nil }
    return evaluate(series, first: first, start: start, hours: hours, catalog: catalog, outlineFirstCell: false)
      .warnings
  }

  /// `evaluate`, outlining the first hour's cell only when asked: a caller that wants the
  /// warnings alone does not pay for it.
  private func evaluate(
    _ point: PointForecast, now: Int64, outlineFirstCell: Bool
  ) throws(ForecastError) -> WarningEvaluation {
    let hours = max(rules.horizonHours, 1)
    let start = Self.hourStart(now)
    var metrics: [Metric] = []
    for rule in rules.rules where !metrics.contains(rule.metric) { metrics.append(rule.metric) }
    // One more instant than hours: the last hour's amount is stamped at its end.
    let instants = (0...hours).map { start + Int64($0) * 3_600 }
    let series = try point.inUnits(.si).hourly(
      metrics: metrics, instants: instants, utcOffsets: [Int](repeating: 0, count: instants.count))
    return evaluate(
      series, first: 0, start: start, hours: hours, catalog: point.catalog, outlineFirstCell: outlineFirstCell)
  }

  /// The rules evaluated over `series`' instants `first…first + hours`, which are the hours
  /// from `start` (and the end of the last).
  private func evaluate(
    _ series: HourlySeries, first: Int, start: Int64, hours: Int, catalog: RunCatalog, outlineFirstCell: Bool
  ) -> WarningEvaluation {
    var cells = CellCache(catalog: catalog)
    var found: [(order: Int, warning: Warning)] = []
    for (order, rule) in rules.rules.enumerated() {
      guard let values = series.values(of: rule.metric) else { continue }
      // The stamp of hour k: its start for an instant, its end for an amount or a class.
      let stampOffset = first + (rule.metric.temporal == .instant ? 0 : 1)
      // Converted once per hour up front: converting inside the search, with
      // `map(rule.inThresholdUnit)`, copied the rule for every value (5 % of a Dark Sky
      // forecast).
      var converted = [Double?](repeating: nil, count: rule.validityHours)
      for hour in converted.indices {
        if let value = values[hour + stampOffset] { converted[hour] = rule.inThresholdUnit(value) }
      }
      for run in Self.runs(
        hours: rule.validityHours, minimum: rule.durationHours,
        triggers: { hour in converted[hour].map { rule.triggers($0) } ?? false })
      {
        let stamp = run.lowerBound + stampOffset
        let runValues = converted[run].compactMap { $0 }
        let peak = (rule.comparison == .above ? runValues.max() : runValues.min()) ?? rule.threshold
        // The cells the run's hours were read from: one for a grid that does not move; for
        // a moving nest, the place's cell at each position the nest held at those hours.
        var area: [WarningCell] = []
        for hour in run {
          guard let source = series.sourceOfHour[hour + stampOffset] else { continue }
          let read = cells.cells(
            series.provenance[source], at: series.hours[hour + stampOffset].instant, temporal: rule.metric.temporal)
          for cell in read where !area.contains(where: { $0.polygon == cell.polygon }) { area.append(cell) }
        }
        guard series.sourceOfHour[stamp] != nil, let cell = area.first else { continue }
        let warning = Warning(
          rule: rule, onset: start + Int64(run.lowerBound) * 3_600,
          expires: start + Int64(run.upperBound) * 3_600, peak: peak, cell: cell, area: area)
        found.append((order, warning))
      }
    }
    // The first covered hour's cell, in the position a moving nest held then.
    let firstCell =
      outlineFirstCell
      ? (first...(first + hours)).lazy.compactMap { hour in
        series.sourceOfHour[hour].map { (series.provenance[$0], series.hours[hour].instant) }
      }.first.flatMap { cells.cells($0.0, at: $0.1, temporal: .instant).first } : nil
    return WarningEvaluation(
      warnings: found.sorted { ($0.warning.onset, $0.order) < ($1.warning.onset, $1.order) }.map(\.warning),
      start: start, hours: hours, cell: firstCell)
  }

  /// The start of the hour holding `time`.
  static func hourStart(_ time: Int64) -> Int64 {
    let remainder = time % 3_600
    return time - (remainder < 0 ? remainder + 3_600 : remainder)
  }

  /// Every maximal run of consecutive hours in `0..<hours` whose value `triggers`, at least
  /// `minimum` hours long.
  static func runs(hours: Int, minimum: Int, triggers: (Int) -> Bool) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var first: Int?
    for hour in 0...hours {
      if hour < hours, triggers(hour) {
        if first == nil { first = hour }
        continue
      }
      if let start = first, hour - start >= minimum { runs.append(start..<hour) }
      first = nil
    }
    return runs
  }
}
