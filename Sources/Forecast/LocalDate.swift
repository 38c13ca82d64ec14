import UTCTime

/// A calendar day in some time zone, with no time and no zone of its own: the `2026-03-29`
/// of `--start-date 2026-03-29`. `LocalTimeZone.day(_:)` turns it into instants.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Days since 1970-01-01 in the proleptic Gregorian calendar; negative before it.
  public let daysSinceEpoch: Int

  /// The date `daysSinceEpoch` days after 1970-01-01.
  public init(daysSinceEpoch: Int) {
    self.daysSinceEpoch = daysSinceEpoch
  }

  /// The date with these fields; nil when they name no date (month 13, February 30).
  public init?(year: Int, month: Int, day: Int) {
    guard let seconds = UTC.seconds(year: year, month: month, day: day) else { return nil }
    daysSinceEpoch = Int(seconds / 86_400)
  }

  /// Parses `yyyy-MM-dd` strictly: four-digit year, two-digit month and day, a real date.
  /// - Throws: `LocalTimeError.invalidDate` quoting the text.
  public init(parsing text: String) throws(LocalTimeError) {
    let bytes = Array(text.utf8)
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let date = LocalDate(year: year, month: month, day: day)
    else { throw .invalidDate(text) }
    self = date
  }

  /// Year, month (1–12) and day of the month (1–31).
  public var fields: (year: Int, month: Int, day: Int) {
    let c = UTC.components(Int64(daysSinceEpoch) * 86_400)
    return (c.year, c.month, c.day)
  }

  /// The date `days` days later (earlier when negative).
  public func adding(days: Int) -> LocalDate {
    LocalDate(daysSinceEpoch: daysSinceEpoch + days)
  }

  /// `yyyy-MM-dd`.
  public var description: String {
    // UTC's ISO 8601 of the date's midnight starts with exactly this text.
    String(UTC.iso8601(Int64(daysSinceEpoch) * 86_400).prefix { $0 != "T" })
  }

  public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }
}
