import FaceKit
import Forecast
import Meteorology

/// An `OpenMeteoAnswer` as Open-Meteo writes it: what `/v1/forecast` serves.
///
/// Key order, names, units and time format are Open-Meteo's: `latitude`, `longitude`,
/// `generationtime_ms`, `utc_offset_seconds`, `timezone`, `timezone_abbreviation`,
/// `elevation`, then `current_units`/`current` (with `interval`),
/// `minutely_15_units`/`minutely_15`, `hourly_units`/`hourly` and `daily_units`/`daily`,
/// each block's columns keyed by the names the request gave. Times are local wall-clock
/// times without an offset (`2026-06-21T12:00`, dates `2026-06-21`) or, with `unixtime`,
/// integer Unix seconds.
///
/// nwpcube's extras follow as keys clients ignore: `method`, `cell`, `sources`,
/// `current_source`, `hourly_sources`, `minutely_15_sources`, `daily_sources`, the
/// probability members, `minutely_15_interpolation` and `unavailable` (see
/// `ForecastDocument` for their meaning).
public struct OpenMeteoDocument: Sendable {
  /// How times are written.
  public enum TimeFormat: String, Sendable, CaseIterable {
    case iso8601, unixtime
  }

  public let answer: OpenMeteoAnswer
  public let timeFormat: TimeFormat
  /// The instant `utc_offset_seconds` and `timezone_abbreviation` describe: now.
  public let now: Int64
  /// Milliseconds spent on the answer, Open-Meteo's `generationtime_ms`.
  public let generationTime: Double
  /// How the zone is named in `timezone`: the request's identifier, or `GMT` when none was
  /// given, as Open-Meteo names its default.
  public let timeZoneName: String

  public init(
    answer: OpenMeteoAnswer, timeFormat: TimeFormat = .iso8601, now: Int64, generationTime: Double = 0,
    timeZoneName: String? = nil
  ) {
    self.answer = answer
    self.timeFormat = timeFormat
    self.now = now
    self.generationTime = generationTime
    self.timeZoneName = timeZoneName ?? answer.query.request.timeZone.identifier
  }

  var request: ForecastRequest { answer.query.request }
  var units: UnitSystem { request.units }
}

extension OpenMeteoDocument {
  /// How a column's values are shown: a factor, a unit label and decimal places.
  struct Presentation {
    var scale = 1.0
    var label: String
    var decimals: Int
    /// Values are instants, written as times.
    var isTime = false
  }

  /// Metrics Open-Meteo gives as integers (its clients type them so).
  static let integerMetrics: Set<Metric> = [
    .hum, .cloud, .cloudLow, .cloudMid, .cloudHigh, .precipitationProbability, .weatherCode, .windDir, .isDay,
  ]

  /// The presentation of `metric` in the request's units, with Open-Meteo's labels.
  func presentation(_ metric: Metric) -> Presentation {
    let conversion = units.conversion(of: metric)
    var label = units.label(of: metric)
    var scale = 1.0
    switch label {
    case "mph": label = "mp/h"
    case "in": label = "inch"
    default: break
    }
    // Snowfall is a depth of snow, cm, which Open-Meteo gives in inches with the inch.
    if metric == .snowfall, units.precipitation == .inches {
      scale = 1 / 2.54
      label = "inch"
    }
    // Snow depth is in metres, which Open-Meteo gives in feet with the inch.
    if metric == .snowDepth, units.precipitation == .inches {
      scale = 1 / 0.3048
      label = "ft"
    }
    if Self.integerMetrics.contains(metric) { return Presentation(scale: scale, label: label, decimals: 0) }
    return Presentation(scale: scale, label: label, decimals: Self.decimals(metric, scale: conversion.scale * scale))
  }

  /// A metric's decimal places, plus enough for units much larger than its own (0.01 mm
  /// is 0.0004 in).
  static func decimals(_ metric: Metric, scale: Double) -> Int {
    var extra = 0
    var step = 1.0
    while abs(scale) < step * 0.95, extra < 4 {
      step /= 10
      extra += 1
    }
    return metric.decimals + extra
  }

  func presentation(_ quantity: OpenMeteoQuantity) -> Presentation {
    switch quantity {
    case .metric(let metric): presentation(metric)
    case .liquidRain: presentation(.rain)
    case .shortwaveMean: Presentation(label: "W/m²", decimals: 1)
    }
  }

  func presentation(_ quantity: OpenMeteoDailyQuantity) -> Presentation {
    switch quantity {
    case .liquidRainSum: return presentation(.rain)
    case .shortwaveSum: return Presentation(label: "MJ/m²", decimals: 2)
    case .variable(let variable):
      switch variable {
      case .statistic(let metric, _): return presentation(metric)
      case .windDirectionDominant: return Presentation(label: "°", decimals: 0)
      case .weatherCode: return Presentation(label: "wmo code", decimals: 0)
      case .precipitationHours: return Presentation(label: "h", decimals: 0)
      case .sunrise, .sunset: return Presentation(label: timeFormat.rawValue, decimals: 0, isTime: true)
      case .daylightDuration: return Presentation(label: "s", decimals: 0)
      }
    }
  }

  /// Every source used, in order of first use, with each block's indices into the list.
  struct Sources {
    var all: [Provenance] = []

    mutating func index(_ source: Provenance) -> Int {
      if let found = all.firstIndex(of: source) { return found }
      all.append(source)
      return all.count - 1
    }

    /// A block's sources: its series' provenance mapped into the list.
    mutating func map(_ series: HourlySeries) -> [Int] { series.provenance.map { index($0) } }
  }
}

extension OpenMeteoDocument {
  /// The answer as one JSON object.
  public func json() -> String {
    var out = JSONBytes(capacity: 4_096 + 12 * 8 * (answer.hourly?.times.count ?? 0))
    json(into: &out)
    return out.text
  }

  /// Writes the answer's JSON object into `out`.
  func json(into out: inout JSONBytes) {
    let zone = request.timeZone
    var sources = Sources()
    let current = answer.current.map { sources.map($0.series) }
    let minutely = answer.minutely15.map { sources.map($0.series) }
    let hourly = answer.hourly.map { sources.map($0.series) }
    let daily = answer.daily.map { $0.summaries.map { $0.provenance.map { sources.index($0) } } }
    out.byte(UInt8(ascii: "{"))
    out.key("latitude", first: true)
    out.number(request.latitude, decimals: 4)
    out.key("longitude")
    out.number(request.longitude, decimals: 4)
    out.key("generationtime_ms")
    out.number(generationTime, decimals: 3)
    out.key("utc_offset_seconds")
    out.integer(Int64(zone.utcOffset(at: now)))
    out.key("timezone")
    out.string(timeZoneName)
    out.key("timezone_abbreviation")
    out.string(zone.abbreviation(at: now))
    // The elevation the values are for (`ForecastRequest.answerElevation`): null only for a
    // cube written without the model's terrain.
    out.key("elevation")
    out.number(request.answerElevation(sources.all.first), decimals: 1)
    out.key("method")
    out.string(request.method.rawValue)

    if let first = sources.all.first {
      out.key("cell")
      out.cell(first)
    }
    out.key("sources")
    out.array(sources.all) { out, source in out.source(source) }

    if let block = answer.current, let current {
      writeCurrent(block, sources: current, into: &out)
    }
    if let block = answer.minutely15, let minutely {
      writeBlock("minutely_15", block, columns: answer.query.minutely15, sources: minutely, into: &out)
      out.key("minutely_15_interpolation")
      out.string(minutelyInterpolation)
    }
    if let block = answer.hourly, let hourly {
      writeBlock("hourly", block, columns: answer.query.hourly, sources: hourly, into: &out)
    }
    if let block = answer.daily, let daily {
      writeDaily(block, sources: daily, into: &out)
    }
    let unavailable = unavailable(sources.all)
    if !unavailable.isEmpty {
      out.key("unavailable")
      out.raw(JSONText.object(unavailable))
    }
    out.byte(UInt8(ascii: "}"))
  }

  /// How `minutely_15` values were made: from the model's own steps where they are 15
  /// minutes apart, otherwise interpolated as Open-Meteo interpolates hourly models.
  var minutelyInterpolation: String {
    if !answer.minutely15Steps.isEmpty, answer.minutely15Steps.allSatisfy({ $0 <= 900 }) {
      return "none: the model's own 15-minute steps"
    }
    let steps = Set(answer.minutely15Steps).sorted().map { "\($0 / 60) min" }.joined(separator: ", ")
    return
      "interpolated from the model's \(steps.isEmpty ? "hourly" : steps) steps: linearly for instantaneous values, "
      + "amounts spread evenly over the hour (a quarter each), shortwave_radiation the mean of each quarter hour"
  }

  func writeTime(_ time: LocalHour, dateOnly: Bool = false, into out: inout JSONBytes) {
    switch timeFormat {
    case .unixtime: out.integer(time.instant)
    case .iso8601:
      out.byte(UInt8(ascii: "\""))
      out.localTime(time.instant, utcOffset: time.utcOffset, dateOnly: dateOnly)
      out.byte(UInt8(ascii: "\""))
    }
  }

  func writeCurrent(_ block: OpenMeteoAnswer.Block, sources: [Int], into out: inout JSONBytes) {
    let columns = answer.query.current
    let presentations = columns.map { presentation($0.quantity) }
    writeUnits(
      "current", [("interval", "seconds")] + zip(columns, presentations).map { ($0.name, $1.label) }, into: &out)
    out.key("current")
    out.byte(UInt8(ascii: "{"))
    out.key("time", first: true)
    if let time = block.times.first { writeTime(time, into: &out) } else { out.raw("null") }
    out.key("interval")
    out.integer(OpenMeteoQuery.currentInterval)
    for (index, column) in columns.enumerated() {
      out.key(column.name)
      let shown = presentations[index]
      out.number(block.values[index].first.flatMap { $0 }.map { $0 * shown.scale }, decimals: shown.decimals)
    }
    out.byte(UInt8(ascii: "}"))
    out.key("current_source")
    if let source = block.series.sourceOfHour.first.flatMap({ $0 }) {
      out.integer(Int64(sources[source]))
    } else {
      out.raw("null")
    }
    if block.series.metrics.contains(.precipitationProbability) {
      out.key("current_precipitation_probability_sources")
      writeIndexList(block.series.probabilityMembers.prefix(1).first ?? [], sources: sources, into: &out)
    }
  }

  /// The entries of `indices` as indices into the answer's `sources`.
  func writeIndexList(_ indices: [Int], sources: [Int], into out: inout JSONBytes) {
    out.array(indices) { out, index in out.integer(Int64(sources[index])) }
  }

  /// `<block>_units`: the time format, then each member's unit label.
  func writeUnits(_ block: String, _ labels: [(name: String, label: String)], into out: inout JSONBytes) {
    out.key("\(block)_units")
    out.byte(UInt8(ascii: "{"))
    out.key("time", first: true)
    out.string(timeFormat.rawValue)
    for (name, label) in labels {
      out.key(name)
      out.string(label)
    }
    out.byte(UInt8(ascii: "}"))
  }

  func writeBlock(
    _ name: String, _ block: OpenMeteoAnswer.Block, columns: [OpenMeteoQuery.Column], sources: [Int],
    into out: inout JSONBytes
  ) {
    let presentations = columns.map { presentation($0.quantity) }
    writeUnits(name, zip(columns, presentations).map { ($0.name, $1.label) }, into: &out)
    out.key(name)
    out.byte(UInt8(ascii: "{"))
    out.key("time", first: true)
    out.array(block.times) { out, time in writeTime(time, into: &out) }
    for (index, column) in columns.enumerated() {
      out.key(column.name)
      let shown = presentations[index]
      out.array(block.values[index]) { out, value in
        out.number(shown.scale == 1 ? value : value.map { $0 * shown.scale }, decimals: shown.decimals)
      }
    }
    out.byte(UInt8(ascii: "}"))
    out.key("\(name)_sources")
    out.array(block.series.sourceOfHour) { out, source in
      if let source { out.integer(Int64(sources[source])) } else { out.raw("null") }
    }
    if block.series.metrics.contains(.precipitationProbability) {
      out.key("\(name)_precipitation_probability_sources")
      out.array(block.series.probabilityMembers) { out, members in
        writeIndexList(members, sources: sources, into: &out)
      }
    }
  }

  func writeDaily(_ block: OpenMeteoAnswer.Daily, sources: [[Int]], into out: inout JSONBytes) {
    let columns = answer.query.daily
    let presentations = columns.map { presentation($0.quantity) }
    writeUnits("daily", zip(columns, presentations).map { ($0.name, $1.label) }, into: &out)
    out.key("daily")
    out.byte(UInt8(ascii: "{"))
    out.key("time", first: true)
    out.array(block.summaries) { out, summary in
      let start = summary.day.start
      writeTime(LocalHour(instant: start, utcOffset: request.timeZone.utcOffset(at: start)), dateOnly: true, into: &out)
    }
    for (index, column) in columns.enumerated() {
      out.key(column.name)
      let shown = presentations[index]
      out.array(block.values[index]) { out, value in
        if shown.isTime {
          if let value {
            let instant = Int64(value)
            writeTime(LocalHour(instant: instant, utcOffset: request.timeZone.utcOffset(at: instant)), into: &out)
          } else {
            out.raw("null")
          }
        } else {
          out.number(value.map { $0 * shown.scale }, decimals: shown.decimals)
        }
      }
    }
    out.byte(UInt8(ascii: "}"))
    out.key("daily_sources")
    out.array(sources) { out, indices in out.array(indices) { out, index in out.integer(Int64(index)) } }
  }

  /// Why each metric asked for is null from some of `sources`.
  func unavailable(_ sources: [Provenance]) -> [(String, String)] {
    // Most answers come from cubes that hold every metric: the list asked for is not made.
    guard !sources.allSatisfy(\.answersEveryMetric) else { return [] }
    let query = answer.query
    let asked =
      (query.current + query.minutely15 + query.hourly).flatMap(\.quantity.inputs)
      + query.daily.flatMap { $0.quantity.inputs.compactMap(\.metric) }
    return SourceJSON.unavailable(asked, from: sources)
  }
}
