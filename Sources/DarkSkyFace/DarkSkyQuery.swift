import Forecast
import Meteorology
import PointQuery
import Warnings

/// One Dark Sky question: a point, a time (now, or a Time Machine time), the blocks wanted
/// and the units. `answer(_:)` reads every hour it needs in one `Forecaster.hourly` call,
/// in canonical units; `DarkSkyDocument` converts them to `units` as it writes them.
public struct DarkSkyQuery: Sendable {
  /// A block `exclude` can leave out.
  public enum Block: String, Sendable, CaseIterable {
    case currently, minutely, hourly, daily, alerts, flags
  }

  /// The point, method, domain and zone; its units are ignored (values are read in
  /// canonical units).
  public var request: ForecastRequest
  /// The instant `currently` is for: now, or the Time Machine time.
  public var time: Int64
  /// A Time Machine request: `hourly` is the local day of `time`, `daily` that one day, and
  /// there is no `minutely`, as Dark Sky answered.
  public var isTimeMachine: Bool
  public var units: DarkSkyUnits
  public var excluded: Set<Block>
  /// `extend=hourly`: 168 hours rather than 48.
  public var extendHourly: Bool
  /// The zone's name for `timezone`.
  public var timeZoneName: String

  public init(
    request: ForecastRequest, time: Int64, isTimeMachine: Bool = false, units: DarkSkyUnits = .us,
    excluded: Set<Block> = [], extendHourly: Bool = false, timeZoneName: String? = nil
  ) {
    var request = request
    request.units = Self.readUnits
    self.request = request
    self.time = time
    self.isTimeMachine = isTimeMachine
    self.units = units
    self.excluded = excluded
    self.extendHourly = extendHourly
    self.timeZoneName = timeZoneName ?? request.timeZone.identifier
  }

  /// The units values are read in: the canonical ones, percent for shares.
  static let readUnits = UnitSystem.si

  /// Hours in `hourly` (a Time Machine day has its own count).
  public var hourCount: Int { isTimeMachine ? 24 : extendHourly ? 168 : 48 }
  /// Days in `daily`.
  public var dayCount: Int { isTimeMachine ? 1 : 8 }
  /// Minutes in `minutely`: this one and the next 60.
  public static let minuteCount = 61
  /// The longest model step `minutely` is made from.
  public static let longestMinutelyStep: Int64 = 3_600

  /// The metrics an hour needs, in the order `DarkSkyColumns` reads them by. `is_day` is not
  /// among them: only the shown hours need it (see `sunUp`), a fifth of the instants read.
  static let metrics: [Metric] = [
    .temp, .apparentTemp, .dewPoint, .hum, .atmPress, .windVel, .windGusts, .windDir, .cloud, .visibility,
    .shortwave, .rain, .snow, .precipitationProbability, .weatherCode,
  ]

  /// Reads the hours the blocks need, and with `warnings` the warnings in force from
  /// `time` (unless `alerts` is excluded): `outlook(_:warnings:)`, then
  /// `answer(_:outlook:)`.
  /// - Throws: `ForecastError` when the point is outside every domain or no run covers
  ///   any of the hours.
  public func answer(
    _ forecaster: Forecaster, warnings evaluator: WarningEvaluator? = nil
  ) throws(ForecastError) -> DarkSkyAnswer {
    let point = try forecaster.point(request)
    return try answer(point, outlook: outlook(point, warnings: evaluator))
  }

  /// The hour `time` falls in, twice: the start of its local hour, which `hourly` starts
  /// at, and of its UTC hour, which warnings are evaluated from. Two queries alike but for
  /// `time` share an outlook when both of these are equal (and the store has not changed).
  public var outlookHour: (local: Int64, utc: Int64) {
    let offset = Int64(request.timeZone.utcOffset(at: time))
    return (time - (((time + offset) % 3_600) + 3_600) % 3_600, time - ((time % 3_600) + 3_600) % 3_600)
  }

  /// The local days `daily` shows, and the next, whose first hours hold the last day's
  /// overnight low.
  private var days: [LocalDay] {
    request.timeZone.days(from: request.timeZone.date(containing: time), count: dayCount + 1)
  }

  /// What does not change within `outlookHour`: `hourly`, `daily`, the warnings and the
  /// runs they came from. It reads every hour of the days `daily` shows, with the evaluator's
  /// rules' metrics, and evaluates the warnings over the same hours where they hold the
  /// rules' (`WarningEvaluator.warnings(in:now:store:)`): reading them a second time was
  /// 7 % of a request.
  /// - Throws: `ForecastError` when the point is outside every domain or no run covers
  ///   any of the hours.
  public func outlook(
    _ point: PointForecast, warnings evaluator: WarningEvaluator? = nil
  ) throws(ForecastError) -> DarkSkyOutlook {
    let days = days
    let firstHour = isTimeMachine ? days[0].start : outlookHour.local
    let gridStart = days[0].start
    let overnightEnd = days[dayCount].start + 7 * 3_600
    let gridEnd = max(overnightEnd, firstHour + Int64(hourCount) * 3_600)
    // Hour starts, and one more for the amounts of the last hour (they are stored at its end).
    let instants = Array(stride(from: gridStart, through: gridEnd + 3_600, by: 3_600))
    // The grid's offsets are its days' hours' (found with one walk of the zone's
    // transitions); looking each instant up in the zone was 3 % of a request.
    let dayHours = days.flatMap(\.hours)
    let offsets = instants.enumerated().map { index, instant in
      index < dayHours.count && dayHours[index].instant == instant
        ? dayHours[index].utcOffset : request.timeZone.utcOffset(at: instant)
    }
    let evaluator = excluded.contains(.alerts) ? nil : evaluator
    // The rules' metrics after the hour's, whose positions `DarkSkyColumns` reads by.
    var metrics = Self.metrics
    for rule in evaluator?.rules.rules ?? [] where !metrics.contains(rule.metric) { metrics.append(rule.metric) }
    let series = try point.hourly(metrics: metrics, instants: instants, utcOffsets: offsets)

    let columns = DarkSkyColumns(series)
    let grid = (0..<(instants.count - 1)).map { columns.hour(value: $0, amount: $0 + 1) }
    let covered = (0..<(instants.count - 1)).map { series.sourceOfHour[$0] != nil }
    var outlook = DarkSkyOutlook(sources: Self.sourceNames(series))
    if let evaluator {
      if let warnings = evaluator.warnings(in: series, now: time, catalog: point.catalog) {
        outlook.warnings = warnings
      } else {
        outlook.warnings = try evaluator.warnings(for: point, now: time)
      }
    }
    // The grid's hours are `gridStart` + i hours, so the first at or after a time is found
    // by division; filtering every grid hour per day and block was a tenth of a request.
    func gridIndex(from start: Int64) -> Int {
      start <= gridStart ? 0 : min(Int((start - gridStart + 3_599) / 3_600), grid.count)
    }
    func hours(_ span: Range<Int64>) -> Range<Int> {
      let first = gridIndex(from: span.lowerBound)
      return first..<max(first, gridIndex(from: span.upperBound))
    }
    if !excluded.contains(.hourly) {
      // A Time Machine day has 23 or 25 hours on a DST day.
      let shown = isTimeMachine ? days[0].start..<days[0].end : firstHour..<(firstHour + Int64(hourCount) * 3_600)
      outlook.hourly = hours(shown).filter { covered[$0] }.map { index in
        var hour = grid[index]
        hour.isDay = Self.sunUp(series, index)
        return hour
      }
    }
    if !excluded.contains(.daily) {
      outlook.daily = days.prefix(dayCount).compactMap { day -> DarkSkyDay? in
        let inDay = hours(day.start..<day.end)
        // A day is shown when every one of its hours is covered: a part of a day would
        // give wrong extremes.
        guard !inDay.isEmpty, inDay.allSatisfy({ covered[$0] }) else { return nil }
        let overnight =
          inDay.filter { grid[$0].localHour >= 18 }
          + hours(day.end..<(day.end + 12 * 3_600)).filter { grid[$0].localHour < 6 }
        return DarkSkyDay(
          day: day, hours: Array(grid[inDay]),
          overnight: overnight.allSatisfy { covered[$0] } ? overnight.map { grid[$0] } : [],
          latitude: request.latitude, longitude: request.longitude)
      }
    }
    return outlook
  }

  /// The answer at `time`: `currently` and `minutely` read now, the rest from `outlook`,
  /// which `outlook(_:warnings:)` made for this point, zone, units and blocks in the same
  /// `outlookHour` (or for this very query).
  /// - Throws: `ForecastError` when the point is outside every domain.
  public func answer(_ point: PointForecast, outlook: DarkSkyOutlook) throws(ForecastError) -> DarkSkyAnswer {
    var answer = DarkSkyAnswer(query: self)
    answer.hourly = outlook.hourly
    answer.daily = outlook.daily
    answer.warnings = outlook.warnings
    answer.sources = outlook.sources
    // `time`, then the minutes' quarter hours: a model hour's amount is its rate over each
    // quarter in it, and a 15-minute run's quarter its own; the quarter ending after a
    // minute holds it.
    let firstMinute = time - ((time % 60) + 60) % 60
    let quarterEnds = (0..<Self.minuteCount).map { minute -> Int64 in
      let start = firstMinute + Int64(minute) * 60
      return (start - ((start % 900) + 900) % 900) + 900
    }
    var instants = [time]
    for end in quarterEnds where !instants.contains(end) { instants.append(end) }
    let series: HourlySeries
    do {
      series = try point.hourly(metrics: Self.metrics, instants: instants)
    } catch .notCovered {
      // The outlook's hours are covered but not these: no `currently`, no `minutely`.
      return answer
    }
    for name in Self.sourceNames(series) where !answer.sources.contains(name) { answer.sources.append(name) }
    let columns = DarkSkyColumns(series)
    // Kept when excluded: the minutely summary speaks of the current conditions.
    if series.sourceOfHour[0] != nil {
      answer.currently = columns.hour(value: 0, amount: 0)
      answer.currently?.isDay = Self.sunUp(series, 0)
    }
    if !excluded.contains(.minutely), !isTimeMachine, let step = point.sources.source(at: time)?.cube.stepLength,
      step <= Self.longestMinutelyStep
    {
      answer.minutelyStep = step
      answer.minutely = quarterEnds.enumerated().map { minute, end in
        let (precipitation, probability) = columns.minute(instants.firstIndex(of: end) ?? 0)
        return DarkSkyMinute(
          time: firstMinute + Int64(minute) * 60, precipitation: precipitation, probability: probability)
      }
    }
    return answer
  }

  /// Whether the sun is up at instant `index` of `series`, as the `is_day` metric answers
  /// it: at the mass point of the run answering the instant, and up where no run covers it.
  static func sunUp(_ series: HourlySeries, _ index: Int) -> Bool {
    guard let source = series.sourceOfHour[index] else { return true }
    let point = series.provenance[source]
    return SolarEvents.isDay(latitude: point.latitude, longitude: point.longitude, at: series.hours[index].instant)
  }

  /// The runs the answer used, `model/domain run` each.
  static func sourceNames(_ series: HourlySeries) -> [String] {
    var names: [String] = []
    for source in series.provenance {
      let name = "\(source.model)/\(source.domain) \(source.run)"
      if !names.contains(name) { names.append(name) }
    }
    return names
  }
}
