import FaceKit
import Forecast
import Meteogram
import OpenMeteoFace
import PointQuery

/// `/v1/meteogram.svg`'s parameters: one point, the days, the zone and units, and the
/// picture's format.
struct MeteogramParameters {
  /// What the picture is written as.
  enum Format: String, CaseIterable {
    case svg, png
  }

  /// Every parameter the route takes; any other is refused (most likely a misspelling).
  static let names = ["latitude", "longitude", "days", "start_date", "timezone", "units", "format"]

  let query: MeteogramQuery
  let format: Format

  /// Reads `query`, counting days from `start_date`, or from today (in the point's zone) at
  /// `now` without one: a store of past runs has no today to draw.
  /// - Parameter zoneFinder: the zones of points, for `timezone=auto`, which is also the
  ///   default when there is one (UTC otherwise, as `/v1/forecast`).
  /// - Throws: `FaceError` naming the first parameter at fault.
  init(_ query: QueryParameters, now: Int64, zoneFinder: ZoneFinder?) throws(FaceError) {
    try query.rejectUnknown(allowed: Self.names + ForecastParameters.passedOn, listed: Self.names)
    let point = try query.coordinate(expected: (Self.latitudeHelp, Self.longitudeHelp))
    let (latitude, longitude) = (point.latitude, point.longitude)
    let days = try query.integer("days", in: MeteogramQuery.dayLimit) ?? MeteogramQuery.defaultDays
    let units = try query.choice("units", default: MeteogramUnits.metric)
    format = try query.choice("format", default: Format.svg)
    let zone: LocalTimeZone
    if query["timezone"] == nil, let zoneFinder {
      // Local time where the point is, when the server can tell; UTC when it cannot.
      zone =
        zoneFinder.zone(latitude: latitude, longitude: longitude).flatMap { try? LocalTimeZone.named($0) } ?? .utc
    } else {
      let point = [(latitude: latitude, longitude: longitude)]
      zone = try ForecastParameters.timeZones(query, points: point, finder: zoneFinder)[0].zone
    }
    var start = zone.date(containing: now)
    if let text = query["start_date"] { start = try ForecastParameters.date(parsing: text, name: "start_date") }
    self.query = MeteogramQuery(
      request: ForecastRequest(
        latitude: latitude, longitude: longitude, timeZone: zone, units: units.system,
        cellSelection: MeteogramQuery.defaultCellSelection),
      start: start, days: days)
  }

  static let latitudeHelp = "a latitude in decimal degrees, −90…90 (e.g. 38.1294)"
  static let longitudeHelp = "a longitude in decimal degrees, east-positive, −180…360 (e.g. -8.9341)"
}
