import Foundation

/// An IANA time zone in which forecast days are counted: Europe/Lisbon, America/New_York,
/// UTC.
///
/// The rules come from Foundation, which on Linux reads the time zone database built into
/// its ICU library (`TimeZone.timeZoneDataVersion`), not /usr/share/zoneinfo: a machine
/// without the system tzdata package knows every zone. They are as current as the Swift
/// toolchain's ICU.
public struct LocalTimeZone: Sendable, Hashable {
  /// The zone's IANA identifier, as the client spelled it (or as the database spells it
  /// when the client's case differed).
  public let identifier: String
  let calendar: Calendar
  /// The offset of a zone that has never changed it (UTC, the default, and Etc/GMT±N):
  /// its days are then arithmetic, with no call into the calendar.
  let fixedOffset: Int?

  /// Coordinated Universal Time, the default zone of every forecast.
  public static let utc = LocalTimeZone(identifier: "UTC", zone: TimeZone(secondsFromGMT: 0) ?? .gmt)

  /// The zone called `identifier`, such as `Europe/Lisbon`. Case is forgiven:
  /// `europe/lisbon` finds Europe/Lisbon.
  /// - Throws: `LocalTimeError.unknownTimeZone` naming the identifier.
  public init(identifier: String) throws(LocalTimeError) {
    if let zone = TimeZone(identifier: identifier) {
      self.init(identifier: identifier, zone: zone)
      return
    }
    // Only a failed lookup pays for the list of every identifier.
    let lowered = identifier.lowercased()
    guard let known = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.lowercased() == lowered }),
      let zone = TimeZone(identifier: known)
    else { throw .unknownTimeZone(identifier) }
    self.init(identifier: known, zone: zone)
  }

  private init(identifier: String, zone: TimeZone) {
    self.identifier = identifier
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    self.calendar = calendar
    fixedOffset = zone.nextDaylightSavingTimeTransition(after: .distantPast) == nil ? zone.secondsFromGMT() : nil
  }

  /// The zone's offset from UTC at `instant` (Unix seconds), in seconds east of Greenwich.
  public func utcOffset(at instant: Int64) -> Int {
    fixedOffset ?? calendar.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
  }

  /// The local date at `instant` (Unix seconds).
  public func date(containing instant: Int64) -> LocalDate {
    let local = instant + Int64(utcOffset(at: instant))
    // Floor division, so that instants before 1970 land on the right day.
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return LocalDate(daysSinceEpoch: Int(days))
  }

  /// Today's date in this zone, by the system clock.
  public func today() -> LocalDate {
    date(containing: Int64(Date().timeIntervalSince1970.rounded(.down)))
  }

  /// `instant` (Unix seconds) as local time with its offset: `2026-03-29T02:00+01:00`,
  /// or `2026-03-29T02:00:30+01:00` when the seconds are not zero.
  public func timestamp(_ instant: Int64) -> String {
    LocalTimestamp.format(instant, utcOffset: utcOffset(at: instant))
  }

  /// The first instant (Unix seconds) of `date` in this zone: local midnight, or the
  /// first instant after a gap that skips midnight.
  public func start(of date: LocalDate) -> Int64 {
    if let fixedOffset { return Int64(date.daysSinceEpoch) * 86_400 - Int64(fixedOffset) }
    let (year, month, day) = date.fields
    // Calendar resolves a skipped midnight to the end of the gap and a repeated one to
    // its first occurrence: the day's first instant in both cases.
    if let start = calendar.date(from: DateComponents(year: year, month: month, day: day)) {
      return Int64(start.timeIntervalSince1970.rounded(.down))
    }
    let midnight = Int64(date.daysSinceEpoch) * 86_400
    return midnight - Int64(utcOffset(at: midnight))
  }

  /// `date` as the instants of its hours.
  public func day(_ date: LocalDate) -> LocalDay {
    var offsets = OffsetCursor(calendar.timeZone, fixedOffset: fixedOffset)
    return day(date, start: start(of: date), offsets: &offsets)
  }

  /// `count` consecutive days from `first`; each day's end is the next one's start, so
  /// the days tile time without gaps or overlaps.
  public func days(from first: LocalDate, count: Int) -> [LocalDay] {
    var days: [LocalDay] = []
    days.reserveCapacity(max(count, 0))
    var offsets = OffsetCursor(calendar.timeZone, fixedOffset: fixedOffset)
    var dayStart = start(of: first)
    for index in 0..<max(count, 0) {
      let day = day(first.adding(days: index), start: dayStart, offsets: &offsets)
      days.append(day)
      dayStart = day.end
    }
    return days
  }

  private func day(_ date: LocalDate, start: Int64, offsets: inout OffsetCursor) -> LocalDay {
    // With no transition up to and including the next local midnight, the day ends
    // there; otherwise the calendar finds where the next day begins.
    let (offset, transition) = offsets.stretch(at: start)
    let local = start + Int64(offset)
    let nextMidnight = start + 86_400 - (local % 86_400 + 86_400) % 86_400
    let end = transition > nextMidnight ? nextMidnight : self.start(of: date.adding(days: 1))
    var hours: [LocalHour] = []
    // Room for the usual count, so that a day allocates once; a day whose transitions crowd
    // whole hours together still grows as needed.
    hours.reserveCapacity(Int((end - start) / 3_600) + 2)
    // Walk the day in stretches of constant offset, split at the zone's transitions; in
    // each, the whole local hours are a fixed offset from the whole UTC hours.
    var stretchStart = start
    while stretchStart < end {
      let (offset, transition) = offsets.stretch(at: stretchStart)
      let stretchEnd = min(transition, end)
      let local = stretchStart + Int64(offset)
      let firstWholeHour = local >= 0 ? (local + 3_599) / 3_600 * 3_600 : local / 3_600 * 3_600
      var instant = firstWholeHour - Int64(offset)
      while instant < stretchEnd {
        hours.append(LocalHour(instant: instant, utcOffset: offset))
        instant += 3_600
      }
      stretchStart = stretchEnd
    }
    return LocalDay(date: date, start: start, end: end, hours: hours)
  }
}

/// A zone's offset walked forward through time, asking Foundation again only once a
/// transition is passed: most days of a multi-day forecast then cost no call at all.
private struct OffsetCursor {
  private let zone: TimeZone
  private var start = Int64.max
  private var offset = 0
  private var end = Int64.min

  init(_ zone: TimeZone, fixedOffset: Int?) {
    self.zone = zone
    if let fixedOffset { (start, offset, end) = (.min, fixedOffset, .max) }
  }

  /// The offset at `instant` and the next transition after it (`Int64.max` if none).
  mutating func stretch(at instant: Int64) -> (offset: Int, end: Int64) {
    if instant < start || instant >= end {
      let date = Date(timeIntervalSince1970: Double(instant))
      start = instant
      offset = zone.secondsFromGMT(for: date)
      // Kept above `instant`, so that a transition the zone reports twice cannot stall
      // a walk.
      end =
        zone.nextDaylightSavingTimeTransition(after: date).map {
          max(Int64($0.timeIntervalSince1970.rounded()), instant + 1)
        } ?? .max
    }
    return (offset, end)
  }
}
