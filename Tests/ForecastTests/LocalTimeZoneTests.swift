import Forecast
import Foundation
import Testing
import UTCTime

/// Unix seconds of a UTC time, for writing expected instants by hand.
private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
  UTC.seconds(year: year, month: month, day: day, hour: hour, minute: minute) ?? .min
}

private func zone(_ identifier: String) throws -> LocalTimeZone {
  try LocalTimeZone(identifier: identifier)
}

private func date(_ text: String) throws -> LocalDate {
  try LocalDate(parsing: text)
}

/// The expected offsets are the published rules (tz database 2025b, the same in the
/// system's zdump): EU summer time from the last Sunday of March to the last Sunday of
/// October at 01:00 UTC; US daylight time from the second Sunday of March to the first
/// Sunday of November at 02:00 local; Lord Howe's half-hour daylight time from the first
/// Sunday of October to the first Sunday of April at 02:00 local; Nepal at +05:45 all year.
/// Foundation on Linux reads them from ICU's own copy of the database, so these hold on a
/// machine without /usr/share/zoneinfo.
@Suite struct LocalTimeZoneTests {
  @Test func zonesResolveWithTheirOffsetsOnKnownDates() throws {
    let cases: [(String, Int64, Int)] = [
      ("Europe/Lisbon", utc(2026, 1, 15, 12), 0),
      ("Europe/Lisbon", utc(2026, 7, 15, 12), 3_600),
      ("Europe/Lisbon", utc(2026, 3, 29, 1) - 1, 0),
      ("Europe/Lisbon", utc(2026, 3, 29, 1), 3_600),
      ("Europe/Lisbon", utc(2026, 10, 25, 1) - 1, 3_600),
      ("Europe/Lisbon", utc(2026, 10, 25, 1), 0),
      ("America/New_York", utc(2026, 1, 15, 12), -5 * 3_600),
      ("America/New_York", utc(2026, 7, 15, 12), -4 * 3_600),
      ("America/New_York", utc(2026, 3, 8, 7) - 1, -5 * 3_600),
      ("America/New_York", utc(2026, 3, 8, 7), -4 * 3_600),
      ("America/New_York", utc(2026, 11, 1, 6) - 1, -4 * 3_600),
      ("America/New_York", utc(2026, 11, 1, 6), -5 * 3_600),
      ("Australia/Lord_Howe", utc(2026, 1, 15, 12), 11 * 3_600),
      ("Australia/Lord_Howe", utc(2026, 7, 15, 12), 10 * 3_600 + 1_800),
      ("Australia/Lord_Howe", utc(2026, 4, 4, 15) - 1, 11 * 3_600),
      ("Australia/Lord_Howe", utc(2026, 4, 4, 15), 10 * 3_600 + 1_800),
      ("Australia/Lord_Howe", utc(2026, 10, 3, 15, 30) - 1, 10 * 3_600 + 1_800),
      ("Australia/Lord_Howe", utc(2026, 10, 3, 15, 30), 11 * 3_600),
      ("Asia/Kathmandu", utc(2026, 1, 15, 12), 5 * 3_600 + 45 * 60),
      ("Asia/Kathmandu", utc(2026, 7, 15, 12), 5 * 3_600 + 45 * 60),
      ("UTC", utc(2026, 7, 15, 12), 0),
    ]
    for (identifier, instant, offset) in cases {
      #expect(try zone(identifier).utcOffset(at: instant) == offset, "\(identifier) at \(UTC.iso8601(instant))")
    }
    #expect(LocalTimeZone.utc.identifier == "UTC" && LocalTimeZone.utc.utcOffset(at: utc(2026, 7, 1)) == 0)
  }

  @Test func anUnknownZoneIsNamedInTheError() {
    #expect(throws: LocalTimeError.unknownTimeZone("Europe/Lisbn")) { try zone("Europe/Lisbn") }
    #expect(throws: LocalTimeError.unknownTimeZone("")) { try zone("") }
    #expect(LocalTimeError.unknownTimeZone("Mars/Olympus").description.contains("\"Mars/Olympus\""))
  }

  @Test func caseIsForgiven() throws {
    #expect(try zone("europe/lisbon").identifier == "Europe/Lisbon")
    #expect(try zone("europe/lisbon").utcOffset(at: utc(2026, 7, 1)) == 3_600)
  }

  @Test func lisbonsSpringForwardDayHas23Hours() throws {
    let day = try zone("Europe/Lisbon").day(date("2026-03-29"))
    // 00:00 WET is 00:00 UTC; at 01:00 UTC the clocks jump from 01:00 to 02:00 WEST; the
    // next midnight (WEST) is 23:00 UTC.
    #expect(day.start == utc(2026, 3, 29, 0) && day.end == utc(2026, 3, 29, 23))
    #expect(day.hours.map(\.instant) == Array(stride(from: utc(2026, 3, 29, 0), to: utc(2026, 3, 29, 23), by: 3_600)))
    let expected = ["2026-03-29T00:00+00:00"] + (2...23).map { "2026-03-29T\($0 < 10 ? "0" : "")\($0):00+01:00" }
    #expect(day.hours.map(\.timestamp) == expected)
    #expect(day.hours.count == 23 && day.duration == 23 * 3_600)
  }

  @Test func lisbonsFallBackDayHas25Hours() throws {
    let day = try zone("Europe/Lisbon").day(date("2026-10-25"))
    // Midnight WEST is 23:00 UTC the day before; 01:00 local happens twice (00:00 and
    // 01:00 UTC); the next midnight (WET) is 00:00 UTC.
    #expect(day.start == utc(2026, 10, 24, 23) && day.end == utc(2026, 10, 26, 0))
    #expect(day.hours.map(\.instant) == Array(stride(from: utc(2026, 10, 24, 23), to: utc(2026, 10, 26), by: 3_600)))
    let expected =
      ["2026-10-25T00:00+01:00", "2026-10-25T01:00+01:00"]
      + (1...23).map { "2026-10-25T\($0 < 10 ? "0" : "")\($0):00+00:00" }
    #expect(day.hours.map(\.timestamp) == expected)
    #expect(day.hours.count == 25 && day.duration == 25 * 3_600)
  }

  @Test func ordinaryDaysHave24Hours() throws {
    for (identifier, text, first) in [
      ("UTC", "2026-03-29", utc(2026, 3, 29)),
      ("Europe/Lisbon", "2026-03-28", utc(2026, 3, 28)),
      ("Europe/Lisbon", "2026-07-01", utc(2026, 6, 30, 23)),
      ("America/New_York", "2026-07-04", utc(2026, 7, 4, 4)),
    ] {
      let day = try zone(identifier).day(date(text))
      #expect(day.hours.count == 24 && day.start == first && day.duration == 86_400, "\(identifier) \(text)")
      #expect(day.hours.first?.instant == first)
    }
    let newYork = try zone("America/New_York").day(date("2026-03-08"))
    #expect(newYork.hours.count == 23 && newYork.hours.map(\.timestamp).contains("2026-03-08T02:00-05:00") == false)
    #expect(newYork.hours[2].timestamp == "2026-03-08T03:00-04:00")
  }

  @Test func halfHourAndQuarterHourZonesKeepWholeLocalHours() throws {
    // Lord Howe springs forward by 30 minutes at 02:00 (15:30 UTC the day before): the
    // clocks go from 01:59 to 02:30, so 02:00 never happens and the day lasts 23.5 h.
    let spring = try zone("Australia/Lord_Howe").day(date("2026-10-04"))
    #expect(spring.start == utc(2026, 10, 3, 13, 30) && spring.duration == 23 * 3_600 + 1_800)
    let springLabels = spring.hours.map { $0.timestamp.dropFirst(11).prefix(5) }
    #expect(springLabels == ["00:00", "01:00"] + (3...23).map { "\($0 < 10 ? "0" : "")\($0):00" })
    #expect(spring.hours[2].instant == utc(2026, 10, 3, 16))
    // Falling back, 01:30–02:00 repeats; no whole hour does, so 24 hours in 24.5 h.
    let autumn = try zone("Australia/Lord_Howe").day(date("2026-04-05"))
    #expect(autumn.duration == 24 * 3_600 + 1_800 && autumn.hours.count == 24)
    #expect(autumn.hours[1].timestamp == "2026-04-05T01:00+11:00")
    #expect(autumn.hours[2].timestamp == "2026-04-05T02:00+10:30")

    let kathmandu = try zone("Asia/Kathmandu").day(date("2026-01-15"))
    #expect(kathmandu.hours.count == 24 && kathmandu.start == utc(2026, 1, 14, 18, 15))
    #expect(kathmandu.hours.first?.timestamp == "2026-01-15T00:00+05:45")
    #expect(kathmandu.hours.last?.instant == utc(2026, 1, 15, 17, 15))
  }

  @Test func aDayWhoseMidnightIsSkippedStartsAfterTheGap() throws {
    // Chile springs forward at 24:00 (04:00 UTC): 2026-09-06 begins at 01:00 -03.
    let spring = try zone("America/Santiago").day(date("2026-09-06"))
    #expect(spring.start == utc(2026, 9, 6, 4) && spring.hours.count == 23)
    #expect(spring.hours.first?.timestamp == "2026-09-06T01:00-03:00")
    // It falls back at 24:00 -03 to 23:00 -04, so 2026-04-04 has two 23:00s.
    let autumn = try zone("America/Santiago").day(date("2026-04-04"))
    #expect(autumn.hours.count == 25 && autumn.end == utc(2026, 4, 5, 4))
    #expect(autumn.hours.suffix(2).map(\.timestamp) == ["2026-04-04T23:00-03:00", "2026-04-04T23:00-04:00"])
  }

  /// Zones that never change their offset take an arithmetic path; Foundation's calendar
  /// is the oracle for where their days begin, and every hour is a whole local hour.
  @Test func fixedOffsetZonesAgreeWithTheCalendar() throws {
    for identifier in ["UTC", "Etc/GMT+5", "Etc/GMT-14", "Etc/GMT-9"] {
      let local = try zone(identifier)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = try #require(TimeZone(identifier: identifier))
      for text in ["1969-12-31", "2026-03-29", "2026-10-25", "2026-12-31"] {
        let day = local.day(try date(text))
        let parts = text.split(separator: "-").compactMap { Int($0) }
        let midnight = try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])))
        #expect(day.start == Int64(midnight.timeIntervalSince1970), "\(identifier) \(text)")
        #expect(day.hours.count == 24 && day.duration == 86_400, "\(identifier) \(text)")
        #expect(day.hours.allSatisfy { $0.utcOffset == calendar.timeZone.secondsFromGMT() }, "\(identifier)")
      }
      #expect(local.utcOffset(at: utc(2026, 7, 1)) == calendar.timeZone.secondsFromGMT(), "\(identifier)")
    }
  }

  @Test func consecutiveDaysTileTime() throws {
    let lisbon = try zone("Europe/Lisbon")
    let days = lisbon.days(from: try date("2026-03-27"), count: 5)
    #expect(days.map(\.date.description) == ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31"])
    #expect(days.map(\.hours.count) == [24, 24, 23, 24, 24])
    for (day, next) in zip(days, days.dropFirst()) { #expect(day.end == next.start) }
    for day in days { #expect(day == lisbon.day(day.date)) }
    #expect(lisbon.days(from: try date("2026-03-27"), count: 0).isEmpty)
  }

  @Test func theLocalDateOfAnInstant() throws {
    #expect(try zone("Europe/Lisbon").date(containing: utc(2026, 3, 28, 23, 30)) == (try date("2026-03-28")))
    #expect(try zone("Europe/Lisbon").date(containing: utc(2026, 6, 30, 23, 30)) == (try date("2026-07-01")))
    #expect(try zone("Asia/Kathmandu").date(containing: utc(2026, 1, 14, 18, 15)) == (try date("2026-01-15")))
    #expect(try zone("Asia/Kathmandu").date(containing: utc(2026, 1, 14, 18, 14)) == (try date("2026-01-14")))
    #expect(try zone("America/New_York").date(containing: utc(2026, 1, 1, 3)) == (try date("2025-12-31")))
    #expect(LocalTimeZone.utc.date(containing: -1) == (try date("1969-12-31")))
  }

  @Test func todayIsTheDateOfNow() throws {
    let kathmandu = try zone("Asia/Kathmandu")
    let before = kathmandu.date(containing: Int64(Date().timeIntervalSince1970))
    let today = kathmandu.today()
    let after = kathmandu.date(containing: Int64(Date().timeIntervalSince1970) + 1)
    #expect(before <= today && today <= after)
  }

  @Test func timestampsCarryTheOffsetAndSecondsOnlyWhenNeeded() throws {
    #expect(try zone("Europe/Lisbon").timestamp(utc(2026, 7, 1, 12)) == "2026-07-01T13:00+01:00")
    #expect(try zone("Europe/Lisbon").timestamp(utc(2026, 7, 1, 12) + 30) == "2026-07-01T13:00:30+01:00")
    #expect(try zone("America/New_York").timestamp(utc(2026, 7, 1, 2)) == "2026-06-30T22:00-04:00")
    #expect(try zone("Asia/Kathmandu").timestamp(utc(2026, 7, 1, 0, 15)) == "2026-07-01T06:00+05:45")
    #expect(LocalTimeZone.utc.timestamp(utc(2026, 7, 1)) == "2026-07-01T00:00+00:00")
  }
}

@Suite struct LocalDayOracleTests {
  /// Every day of 2026 in zones with hour, half-hour and midnight transitions, against a
  /// scan of every minute with Foundation's offsets: a day starts where the calendar says
  /// and holds exactly the minutes whose local reading is a whole hour.
  @Test func daysMatchAMinuteByMinuteScan() throws {
    let identifiers = [
      "Europe/Lisbon", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Santiago",
      "Pacific/Chatham",
    ]
    for identifier in identifiers {
      let zone = try LocalTimeZone(identifier: identifier)
      let foundation = try #require(TimeZone(identifier: identifier))
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = foundation
      func start(_ year: Int, _ month: Int, _ day: Int) throws -> Int64 {
        let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
        return Int64(date.timeIntervalSince1970)
      }
      let days = zone.days(from: try LocalDate(parsing: "2026-01-01"), count: 365)
      for day in days {
        let (year, month, dayOfMonth) = day.date.fields
        #expect(day.start == (try start(year, month, dayOfMonth)), "\(identifier) \(day.date)")
        let next = day.date.adding(days: 1).fields
        #expect(day.end == (try start(next.year, next.month, next.day)), "\(identifier) \(day.date)")
        var expected: [Int64] = []
        for minute in stride(from: day.start, to: day.end, by: 60) {
          let local = minute + Int64(foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(minute))))
          if local % 3_600 == 0 { expected.append(minute) }
        }
        #expect(day.hours.map(\.instant) == expected, "\(identifier) \(day.date)")
        #expect(day == zone.day(day.date), "\(identifier) \(day.date)")
      }
    }
  }
}
