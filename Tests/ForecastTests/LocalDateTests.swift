import Forecast
import Testing

private func date(_ text: String) throws -> LocalDate {
  try LocalDate(parsing: text)
}

@Suite struct LocalDateTests {
  @Test func parsesAndPrintsCalendarDates() throws {
    for text in ["2026-03-29", "2028-02-29", "1970-01-01", "1969-12-31", "2026-12-31"] {
      #expect(try date(text).description == text)
    }
    let leap = try date("2028-02-29")
    #expect(leap.fields == (2028, 2, 29))
    #expect(try date("1970-01-02").daysSinceEpoch == 1)
    #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
  }

  @Test func rejectsWhatIsNotADate() {
    for text in ["2026-02-29", "2026-13-01", "2026-3-29", "20260329", "2026-03-29T00", "", "2026/03/29", "+026-03-29"] {
      #expect(throws: LocalTimeError.invalidDate(text)) { try date(text) }
    }
    #expect(LocalTimeError.invalidDate("2026-02-30").description.contains("\"2026-02-30\""))
  }

  @Test func addsDaysAcrossMonthsAndYears() throws {
    #expect(try date("2026-12-30").adding(days: 3) == (try date("2027-01-02")))
    #expect(try date("2028-03-01").adding(days: -1) == (try date("2028-02-29")))
    #expect(try date("2026-03-29") < (try date("2026-03-30")))
  }
}
