import FaceKit
import Forecast

/// A Dark Sky request's path location (`latitude,longitude` or `latitude,longitude,time`)
/// and query (`exclude`, `extend`, `units`, `lang`), as Dark Sky read them. Parameters
/// Dark Sky did not have are ignored, as Dark Sky ignored them, so that a client's extras
/// (Pirate Weather's `version`, say) do not break it.
package struct DarkSkyParameters {
  /// A Time Machine time as written: an instant, or a wall-clock time in the point's zone.
  package enum Time: Equatable {
    case instant(Int64)
    /// Seconds of the local wall-clock time counted as if it were UTC.
    case local(Int64)
  }

  /// The query parameters read; others are ignored.
  package static let names = ["exclude", "extend", "units", "lang"]

  package static let locationHelp =
    "latitude,longitude or latitude,longitude,time (e.g. 38.7223,-9.1393 or 38.7223,-9.1393,2026-06-21T12:00:00)"
  package static let timeHelp =
    "Unix seconds or a time written yyyy-MM-ddTHH:mm:ss, optionally followed by Z or ±hh:mm "
    + "(e.g. 1782043200 or 2026-06-21T12:00:00Z); without a zone it is the point's local time"

  package let latitude: Double
  package let longitude: Double
  /// The Time Machine time, nil for a forecast from now.
  package let time: Time?
  /// The text of `time`, for messages.
  package let timeText: String?
  package let excluded: Set<DarkSkyQuery.Block>
  package let extendHourly: Bool
  /// nil for `auto`.
  package let units: DarkSkyUnits?

  /// Reads the decoded location segment and the query.
  /// - Throws: `FaceError` naming the part at fault.
  package init(location: String, query: QueryParameters) throws(FaceError) {
    let parts = location.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3 else {
      throw FaceError.parameter(
        "location",
        "\(QueryParameters.quoted(location)) has \(parts.count) comma-separated part\(parts.count == 1 ? "" : "s"); "
          + "give \(Self.locationHelp)")
    }
    latitude = try Coordinate.latitude(
      String(parts[0]), name: "latitude",
      expected: "a latitude in decimal degrees, −90…90, as in "
        + Self.locationHelp)
    longitude = try Coordinate.longitude(
      String(parts[1]), name: "longitude",
      expected: "an east-positive longitude in decimal degrees, −180…180, as in " + Self.locationHelp,
      in: Coordinate.signedLongitudes)
    if parts.count == 3 {
      timeText = String(parts[2])
      time = try Self.time(String(parts[2]))
    } else {
      (timeText, time) = (nil, nil)
    }
    excluded = try Self.excluded(query["exclude"])
    if let extend = query["extend"], extend != "hourly" {
      throw FaceError.parameter("extend", "\(QueryParameters.quoted(extend)) is not allowed; give hourly")
    }
    extendHourly = query["extend"] != nil
    if let lang = query["lang"], lang != "en" {
      throw FaceError.parameter(
        "lang", "\(QueryParameters.quoted(lang)) is not available; summaries are written in English only: give en")
    }
    switch query["units"] {
    case nil: units = .us
    case "auto": units = nil
    // Dark Sky's older name for uk2, which Pirate Weather's clients still send.
    case "uk": units = .uk2
    case let name?:
      guard let chosen = DarkSkyUnits(rawValue: name) else {
        throw FaceError.parameter(
          "units",
          "\(QueryParameters.quoted(name)) is not allowed; give "
            + (DarkSkyUnits.allCases.map(\.rawValue) + ["uk", "auto"]).joined(separator: ", "))
      }
      units = chosen
    }
  }

  /// `exclude`: block names separated by commas; an empty item is skipped (`exclude=`).
  package static func excluded(_ text: String?) throws(FaceError) -> Set<DarkSkyQuery.Block> {
    guard let text else { return [] }
    var blocks: Set<DarkSkyQuery.Block> = []
    for item in text.split(separator: ",") {
      guard let block = DarkSkyQuery.Block(rawValue: String(item)) else {
        throw FaceError.parameter(
          "exclude",
          "unknown block \(QueryParameters.quoted(String(item))); give a comma-separated list of "
            + DarkSkyQuery.Block.allCases.map(\.rawValue).joined(separator: ", "))
      }
      blocks.insert(block)
    }
    return blocks
  }

  /// A Time Machine time: Unix seconds (`-` allowed), or `yyyy-MM-ddTHH:mm:ss` with an
  /// optional `Z` or `±hh:mm`.
  package static func time(_ text: String) throws(FaceError) -> Time {
    let bad = FaceError.parameter("time", "\(QueryParameters.quoted(text)) is not a time; give \(timeHelp)")
    let bytes = Array(text.utf8)
    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    let digits = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
    if !digits.isEmpty, digits.count <= 12, digits.allSatisfy(isDigit), let seconds = Int64(text) {
      return .instant(seconds)
    }
    func number(_ range: Range<Int>) -> Int64? {
      guard range.upperBound <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[range] {
        guard isDigit(byte) else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let date = LocalDate(year: Int(year), month: Int(month), day: Int(day)),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      hour < 24, minute < 60, second < 60
    else { throw bad }
    let wall = Int64(date.daysSinceEpoch) * 86_400 + hour * 3_600 + minute * 60 + second
    let zone = bytes[19...]
    if zone.isEmpty { return .local(wall) }
    if zone.elementsEqual("Z".utf8) { return .instant(wall) }
    guard zone.count == 6, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-"),
      bytes[22] == UInt8(ascii: ":"), let hours = number(20..<22), let minutes = number(23..<25), hours <= 18,
      minutes < 60
    else { throw bad }
    let offset = (hours * 3_600 + minutes * 60) * (zone.first == UInt8(ascii: "-") ? -1 : 1)
    return .instant(wall - offset)
  }

  /// The Time Machine time as Unix seconds, a local time read in `zone` (the earlier of a
  /// repeated hour; a skipped hour with the offset before the gap).
  package func instant(in zone: LocalTimeZone) -> Int64? {
    switch time {
    case nil: nil
    case .instant(let seconds): seconds
    case .local(let wall): wall - Int64(zone.utcOffset(at: wall - Int64(zone.utcOffset(at: wall))))
    }
  }
}
