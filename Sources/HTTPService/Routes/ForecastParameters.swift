import Forecast
import ForecastOutput
import Meteorology
import PointQuery

/// `/v1/forecast`'s parameters, read into one `ForecastQuery` per location. The names and
/// their meaning follow Open-Meteo's forecast API, so that its clients work with few changes.
struct ForecastParameters {
  /// How the answer is written.
  enum Format: String, CaseIterable {
    case json, csv
  }

  /// Every parameter `/v1/forecast` takes; any other is refused (it is most likely a
  /// misspelling).
  static let names = [
    "latitude", "longitude", "hourly", "daily", "current", "timezone", "forecast_days", "past_days", "start_date",
    "end_date", "units", "temperature_unit", "wind_speed_unit", "precipitation_unit", "pressure_unit",
    "visibility_unit", "method", "domain", "format", "elevation", "cell_selection",
  ]

  /// Days counted forward from today when neither `forecast_days` nor `start_date` is given.
  static let defaultForecastDays = 7
  /// Current conditions are for the current quarter hour, as Open-Meteo's are.
  static let currentInterval: Int64 = 900

  /// One query per location, in the order given.
  let queries: [ForecastQuery]
  let format: Format

  /// Reads `query`, with `now` (Unix seconds) for today and current conditions.
  /// - Throws: `APIError` (or a core library error) naming the first parameter at fault.
  init(_ query: QueryParameters, limits: ServiceLimits, now: Int64) throws {
    try query.rejectUnknown(allowed: Self.names)
    let points = try Self.points(query, limit: limits.locations)
    let current = try Self.metrics(query, "current")
    let hourly = try Self.metrics(query, "hourly")
    let daily = try Self.dailyVariables(query)
    guard !(current.isEmpty && hourly.isEmpty && daily.isEmpty) else {
      throw APIError(
        .badRequest,
        "nothing to answer: give hourly, daily or current, e.g. hourly=temp,rain or daily=temp_max,rain_sum")
    }
    let zone = try Self.timeZone(query)
    let units = try UnitSystem(
      preset: query["units"], temperature: query["temperature_unit"], windSpeed: query["wind_speed_unit"],
      precipitation: query["precipitation_unit"], pressure: query["pressure_unit"],
      visibility: query["visibility_unit"])
    let method = try Self.choice(query, "method", default: InterpolationMethod.nearest)
    let (elevations, cellSelection) = (try Self.elevations(query, count: points.count), try Self.cellSelection(query))
    format = try Self.choice(query, "format", default: Format.json)
    let domain = query["domain"]
    if domain?.isEmpty == true { throw APIError.parameter("domain", "empty; give a domain name such as d01") }
    let (start, days) = try Self.days(
      query, today: zone.date(containing: now), limit: limits.days, needed: !(hourly.isEmpty && daily.isEmpty))
    let currentTime = now - ((now % Self.currentInterval) + Self.currentInterval) % Self.currentInterval
    queries = zip(points, elevations).map { point, elevation in
      ForecastQuery(
        request: ForecastRequest(
          latitude: point.latitude, longitude: point.longitude, method: method, domain: domain, timeZone: zone,
          units: units, cellSelection: cellSelection, elevation: elevation),
        current: current, currentTime: currentTime, hourly: hourly, daily: daily, start: start, days: days)
    }
  }

  /// `latitude` and `longitude`: equally long comma-separated lists, at most `limit` long.
  static func points(
    _ query: QueryParameters, limit: Int
  ) throws(APIError) -> [(latitude: Double, longitude: Double)] {
    let latitudeHelp = "latitudes in decimal degrees, −90…90, separated by commas (e.g. 38.1294 or 38.1294,41.1579)"
    let longitudeHelp =
      "longitudes in decimal degrees, east-positive, −180…360, separated by commas (e.g. -8.9341 or -8.9341,-8.6291)"
    let latitudes = try list(query, "latitude", expected: latitudeHelp).map { text throws(APIError) in
      try QueryParameters.number(String(text), name: "latitude", in: -90...90, expected: latitudeHelp)
    }
    let longitudes = try list(query, "longitude", expected: longitudeHelp).map { text throws(APIError) in
      try QueryParameters.number(String(text), name: "longitude", in: -180...360, expected: longitudeHelp)
    }
    guard latitudes.count == longitudes.count else {
      throw APIError(
        .badRequest,
        "latitude has \(latitudes.count) values and longitude \(longitudes.count); give one longitude per latitude")
    }
    guard latitudes.count <= limit else {
      throw APIError(
        .badRequest,
        "latitude and longitude give \(latitudes.count) locations; at most \(limit) are allowed per request")
    }
    return Array(zip(latitudes, longitudes))
  }

  /// The comma-separated items of a required parameter.
  private static func list(_ query: QueryParameters, _ name: String, expected: String) throws(APIError) -> [Substring] {
    try query.required(name, expected: expected).split(separator: ",", omittingEmptySubsequences: false)
  }

  /// A comma-separated list of metrics, each once; empty when the parameter is absent or
  /// empty.
  static func metrics(_ query: QueryParameters, _ name: String) throws(APIError) -> [Metric] {
    guard let text = query[name], !text.isEmpty else { return [] }
    var metrics: [Metric] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let metric = Metric.named(String(item)) else {
        throw APIError.parameter(name, ForecastError.unknownMetric(QueryParameters.quoted(String(item))).description)
      }
      if !metrics.contains(metric) { metrics.append(metric) }
    }
    return metrics
  }

  /// `daily`: daily variable names, each once.
  static func dailyVariables(_ query: QueryParameters) throws(APIError) -> [DailyVariable] {
    guard let text = query["daily"], !text.isEmpty else { return [] }
    do {
      return try DailyVariable.parse(list: text)
    } catch {
      throw APIError.parameter("daily", error.description)
    }
  }

  /// `timezone`: an IANA name, UTC by default.
  static func timeZone(_ query: QueryParameters) throws(APIError) -> LocalTimeZone {
    guard let name = query["timezone"] else { return .utc }
    guard name.lowercased() != "auto" else {
      throw APIError.parameter(
        "timezone", "'auto' is not supported (nwpcube has no map of zones); give an IANA name such as Europe/Lisbon")
    }
    do {
      return try LocalTimeZone(identifier: name)
    } catch {
      throw APIError.parameter("timezone", error.description)
    }
  }

  /// A parameter whose value is one of a fixed set of names.
  static func choice<Choice: RawRepresentable & CaseIterable>(
    _ query: QueryParameters, _ name: String, default: Choice
  ) throws(APIError) -> Choice where Choice.RawValue == String {
    guard let text = query[name] else { return `default` }
    guard let choice = Choice(rawValue: text) else {
      let allowed = Choice.allCases.map(\.rawValue).joined(separator: " or ")
      throw APIError.parameter(name, "\(QueryParameters.quoted(text)) is not allowed; give \(allowed)")
    }
    return choice
  }

  /// The first local day and the number of days: `start_date`…`end_date`, or `past_days`
  /// before today to `forecast_days` after it. At most `limit` days; at least one when
  /// hourly or daily values are `needed`.
  static func days(
    _ query: QueryParameters, today: LocalDate, limit: Int, needed: Bool
  ) throws(APIError) -> (start: LocalDate, days: Int) {
    let forecastDays = try query.integer("forecast_days", in: 0...limit)
    let pastDays = try query.integer("past_days", in: 0...limit)
    let startText = query["start_date"]
    let endText = query["end_date"]
    guard startText != nil || endText != nil else {
      let days = (forecastDays ?? defaultForecastDays) + (pastDays ?? 0)
      guard days <= limit else {
        throw APIError(
          .badRequest, "past_days + forecast_days is \(days); at most \(limit) days are allowed per request")
      }
      guard days >= 1 || !needed else {
        throw APIError(
          .badRequest, "past_days + forecast_days is 0; hourly and daily values need at least one day")
      }
      return (today.adding(days: -(pastDays ?? 0)), days)
    }
    guard forecastDays == nil, pastDays == nil else {
      throw APIError(
        .badRequest, "start_date and end_date cannot be combined with forecast_days or past_days; give one or the other"
      )
    }
    let start = try date(startText, "start_date")
    let end = try date(endText, "end_date")
    let days = end.daysSinceEpoch - start.daysSinceEpoch + 1
    guard days >= 1 else { throw APIError.parameter("end_date", "\(end) is before start_date \(start)") }
    guard days <= limit else {
      throw APIError(
        .badRequest, "start_date \(start) to end_date \(end) is \(days) days; at most \(limit) are allowed per request")
    }
    return (start, days)
  }

  private static func date(_ text: String?, _ name: String) throws(APIError) -> LocalDate {
    guard let text else {
      throw APIError.parameter(name, "missing; start_date and end_date go together, each a date written yyyy-MM-dd")
    }
    do {
      return try LocalDate(parsing: text)
    } catch {
      throw APIError.parameter(
        name, "\(QueryParameters.quoted(text)) is not a date written yyyy-MM-dd (e.g. 2026-06-20)")
    }
  }
}
