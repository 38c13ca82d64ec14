import Testing
import UTCTime

/// `UTC` is fed times from files, cube headers and requests: every function must answer
/// for every `Int64` and every calendar field, and answer right where an answer exists.
@Suite struct UTCTests {
  /// Values either side of every boundary the arithmetic has: the ends of `Int64`, the
  /// points where a day, a 400-year era or the seconds of a representable year run out.
  static let extremes: [Int64] = [
    .min, .min + 1, .min + 86_399, .min + 86_400, -1, 0, 1, 86_399, 86_400, .max - 86_400, .max - 1, .max,
    -62_135_596_800, -62_135_596_801, 253_402_300_799, 253_402_300_800, -2_208_988_800, 7_289_654_399,
  ]

  @Test(arguments: extremes)
  func everyInt64HasCalendarFieldsThatRoundTrip(seconds: Int64) throws {
    let c = UTC.components(seconds)
    #expect((1...12).contains(c.month) && (1...31).contains(c.day))
    #expect((0...23).contains(c.hour) && (0...59).contains(c.minute) && (0...59).contains(c.second))
    // The fields name the same instant: converting back gives the input exactly.
    let back = UTC.seconds(
      year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second)
    #expect(back == seconds, "\(seconds) → \(c) → \(String(describing: back))")
    // Text renderings answer too, on one line, with the year's sign.
    let text = UTC.iso8601(seconds)
    #expect(text.hasSuffix("Z") && !text.contains("\n"))
    #expect(text.hasPrefix("-") == (c.year < 0), "\(text)")
    #expect(UTC.runIdentifier(seconds).hasPrefix("-") == (c.year < 0))
  }

  @Test func theEndsOfInt64AreInTheirKnownYears() {
    // Int64.max s is 292,277,026,596-12-04T15:30:07Z; Int64.min s is 292,277,022,658 BCE
    // (year −292,277,022,657 in ISO numbering, where year 0 is 1 BCE) -01-27T08:29:52Z.
    #expect(UTC.iso8601(.max) == "292277026596-12-04T15:30:07Z")
    #expect(UTC.iso8601(.min) == "-292277022657-01-27T08:29:52Z")
    #expect(UTC.runIdentifier(.max) == "292277026596120415")
    #expect(UTC.iso8601(-62_135_596_801) == "0000-12-31T23:59:59Z")
    #expect(UTC.iso8601(-62_167_219_201) == "-0001-12-31T23:59:59Z")
    #expect(UTC.iso8601(253_402_300_800) == "10000-01-01T00:00:00Z")
    #expect(UTC.iso8601(-2_208_988_800) == "1900-01-01T00:00:00Z")
    #expect(UTC.iso8601(7_289_654_399) == "2200-12-31T23:59:59Z")
  }

  @Test func calendarFieldsBeyondInt64AreNilNotATrap() {
    #expect(UTC.seconds(year: Int.max, month: 12, day: 31) == nil)
    #expect(UTC.seconds(year: Int.min, month: 1, day: 1) == nil)
    #expect(UTC.seconds(year: 292_277_026_596, month: 12, day: 4, hour: 15, minute: 30, second: 7) == .max)
    #expect(UTC.seconds(year: 292_277_026_596, month: 12, day: 4, hour: 15, minute: 30, second: 8) == nil)
    #expect(UTC.seconds(year: 292_277_026_597, month: 1, day: 1) == nil)
    #expect(UTC.seconds(year: -292_277_022_657, month: 1, day: 27, hour: 8, minute: 29, second: 52) == .min)
    #expect(UTC.seconds(year: -292_277_022_657, month: 1, day: 27, hour: 8, minute: 29, second: 51) == nil)
    #expect(UTC.seconds(year: 2026, month: Int.max, day: 1) == nil)
    #expect(UTC.seconds(year: 2026, month: 2, day: Int.min) == nil)
    #expect(UTC.seconds(year: 2026, month: 2, day: 28, hour: Int.max) == nil)
    #expect(UTC.seconds(year: 2024, month: 2, day: 29) == 1_709_164_800)
    #expect(UTC.seconds(year: 2023, month: 2, day: 29) == nil)
  }

  @Test func parsingTakesDigitsOnlyAndNeverOverflows() {
    #expect(UTC.parseISO8601("2026-06-20T15:00:00Z") == 1_781_967_600)
    #expect(UTC.parseISO8601("2026-06-20T15:00+02:00") == 1_781_960_400)
    #expect(UTC.parseISO8601("2026-06-20T15:00-00:30") == 1_781_969_400)
    #expect(UTC.parseWRF("2005-09-20_12:00:00") == 1_127_217_600)
    for text in [
      "+026-06-20", "2026-+6-20", "2026-06- 2", "2026-06-20T+5:00Z", "2026-06-20T15:00+99999999999999999999",
      "2026-06-20T15:00+-5", "9999999999999999999-01-01", "2026-06-20T15:00:00+14:60", "", "-",
    ] {
      #expect(UTC.parseISO8601(text) == nil, "\(text)")
    }
    #expect(UTC.parseISO8601("0000-01-01T00:00:00+14:00") == -62_167_269_600)
    #expect(UTC.parseISO8601("9999-12-31T23:59:59-14:00") == 253_402_351_199)
  }
}
