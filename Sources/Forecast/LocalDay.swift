import UTCTime

/// One calendar day in a time zone, as the instants that make it up.
///
/// A day usually lasts 24 hours, but 23 on the day clocks spring forward and 25 on the day
/// they fall back (23.5 and 24.5 in zones such as Australia/Lord_Howe that move by half
/// an hour).
public struct LocalDay: Sendable, Hashable {
  /// The calendar date.
  public let date: LocalDate
  /// Its first instant, Unix seconds: local midnight, or the end of a gap that swallows
  /// midnight (America/Santiago springs forward at 24:00).
  public let start: Int64
  /// The next day's first instant, Unix seconds; the day is `start..<end`.
  public let end: Int64
  /// Every instant of the day at which the local clock shows a whole hour, in order:
  /// 24 on most days, 23 when an hour is skipped, 25 when one is repeated. In zones
  /// whose offset is not whole hours (Asia/Kathmandu, +05:45) these fall between the
  /// UTC hours a model writes.
  public let hours: [LocalHour]

  /// The day's length in seconds.
  public var duration: Int64 { end - start }
}

/// An instant at which a local clock shows a whole hour.
public struct LocalHour: Sendable, Hashable {
  /// Unix seconds.
  public let instant: Int64
  /// The zone's offset from UTC at that instant, in seconds east of Greenwich.
  public let utcOffset: Int

  /// The hour at `instant` (Unix seconds) with the zone's offset there.
  public init(instant: Int64, utcOffset: Int) {
    self.instant = instant
    self.utcOffset = utcOffset
  }

  /// The local time with its offset, e.g. `2026-03-29T02:00+01:00`.
  public var timestamp: String { LocalTimestamp.format(instant, utcOffset: utcOffset) }
}

/// ISO 8601 local times that carry their offset, so that the two 01:00s of a fall-back
/// day stay distinct.
enum LocalTimestamp {
  /// `yyyy-MM-ddTHH:mm±hh:mm`, with seconds added to the time or to the offset only where
  /// they are not zero (zone offsets before about 1970 may have seconds).
  static func format(_ instant: Int64, utcOffset: Int) -> String {
    let local = instant + Int64(utcOffset)
    // UTC's ISO 8601 of the local wall-clock reading, `yyyy-MM-ddTHH:mm:ssZ`, less the
    // `Z` and, when they are zero, the seconds.
    var text = UTC.iso8601(local).dropLast()
    if local % 60 == 0 { text = text.dropLast(3) }
    let magnitude = abs(utcOffset)
    var offset = (utcOffset < 0 ? "-" : "+") + twoDigits(magnitude / 3600) + ":" + twoDigits(magnitude / 60 % 60)
    if magnitude % 60 != 0 { offset += ":" + twoDigits(magnitude % 60) }
    return text + offset
  }

  private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
