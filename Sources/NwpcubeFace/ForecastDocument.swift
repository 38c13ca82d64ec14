import FaceKit
import Forecast
import Meteorology
import UTCTime

/// A forecast answer as JSON or CSV: what `nwpcube forecast` prints and `/v1/forecast`
/// serves, so that both say the same thing the same way.
///
/// The JSON follows Open-Meteo's layout, so its clients feel at home: `hourly` and
/// `daily` hold a `time` array and one array per variable, `*_units` give each variable's
/// unit. nwpcube adds where the values came from: `sources` lists each run/domain/cell
/// used, `hourly_sources` gives each hour's index into it (null where no run covers the
/// hour) and `daily_sources` each day's indices. `cell` is the grid cell of the first.
/// `precipitation_probability` averages several runs, so when it is asked for,
/// `current_precipitation_probability_sources` and `hourly_precipitation_probability_sources`
/// give the indices into `sources` of the runs it averaged (for each hour, newest first; one
/// index when one run answered and the value is that run's neighbourhood share).
public struct ForecastDocument: Sendable {
  public let request: ForecastRequest
  public let current: CurrentConditions?
  public let hourly: HourlySeries?
  public let dailyVariables: [DailyVariable]
  public let daily: [DailySummary]

  public init(
    request: ForecastRequest, current: CurrentConditions? = nil, hourly: HourlySeries? = nil,
    dailyVariables: [DailyVariable] = [], daily: [DailySummary] = []
  ) {
    self.request = request
    self.current = current
    self.hourly = hourly
    self.dailyVariables = dailyVariables
    self.daily = daily
  }

  /// Decimal places for `metric` in the request's units: the metric's own, plus enough for
  /// units much larger than its own (0.01 mm is 0.0004 in).
  func decimals(_ metric: Metric) -> Int {
    let scale = abs(request.units.conversion(of: metric).scale)
    var extra = 0
    var step = 1.0
    while scale < step * 0.95, extra < 4 {
      step /= 10
      extra += 1
    }
    return metric.decimals + extra
  }

  /// Every source used, in order of first use, and each block's own indices mapped to it.
  var sources: (all: [Provenance], current: Int?, hourly: [Int], daily: [[Int]], currentMembers: [Int]) {
    var all: [Provenance] = []
    func index(_ source: Provenance) -> Int {
      if let found = all.firstIndex(of: source) { return found }
      all.append(source)
      return all.count - 1
    }
    let current = self.current?.provenance.map(index)
    let hourly = self.hourly?.provenance.map(index) ?? []
    let daily = self.daily.map { $0.provenance.map(index) }
    // Listed after every other source, so that the indices above do not change with them.
    let currentMembers = self.current?.probabilityMembers.map(index) ?? []
    return (all, current, hourly, daily, currentMembers)
  }

  /// The local time of an instant in the request's zone, with its offset.
  func timestamp(_ instant: Int64) -> String { request.timeZone.timestamp(instant) }

  /// The unit label of a daily variable.
  func label(_ variable: DailyVariable) -> String {
    switch variable {
    case .statistic(let metric, _): request.units.label(of: metric)
    case .windDirectionDominant: "°"
    case .weatherCode: Metric.weatherCode.unit
    case .precipitationHours: "h"
    case .sunrise, .sunset: "iso8601"
    case .daylightDuration: "s"
    }
  }

  /// A daily variable's value as JSON text.
  func dailyValue(_ variable: DailyVariable, _ summary: DailySummary) -> String {
    let value = variable.value(in: summary)
    switch variable {
    case .statistic(let metric, _): return JSONText.number(value, decimals: decimals(metric))
    case .windDirectionDominant: return JSONText.number(value, decimals: Metric.windDir.decimals)
    case .weatherCode, .precipitationHours, .daylightDuration: return JSONText.number(value, decimals: 0)
    case .sunrise, .sunset: return value.map { JSONText.string(timestamp(Int64($0))) } ?? "null"
    }
  }
}

extension ForecastDocument {
  /// The answer as one JSON object.
  public func json() -> String {
    let (all, currentSource, hourlySources, dailySources, currentMembers) = sources
    var members: [(String, String)] = [
      ("latitude", JSONText.number(request.latitude, decimals: 4)),
      ("longitude", JSONText.number(request.longitude, decimals: 4)),
      ("method", JSONText.string(request.method.rawValue)),
      ("timezone", JSONText.string(request.timeZone.identifier)),
      ("utc_offset_seconds", String(request.timeZone.utcOffset(at: firstInstant))),
      // Open-Meteo's: the elevation the values are for (see `ForecastRequest.answerElevation`).
      ("elevation", JSONText.number(request.answerElevation(all.first), decimals: 1)),
    ]
    if let first = all.first { members.append(("cell", SourceJSON.cell(first))) }
    members.append(("sources", JSONText.array(all.map(SourceJSON.source))))
    if let current {
      var values: [(String, String)] = [("time", JSONText.string(timestamp(current.time)))]
      var units: [(String, String)] = [("time", JSONText.string("iso8601"))]
      for (metric, value) in zip(current.metrics, current.values) {
        values.append((metric.name, JSONText.number(value, decimals: decimals(metric))))
        units.append((metric.name, JSONText.string(request.units.label(of: metric))))
      }
      members += [
        ("current_units", JSONText.object(units)), ("current", JSONText.object(values)),
        ("current_source", currentSource.map(String.init) ?? "null"),
      ]
      if current.metrics.contains(.precipitationProbability) {
        members.append(
          ("current_precipitation_probability_sources", JSONText.array(currentMembers.map { String($0) })))
      }
    }
    if let hourly {
      var values: [(String, String)] = [("time", JSONText.array(hourly.hours.map { JSONText.string($0.timestamp) }))]
      var units: [(String, String)] = [("time", JSONText.string("iso8601"))]
      for (metric, column) in zip(hourly.metrics, hourly.values) {
        let places = decimals(metric)
        values.append((metric.name, JSONText.array(column.map { JSONText.number($0, decimals: places) })))
        units.append((metric.name, JSONText.string(request.units.label(of: metric))))
      }
      members += [
        ("hourly_units", JSONText.object(units)), ("hourly", JSONText.object(values)),
        ("hourly_sources", JSONText.array(hourly.sourceOfHour.map { $0.map { String(hourlySources[$0]) } ?? "null" })),
      ]
      if hourly.metrics.contains(.precipitationProbability) {
        let lists = hourly.probabilityMembers.map { JSONText.array($0.map { String(hourlySources[$0]) }) }
        members.append(("hourly_precipitation_probability_sources", JSONText.array(lists)))
      }
    }
    if !daily.isEmpty {
      var values: [(String, String)] = [("time", JSONText.array(daily.map { JSONText.string("\($0.day.date)") }))]
      var units: [(String, String)] = [("time", JSONText.string("iso8601"))]
      for variable in dailyVariables {
        values.append((variable.description, JSONText.array(daily.map { dailyValue(variable, $0) })))
        units.append((variable.description, JSONText.string(label(variable))))
      }
      members += [
        ("daily_units", JSONText.object(units)), ("daily", JSONText.object(values)),
        ("daily_sources", JSONText.array(dailySources.map { JSONText.array($0.map(String.init)) })),
      ]
    }
    let unavailable = unavailable(all)
    if !unavailable.isEmpty { members.append(("unavailable", JSONText.object(unavailable))) }
    return JSONText.object(members)
  }

  /// Why each metric asked for is null from some of `sources`: which cubes lack it and
  /// what it is derived from.
  func unavailable(_ sources: [Provenance]) -> [(String, String)] {
    let asked = (current?.metrics ?? []) + (hourly?.metrics ?? []) + dailyVariables.compactMap(\.metric)
    return SourceJSON.unavailable(asked, from: sources)
  }

  /// The instant the answer starts at, for the zone's offset.
  var firstInstant: Int64 {
    current?.time ?? hourly?.hours.first?.instant ?? daily.first?.day.start ?? 0
  }
}

extension ForecastDocument {
  /// The answer as CSV, in sections separated by a blank line: the point and its first
  /// source; current values; hourly rows, each beginning with its local timestamp; daily
  /// rows, each beginning with its local date. Headers carry the units, e.g. `temp (°C)`.
  ///
  /// With a `locationID` (one answer of several, as `/v1/forecast` gives for a list of
  /// points), every header and row begins with a `location_id` column, as in Open-Meteo's
  /// CSV, so that the answers can be concatenated and still told apart.
  public func csv(locationID: Int? = nil) -> String {
    let (all, _, _, _, _) = sources
    var lines: [String] = []
    func line(header: Bool, _ cells: [String]) {
      let id = locationID.map { header ? "location_id" : String($0) }
      lines.append(((id.map { [$0] } ?? []) + cells).joined(separator: ","))
    }
    func header(_ first: String, _ names: [(String, String)]) {
      line(header: true, [first] + names.map { "\($0.0) (\($0.1))" })
    }
    func row(_ cells: [String]) { line(header: false, cells) }
    func cell(_ text: String) -> String { text == "null" ? "" : text.replacing("\"", with: "") }
    line(
      header: true,
      ["latitude", "longitude", "timezone", "utc_offset_seconds", "model", "domain", "run", "cell_i", "cell_j"])
    let first = all.first
    row([
      JSONText.number(request.latitude, decimals: 4), JSONText.number(request.longitude, decimals: 4),
      request.timeZone.identifier, String(request.timeZone.utcOffset(at: firstInstant)), first?.model ?? "",
      first?.domain ?? "", first?.run ?? "", first.map { String($0.i) } ?? "", first.map { String($0.j) } ?? "",
    ])
    if let current {
      lines.append("")
      header("time", current.metrics.map { ($0.name, request.units.label(of: $0)) })
      row(
        [timestamp(current.time)]
          + zip(current.metrics, current.values).map { cell(JSONText.number($1, decimals: decimals($0))) })
    }
    if let hourly {
      lines.append("")
      header("time", hourly.metrics.map { ($0.name, request.units.label(of: $0)) })
      for (index, hour) in hourly.hours.enumerated() {
        row(
          [hour.timestamp]
            + zip(hourly.metrics, hourly.values).map { metric, column in
              cell(JSONText.number(column[index], decimals: decimals(metric)))
            })
      }
    }
    if !daily.isEmpty {
      lines.append("")
      header("date", dailyVariables.map { ($0.description, label($0)) })
      for summary in daily {
        row(["\(summary.day.date)"] + dailyVariables.map { cell(dailyValue($0, summary)) })
      }
    }
    return lines.joined(separator: "\n")
  }
}
