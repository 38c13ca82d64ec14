import Foundation
import NetCDF
import UTCTime

/// CF time coordinates: "<unit> since <reference>" (seconds, minutes, hours or days, in any
/// case and number, e.g. GRIB converters' "Hour since 2010-10-26T12:00:00+00:00"), on a
/// 1-D time axis or a scalar time.
struct CFTime {
  let variable: String
  /// The valid time of each step, Unix seconds.
  let times: [Int64]
  /// The reference time of the units: for model output, the run's analysis time.
  let reference: Int64

  init(_ file: NCFile) throws(IngestError) {
    let candidates = file.variables.values.filter { variable in
      variable.shape.count <= 1 && (variable.attributes["units"]?.text ?? "").lowercased().contains(" since ")
        && (variable.attributes["standard_name"]?.text == "time" || variable.attributes["axis"]?.text == "T"
          || ["time", "valid_time", "t"].contains(variable.name.lowercased()))
    }
    guard let time = candidates.sorted(by: { $0.name < $1.name }).first,
      let units = time.attributes["units"]?.text
    else {
      throw IngestError(
        path: file.path,
        reason:
          "no CF time: looked for a variable with standard_name time, axis T or the name time/valid_time and units \"<unit> since <date>\""
      )
    }
    guard let (unit, reference) = Self.parse(units) else {
      throw IngestError(
        path: file.path, variable: time.name,
        reason: "units \"\(units)\" are not \"<seconds|minutes|hours|days> since <date>\"")
    }
    let values: [Double]
    do {
      values = try file.readUnpacked(time.name, start: time.shape.map { _ in 0 }, count: time.shape)
    } catch {
      throw IngestError(error)
    }
    if let bad = values.firstIndex(where: { !$0.isFinite }) {
      throw IngestError(path: file.path, variable: time.name, reason: "step \(bad + 1) has no time value")
    }
    var times: [Int64] = []
    times.reserveCapacity(values.count)
    for (index, value) in values.enumerated() {
      times.append(
        try TimeAxis.time(
          value, secondsPerUnit: unit, since: reference, path: file.path, variable: time.name,
          what: "step \(index + 1)"))
    }
    variable = time.name
    self.reference = reference
    self.times = times
  }

  /// (seconds per unit, reference time) of CF time units.
  static func parse(_ units: String) -> (Double, Int64)? {
    let parts = units.components(separatedBy: " since ")
    guard parts.count == 2 else { return nil }
    let seconds: Double
    switch parts[0].trimmingCharacters(in: .whitespaces).lowercased() {
    case "second", "seconds", "sec", "secs", "s": seconds = 1
    case "minute", "minutes", "min", "mins": seconds = 60
    case "hour", "hours", "hr", "hrs", "h": seconds = 3600
    case "day", "days", "d": seconds = 86_400
    default: return nil
    }
    var date = parts[1].trimmingCharacters(in: .whitespaces)
    for suffix in [" UTC", " utc", " GMT", "UTC"] where date.hasSuffix(suffix) {
      date = String(date.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
    }
    // Fractional seconds ("12:00:00.0") carry nothing a model time needs.
    if let dot = date.firstIndex(of: "."), date[date.index(after: dot)...].allSatisfy({ $0.isNumber }) {
      date = String(date[..<dot])
    }
    // CF allows unpadded fields ("1900-1-1 0:0:0"); pad them.
    let fields = date.split(whereSeparator: { $0 == " " || $0 == "T" })
    if let day = fields.first, day.split(separator: "-").count == 3 {
      let ymd = day.split(separator: "-").enumerated().map { index, part in
        index == 0 ? String(part) : (part.count == 1 ? "0\(part)" : String(part))
      }
      var rebuilt = ymd.joined(separator: "-")
      if fields.count > 1 {
        let rest = fields[1]
        let clock = rest.prefix { $0 != "+" && $0 != "-" && $0 != "Z" }
        let zone = rest.dropFirst(clock.count)
        let hms = clock.split(separator: ":").map { $0.count == 1 ? "0\($0)" : String($0) }
        rebuilt += "T" + hms.joined(separator: ":") + zone
      }
      date = rebuilt
    }
    guard let reference = UTC.parseISO8601(date) else { return nil }
    return (seconds, reference)
  }
}
