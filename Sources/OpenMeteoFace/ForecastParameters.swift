import FaceKit
import Forecast
import Meteorology
import PointQuery

/// `/v1/forecast`'s parameters, read into one `OpenMeteoQuery` per location. The names,
/// their meaning and their defaults are Open-Meteo's forecast API's, so that its clients
/// work by changing only their base URL; nwpcube's own names and unit parameters stay
/// accepted beside them.
package struct ForecastParameters {
  /// How the answer is written.
  package enum Format: String, CaseIterable {
    case json, csv
    /// Open-Meteo's FlatBuffers messages, which its SDKs ask for.
    case flatbuffers
  }

  /// Every parameter `/v1/forecast` documents; any other is refused (it is most likely a
  /// misspelling).
  package static let names = [
    "latitude", "longitude", "hourly", "daily", "current", "minutely_15", "timezone", "forecast_days", "past_days",
    "forecast_hours", "past_hours", "forecast_minutely_15", "past_minutely_15", "start_date", "end_date",
    "start_hour", "end_hour", "temperature_unit", "wind_speed_unit", "precipitation_unit", "timeformat", "models",
    "cell_selection", "elevation", "units", "pressure_unit", "visibility_unit", "method", "domain", "format",
    "location_id", "windspeed_unit",
  ]
  /// The parameters that take a list, as repeated keys, comma-separated values or both
  /// (Open-Meteo's decoder reads them so); any other given twice takes its last value.
  package static let lists: Set<String> = [
    "latitude", "longitude", "elevation", "location_id", "hourly", "daily", "current", "minutely_15", "models",
    "timezone",
  ]
  /// How `/v1/forecast` reads a repeated key: as Open-Meteo does.
  package static let repeats = QueryParameters.Repeats.lastWins(lists: lists)
  /// Parameters taken but read elsewhere: the API key, which the key check reads before
  /// the route, so that a client sending one is not refused here.
  package static let passedOn = ["apikey"]

  /// Days counted forward from today when neither `forecast_days` nor `start_date` is given.
  package static let defaultForecastDays = 7
  /// `models=best_match`: the run catalogue's rule, the newest run of the finest domain.
  package static let bestMatch = "best_match"

  /// One query per location, in the order given.
  package let queries: [OpenMeteoQuery]
  package let format: Format
  package let timeFormat: OpenMeteoDocument.TimeFormat
  /// How `timezone` is echoed: as given, `GMT` when absent; the point's zone for `auto`.
  package let timeZoneNames: [String]
  /// Each location's `location_id`: as given, else its index in the request.
  package let locationIDs: [Int]

  /// Reads `query`, with `now` (Unix seconds) for today and current conditions.
  /// - Parameters:
  ///   - limits: the most locations and days one request may ask for.
  ///   - models: the store's model/domain names (`wrf/d01`), for `models=`.
  ///   - zoneFinder: the zones of points, for `timezone=auto`.
  /// - Throws: `FaceError` (or a core library error) naming the first parameter at fault.
  package init(
    _ query: QueryParameters, limits: (locations: Int, days: Int), now: Int64, models: [String] = [],
    zoneFinder: ZoneFinder? = nil
  ) throws {
    try query.rejectUnknown(allowed: Self.names + Self.passedOn, listed: Self.names)
    let points = try Self.points(query, limit: limits.locations)
    let current = try Self.columns(query, "current")
    let hourly = try Self.columns(query, "hourly")
    let minutely = try Self.columns(query, "minutely_15")
    let daily = try Self.dailyColumns(query)
    guard !(current.isEmpty && hourly.isEmpty && daily.isEmpty && minutely.isEmpty) else {
      throw FaceError(
        .badParameter,
        "nothing to answer: give hourly, daily, current or minutely_15, e.g. hourly=temperature_2m,precipitation "
          + "or daily=temperature_2m_max,precipitation_sum")
    }
    let zones = try Self.timeZones(query, points: points, finder: zoneFinder)
    // Open-Meteo's default wind speed is km/h; a preset (`units=si`) keeps its own.
    // Open-Meteo's older name, refused under its own name.
    if query["wind_speed_unit"] == nil, let alias = query["windspeed_unit"], (try? WindSpeedUnit(parsing: alias)) == nil
    {
      let allowed = WindSpeedUnit.allCases.map(\.rawValue).joined(separator: ", ")
      throw FaceError.parameter("windspeed_unit", "unknown unit \"\(alias)\"; allowed: \(allowed)")
    }
    let units = try UnitSystem(
      preset: query["units"], temperature: query["temperature_unit"],
      windSpeed: query["wind_speed_unit"] ?? query["windspeed_unit"]
        ?? (query["units"] == nil ? WindSpeedUnit.kilometresPerHour.rawValue : nil),
      precipitation: query["precipitation_unit"], pressure: query["pressure_unit"],
      visibility: query["visibility_unit"])
    let method = try query.choice("method", default: InterpolationMethod.nearest)
    let (elevations, cellSelection) = (try Self.elevations(query, count: points.count), try Self.cellSelection(query))
    format = try query.choice("format", default: Format.json)
    timeFormat = try query.choice("timeformat", default: OpenMeteoDocument.TimeFormat.iso8601)
    let domain = try Self.domain(query, models: models)
    let needsDays = !(hourly.isEmpty && daily.isEmpty && minutely.isEmpty)
    let hourWindow = try Self.window(query, "hours", step: 3_600, limit: limits.days * 24)
    let quarterWindow = try Self.window(query, "minutely_15", step: 900, limit: limits.days * 96)
    let hourRange = try Self.hourRange(query)
    let currentTime = CurrentInterval.start(containing: now)
    var queries: [OpenMeteoQuery] = []
    for ((point, zone), elevation) in zip(zip(points, zones), elevations) {
      let (start, days) = try Self.days(
        query, today: zone.zone.date(containing: now), limit: limits.days)
      var plan = OpenMeteoQuery(
        request: ForecastRequest(
          latitude: point.latitude, longitude: point.longitude, method: method, domain: domain, timeZone: zone.zone,
          units: units, cellSelection: cellSelection, elevation: elevation),
        start: start, days: days)
      plan.current = current
      plan.currentTime = currentTime
      plan.hourly = hourly
      plan.minutely15 = minutely
      plan.daily = daily
      let localDays = needsDays ? zone.zone.days(from: start, count: days) : []
      if !hourly.isEmpty {
        plan.hours = try Self.times(
          zone.zone, now: now, step: 3_600, window: hourWindow, range: hourRange, days: localDays,
          limit: limits.days * 24)
      }
      if !minutely.isEmpty {
        plan.quarters = try Self.times(
          zone.zone, now: now, step: 900, window: quarterWindow, range: hourRange, days: localDays,
          limit: limits.days * 96)
      }
      queries.append(plan)
    }
    self.queries = queries
    timeZoneNames = zones.map(\.name)
    locationIDs = try Self.locationIDs(query, count: points.count)
  }

  /// `location_id`: an integer per location that the answer carries back, Open-Meteo's way
  /// of telling the answers apart; by default each location's index.
  package static func locationIDs(_ query: QueryParameters, count: Int) throws(FaceError) -> [Int] {
    guard let items = query.list("location_id") else { return Array(0..<count) }
    guard items.count == count else {
      throw FaceError.parameter(
        "location_id", "has \(items.count) values for \(count) locations; give one integer per location")
    }
    return try items.map { item throws(FaceError) in
      guard let id = Int(item) else {
        throw FaceError.parameter("location_id", "\(QueryParameters.quoted(String(item))) is not an integer")
      }
      return id
    }
  }
  /// `latitude` and `longitude`: equally long comma-separated lists, at most `limit` long.
  package static func points(
    _ query: QueryParameters, limit: Int
  ) throws(FaceError) -> [(latitude: Double, longitude: Double)] {
    let latitudeHelp = "latitudes in decimal degrees, −90…90, separated by commas (e.g. 38.1294 or 38.1294,41.1579)"
    let longitudeHelp =
      "longitudes in decimal degrees, east-positive, −180…360, separated by commas (e.g. -8.9341 or -8.9341,-8.6291)"
    let latitudes = try list(query, "latitude", expected: latitudeHelp).map { text throws(FaceError) in
      try Coordinate.latitude(String(text), name: "latitude", expected: latitudeHelp)
    }
    let longitudes = try list(query, "longitude", expected: longitudeHelp).map { text throws(FaceError) in
      try Coordinate.longitude(String(text), name: "longitude", expected: longitudeHelp)
    }
    guard latitudes.count == longitudes.count else {
      throw FaceError(
        .badParameter,
        "latitude has \(latitudes.count) values and longitude \(longitudes.count); give one longitude per latitude")
    }
    guard latitudes.count <= limit else {
      throw FaceError(
        .badParameter,
        "latitude and longitude give \(latitudes.count) locations; at most \(limit) are allowed per request")
    }
    return Array(zip(latitudes, longitudes))
  }

  /// The items of a required list parameter, given as repeated keys, comma-separated or both.
  private static func list(_ query: QueryParameters, _ name: String, expected: String) throws(FaceError) -> [Substring]
  {
    guard let items = query.list(name) else { throw FaceError.parameter(name, "missing; give \(expected)") }
    guard items != [""] else { throw FaceError.parameter(name, "empty; give \(expected)") }
    return items
  }

  /// The items of an optional list of variables: none when absent or empty.
  private static func variables(_ query: QueryParameters, _ name: String) -> [String] {
    guard let items = query.list(name), items != [""] else { return [] }
    return items.map(String.init)
  }

  /// A comma-separated list of hourly variables (Open-Meteo's names or nwpcube's metric
  /// names), each once, keyed as given; empty when the parameter is absent or empty.
  package static func columns(_ query: QueryParameters, _ name: String) throws(FaceError) -> [OpenMeteoQuery.Column] {
    var columns: [OpenMeteoQuery.Column] = []
    for item in variables(query, name) {
      guard let quantity = OpenMeteoNames.hourly(item) else {
        throw FaceError.parameter(
          name,
          "unknown variable \(QueryParameters.quoted(item)); supported: \(OpenMeteoNames.hourlyList) "
            + "(or nwpcube's metric names: \(Metric.queryable.map(\.name).joined(separator: ", ")))")
      }
      if !columns.contains(where: { $0.name == item }) {
        columns.append(OpenMeteoQuery.Column(name: item, quantity: quantity))
      }
    }
    return columns
  }

  /// `daily`: Open-Meteo's daily names or nwpcube's, each column once.
  package static func dailyColumns(_ query: QueryParameters) throws(FaceError) -> [OpenMeteoQuery.DailyColumn] {
    var columns: [OpenMeteoQuery.DailyColumn] = []
    for item in variables(query, "daily") {
      guard let found = OpenMeteoNames.daily(item) else {
        throw FaceError.parameter(
          "daily",
          "unknown variable \(QueryParameters.quoted(item)); supported: \(OpenMeteoNames.dailyList) "
            + "(or nwpcube's daily names, e.g. temp_max, rain_sum, wind_dir_dominant)")
      }
      for (name, quantity) in found where !columns.contains(where: { $0.name == name }) {
        columns.append(OpenMeteoQuery.DailyColumn(name: name, quantity: quantity))
      }
    }
    return columns
  }

  /// `timezone` for each point, with the name the answer echoes: an IANA name, `GMT` (UTC)
  /// by default, or `auto`, the point's own zone from `finder`. One zone for every point, or
  /// one per point (Open-Meteo's rule).
  package static func timeZones(
    _ query: QueryParameters, points: [(latitude: Double, longitude: Double)], finder: ZoneFinder?
  ) throws(FaceError) -> [(zone: LocalTimeZone, name: String)] {
    guard let names = query.list("timezone") else { return points.map { _ in (.utc, "GMT") } }
    guard names.count == 1 || names.count == points.count else {
      throw FaceError.parameter(
        "timezone", "has \(names.count) values for \(points.count) locations; give one zone, or one per location")
    }
    return try points.enumerated().map { index, point throws(FaceError) in
      try timeZone(String(names[names.count == 1 ? 0 : index]), point: point, finder: finder)
    }
  }

  /// One point's `timezone`.
  private static func timeZone(
    _ name: String, point: (latitude: Double, longitude: Double), finder: ZoneFinder?
  ) throws(FaceError) -> (zone: LocalTimeZone, name: String) {
    guard name.lowercased() == "auto" else {
      do {
        let zone = try LocalTimeZone.named(name)
        return (zone, zone.identifier)
      } catch {
        throw FaceError.parameter("timezone", error.description)
      }
    }
    guard let finder else {
      throw FaceError.parameter(
        "timezone",
        "'auto' needs a map of places (start the service with a gazetteer); give an IANA name such as Europe/Lisbon")
    }
    guard let identifier = finder.zone(latitude: point.latitude, longitude: point.longitude) else {
      throw FaceError.parameter(
        "timezone",
        "'auto' found no zone for latitude \(point.latitude), longitude \(point.longitude) in \(finder.source); "
          + "give an IANA name such as Europe/Lisbon")
    }
    do {
      let zone = try LocalTimeZone.named(identifier)
      return (zone, zone.identifier)
    } catch {
      throw FaceError.parameter("timezone", "'auto' found \(error) in \(finder.source)")
    }
  }

  /// `models`: `best_match` (or absent) for the run catalogue's rule, or one of the store's
  /// model/domain names (`wrf/d01`) or domain names (`d01`); the domain to answer from.
  package static func domain(_ query: QueryParameters, models: [String]) throws(FaceError) -> String? {
    let domain = query["domain"]
    if domain?.isEmpty == true { throw FaceError.parameter("domain", "empty; give a domain name such as d01") }
    guard let items = query.list("models") else { return domain }
    let known = [bestMatch] + models
    let list = known.joined(separator: ", ")
    guard items.count == 1 else {
      throw FaceError.parameter(
        "models", "\(QueryParameters.quoted(items.joined(separator: ","))) names several; give one of \(list)")
    }
    let model = String(items[0])
    guard model != bestMatch else { return domain }
    guard let found = models.first(where: { $0 == model || $0.split(separator: "/").last.map(String.init) == model })
    else {
      throw FaceError.parameter("models", "unknown model \(QueryParameters.quoted(model)); this store has \(list)")
    }
    let chosen = String(found.split(separator: "/").last ?? Substring(found))
    if let domain, domain != chosen {
      throw FaceError.parameter("domain", "\(domain) contradicts models=\(model); give one of them")
    }
    return chosen
  }

  /// `forecast_<unit>` and `past_<unit>` (`forecast_hours`, `past_minutely_15`): how many
  /// steps to give after and before the current one, nil when neither is given.
  package static func window(
    _ query: QueryParameters, _ unit: String, step: Int64, limit: Int
  ) throws(FaceError) -> (past: Int, forecast: Int)? {
    let forecast = try query.integer("forecast_\(unit)", in: 0...limit)
    let past = try query.integer("past_\(unit)", in: 0...limit)
    guard forecast != nil || past != nil else { return nil }
    let total = (past ?? 0) + (forecast ?? Int(Int64(defaultForecastDays) * 86_400 / step))
    guard total <= limit else {
      throw FaceError(
        .badParameter, "past_\(unit) + forecast_\(unit) is \(total); at most \(limit) are allowed per request")
    }
    return (past ?? 0, total - (past ?? 0))
  }

  /// `start_hour` and `end_hour` (local `yyyy-MM-ddTHH:mm`, both inclusive) as instants.
  package static func hourRange(_ query: QueryParameters) throws(FaceError) -> (start: String, end: String)? {
    let start = query["start_hour"]
    let end = query["end_hour"]
    guard start != nil || end != nil else { return nil }
    guard let start, let end else {
      throw FaceError.parameter(
        start == nil ? "start_hour" : "end_hour",
        "missing; start_hour and end_hour go together, each a local time written yyyy-MM-ddTHH:mm")
    }
    // A zero count asks for nothing, so it goes with a range, as Open-Meteo allows.
    if query["start_date"] != nil || (query["forecast_hours"] ?? "0") != "0" || (query["past_hours"] ?? "0") != "0" {
      throw FaceError(
        .badParameter, "start_hour and end_hour cannot be combined with start_date, forecast_hours or past_hours")
    }
    return (start, end)
  }

  /// The times of an hourly or 15-minute block: `window` steps around the current one,
  /// the `range` given, or every step of `days`.
  package static func times(
    _ zone: LocalTimeZone, now: Int64, step: Int64, window: (past: Int, forecast: Int)?,
    range: (start: String, end: String)?, days: [LocalDay], limit: Int
  ) throws(FaceError) -> [LocalHour] {
    var instants: [Int64]
    if let range {
      let first = try localInstant(range.start, "start_hour", zone)
      let last = try localInstant(range.end, "end_hour", zone)
      guard last >= first else {
        throw FaceError.parameter("end_hour", "\(range.end) is before start_hour \(range.start)")
      }
      let count = (last - first) / step + 1
      guard count <= limit else {
        throw FaceError(
          .badParameter,
          "start_hour \(range.start) to end_hour \(range.end) is \(count) steps; at most \(limit) are allowed per request"
        )
      }
      instants = (0..<Int(count)).map { first + Int64($0) * step }
    } else if let window {
      // The current step in local time, as Open-Meteo counts: the zone's whole hour (or
      // quarter) now.
      let offset = Int64(zone.utcOffset(at: now))
      let local = now + offset
      let current = local - ((local % step) + step) % step - offset
      instants = (-window.past..<window.forecast).map { current + Int64($0) * step }
    } else if step == 3_600 {
      return days.flatMap(\.hours)
    } else {
      guard let first = days.first?.start, let end = days.last?.end else { return [] }
      instants = Array(stride(from: first, to: end, by: Int(step)))
    }
    return instants.map { LocalHour(instant: $0, utcOffset: zone.utcOffset(at: $0)) }
  }

  /// A local time `yyyy-MM-ddTHH:mm` in `zone` as Unix seconds (the earlier of a repeated
  /// hour; a skipped hour is read with the offset before the gap).
  package static func localInstant(_ text: String, _ name: String, _ zone: LocalTimeZone) throws(FaceError) -> Int64 {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard bytes.count == 16, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      let date = try? LocalDate(parsing: String(decoding: bytes[0..<10], as: UTF8.self)),
      let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60
    else {
      throw FaceError.parameter(
        name, "\(QueryParameters.quoted(text)) is not a local time written yyyy-MM-ddTHH:mm (e.g. 2026-06-21T06:00)")
    }
    let wall = Int64(date.daysSinceEpoch) * 86_400 + hour * 3_600 + minute * 60
    return wall - Int64(zone.utcOffset(at: wall - Int64(zone.utcOffset(at: wall))))
  }

  /// The first local day and the number of days: `start_date`…`end_date`, or `past_days`
  /// before today to `forecast_days` after it. At most `limit` days; none with
  /// `forecast_days=0`, which gives empty blocks.
  package static func days(
    _ query: QueryParameters, today: LocalDate, limit: Int
  ) throws(FaceError) -> (start: LocalDate, days: Int) {
    let forecastDays = try query.integer("forecast_days", in: 0...limit)
    let pastDays = try query.integer("past_days", in: 0...limit)
    let startText = query["start_date"]
    let endText = query["end_date"]
    guard startText != nil || endText != nil else {
      let days = (forecastDays ?? defaultForecastDays) + (pastDays ?? 0)
      guard days <= limit else {
        throw FaceError(
          .badParameter, "past_days + forecast_days is \(days); at most \(limit) days are allowed per request")
      }
      // No day at all is empty blocks, as Open-Meteo answers `forecast_days=0`.
      return (today.adding(days: -(pastDays ?? 0)), days)
    }
    // Zeros ask for nothing and go with dates, as Open-Meteo allows.
    guard (forecastDays ?? 0) == 0, (pastDays ?? 0) == 0 else {
      throw FaceError(
        .badParameter,
        "start_date and end_date cannot be combined with forecast_days or past_days; give one or the other"
      )
    }
    let start = try date(startText, "start_date")
    let end = try date(endText, "end_date")
    let days = end.daysSinceEpoch - start.daysSinceEpoch + 1
    guard days >= 1 else { throw FaceError.parameter("end_date", "\(end) is before start_date \(start)") }
    guard days <= limit else {
      throw FaceError(
        .badParameter,
        "start_date \(start) to end_date \(end) is \(days) days; at most \(limit) are allowed per request")
    }
    return (start, days)
  }

  private static func date(_ text: String?, _ name: String) throws(FaceError) -> LocalDate {
    guard let text else {
      throw FaceError.parameter(name, "missing; start_date and end_date go together, each a date written yyyy-MM-dd")
    }
    return try date(parsing: text, name: name)
  }

  /// The date the parameter `name` gives as `text`, written yyyy-MM-dd.
  package static func date(parsing text: String, name: String) throws(FaceError) -> LocalDate {
    do {
      return try LocalDate(parsing: text)
    } catch {
      throw FaceError.parameter(
        name, "\(QueryParameters.quoted(text)) is not a date written yyyy-MM-dd (e.g. 2026-06-20)")
    }
  }
}
