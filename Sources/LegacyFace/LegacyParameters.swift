import FaceKit
import Forecast
import Meteorology
import UTCTime

/// The legacy app's parameters (DESIGN §8), read from a query: `lat`, `lon`, `date`
/// (`yyyyMMdd_HH` or `yyyyMMdd`, UTC), `metric` and `days`.
///
/// Parameters the app may add that nwpcube does not know are ignored, not refused: the
/// app must keep working unchanged, and nothing it sends can be corrected on its side.
package struct LegacyParameters {
  package let query: QueryParameters

  /// The parameters in `query`.
  package init(query: QueryParameters) {
    self.query = query
  }

  /// The days `MedianPrevByDays.php` may add after its first.
  package static let days = 0...7

  package static let latitudeHelp = "the latitude in decimal degrees, −90…90 (e.g. 38.1294)"
  package static let longitudeHelp =
    "the longitude in decimal degrees, east-positive, −180…360 (e.g. -8.9341; places west of Greenwich are negative)"
  package static let hourHelp = "a UTC hour written yyyyMMdd_HH (e.g. 20260620_15)"
  package static let dayHelp = "a UTC day written yyyyMMdd (e.g. 20260620)"

  /// `lat` and `lon`.
  package func point() throws(FaceError) -> Coordinate {
    try query.coordinate(names: ("lat", "lon"), expected: (Self.latitudeHelp, Self.longitudeHelp))
  }

  /// `date` as a UTC hour, `yyyyMMdd_HH`: Unix seconds.
  package func hour() throws(FaceError) -> Int64 {
    let text = try query.required("date", expected: Self.hourHelp)
    guard let fields = Self.dateFields(text), let hour = fields.hour,
      let seconds = UTC.seconds(year: fields.year, month: fields.month, day: fields.day, hour: hour)
    else {
      throw FaceError.parameter("date", "\(QueryParameters.quoted(text)) is not \(Self.hourHelp)")
    }
    return seconds
  }

  /// `date` as a UTC day, `yyyyMMdd`. An hour after it (`yyyyMMdd_HH`, as the hourly
  /// endpoints take) is accepted and names its day, so that an app sending one date
  /// format everywhere is understood.
  package func day() throws(FaceError) -> LocalDate {
    let text = try query.required("date", expected: Self.dayHelp)
    guard let fields = Self.dateFields(text), (0...23).contains(fields.hour ?? 0),
      let date = LocalDate(year: fields.year, month: fields.month, day: fields.day)
    else {
      throw FaceError.parameter("date", "\(QueryParameters.quoted(text)) is not \(Self.dayHelp)")
    }
    return date
  }

  /// `metric`: a metric name (the app asks for temp, hum, rain, cloud, wind_vel, wind_dir
  /// and atm_press; every metric nwpcube knows is answered).
  package func metric() throws(FaceError) -> Metric {
    let names = Metric.queryable.map(\.name).joined(separator: ", ")
    let name = try query.required("metric", expected: "a metric name: \(names)")
    guard let metric = Metric.named(name) else {
      throw FaceError.parameter("metric", "unknown metric \(QueryParameters.quoted(name)); known metrics: \(names)")
    }
    return metric
  }

  /// `days`, 0…7: how many days follow the first.
  package func days() throws(FaceError) -> Int {
    let range = Self.days
    guard let days = try query.integer("days", in: range) else {
      throw FaceError.parameter("days", "missing; give an integer in \(range.lowerBound)…\(range.upperBound)")
    }
    return days
  }

  /// The fields of `yyyyMMdd` or `yyyyMMdd_HH`, unchecked beyond being digits.
  package static func dateFields(_ text: String) -> (year: Int, month: Int, day: Int, hour: Int?)? {
    let parts = text.utf8.split(separator: UInt8(ascii: "_"), omittingEmptySubsequences: false)
    guard parts.count <= 2, parts[0].count == 8, parts.count == 1 || parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
      let date = Int(Substring(parts[0]))
    else { return nil }
    return (date / 10_000, date / 100 % 100, date % 100, parts.count == 2 ? Int(Substring(parts[1])) : nil)
  }
}
