import Foundation

extension LocalTimeZone {
  /// The abbreviation local clocks show at `instant` (Unix seconds): `WET` or `WEST` in
  /// Europe/Lisbon, from the system's zone database; `GMT` for UTC and every other zone
  /// fixed at offset zero, as Open-Meteo writes it; `GMT+5:30` style where the database has
  /// no name.
  public func abbreviation(at instant: Int64) -> String {
    let offset = utcOffset(at: instant)
    if fixedOffset == 0 { return "GMT" }
    let daylight =
      fixedOffset == nil && calendar.timeZone.isDaylightSavingTime(for: Date(timeIntervalSince1970: Double(instant)))
    if let name = ZoneAbbreviations.table(calendar.timeZone.identifier)?.abbreviation(
      at: instant, daylightSaving: daylight), !name.isEmpty, !name.hasPrefix("+"), !name.hasPrefix("-")
    {
      return name
    }
    return Self.gmtName(offset: offset)
  }

  /// `GMT`, `GMT+1`, `GMT-3:30`: how an offset without a name is written.
  static func gmtName(offset: Int) -> String {
    guard offset != 0 else { return "GMT" }
    let magnitude = abs(offset)
    let minutes = magnitude / 60 % 60
    let text = "\(magnitude / 3600)" + (minutes == 0 ? "" : (minutes < 10 ? ":0\(minutes)" : ":\(minutes)"))
    return "GMT" + (offset < 0 ? "-" : "+") + text
  }
}
