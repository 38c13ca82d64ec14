import FaceKit
import Forecast

extension OpenMeteoDocument {
  /// Several answers as one JSON text: one object, or an array of them.
  public static func json(_ documents: [OpenMeteoDocument], array: Bool) -> String {
    String(decoding: jsonBytes(documents, array: array), as: UTF8.self)
  }

  /// `json(_:array:)` as UTF-8 bytes, for a server to send without validating them again.
  public static func jsonBytes(_ documents: [OpenMeteoDocument], array: Bool) -> [UInt8] {
    withJSON(documents, array: array) { Array($0) }
  }

  /// Lends `json(_:array:)`'s UTF-8 bytes to `body` without copying them, so that a
  /// server copies them once, into its response.
  public static func withJSON<Result>(
    _ documents: [OpenMeteoDocument], array: Bool, _ body: (UnsafeRawBufferPointer) throws -> Result
  ) rethrows -> Result {
    var out = JSONBytes(capacity: 4_096 * documents.count)
    if array { out.byte(UInt8(ascii: "[")) }
    for (index, document) in documents.enumerated() {
      if index > 0 { out.byte(UInt8(ascii: ",")) }
      document.json(into: &out)
    }
    if array { out.byte(UInt8(ascii: "]")) }
    return try out.withBytes(body)
  }

  /// The answer as CSV in Open-Meteo's layout: a line about the point, then each block
  /// (current, minutely_15, hourly, daily) after a blank line, headed `time` and
  /// `<name> (<unit>)`. With a `locationID`, every line begins with a `location_id` column,
  /// so that several points' answers concatenate and stay apart.
  public func csv(locationID: Int? = nil) -> String {
    var lines: [String] = []
    func line(header: Bool, _ cells: [String]) {
      let id = locationID.map { header ? "location_id" : String($0) }
      lines.append(((id.map { [$0] } ?? []) + cells).joined(separator: ","))
    }
    func time(_ hour: LocalHour, dateOnly: Bool = false) -> String {
      var out = JSONBytes(capacity: 20)
      writeTime(hour, dateOnly: dateOnly, into: &out)
      return out.text.replacing("\"", with: "")
    }
    func number(_ value: Double?, _ shown: Presentation) -> String {
      var out = JSONBytes(capacity: 12)
      out.number(value.map { $0 * shown.scale }, decimals: shown.decimals)
      let text = out.text
      return text == "null" ? "" : text
    }
    let zone = request.timeZone
    line(header: true, ["latitude", "longitude", "utc_offset_seconds", "timezone", "timezone_abbreviation"])
    line(
      header: false,
      [
        JSONText.number(request.latitude, decimals: 4), JSONText.number(request.longitude, decimals: 4),
        String(zone.utcOffset(at: now)), timeZoneName, zone.abbreviation(at: now),
      ])
    func block(_ block: OpenMeteoAnswer.Block?, _ columns: [OpenMeteoQuery.Column]) {
      guard let block else { return }
      let shown = columns.map { presentation($0.quantity) }
      lines.append("")
      line(header: true, ["time"] + zip(columns, shown).map { "\($0.name) (\($1.label))" })
      for (index, hour) in block.times.enumerated() {
        line(header: false, [time(hour)] + block.values.indices.map { number(block.values[$0][index], shown[$0]) })
      }
    }
    block(answer.current, answer.query.current)
    block(answer.minutely15, answer.query.minutely15)
    block(answer.hourly, answer.query.hourly)
    if let daily = answer.daily {
      let columns = answer.query.daily
      let shown = columns.map { presentation($0.quantity) }
      lines.append("")
      line(header: true, ["time"] + zip(columns, shown).map { "\($0.name) (\($1.label))" })
      for (index, summary) in daily.summaries.enumerated() {
        let start = LocalHour(instant: summary.day.start, utcOffset: zone.utcOffset(at: summary.day.start))
        let cells = daily.values.indices.map { column -> String in
          guard shown[column].isTime else { return number(daily.values[column][index], shown[column]) }
          guard let value = daily.values[column][index] else { return "" }
          let instant = Int64(value)
          return time(LocalHour(instant: instant, utcOffset: zone.utcOffset(at: instant)))
        }
        line(header: false, [time(start, dateOnly: true)] + cells)
      }
    }
    return lines.joined(separator: "\n")
  }
}
