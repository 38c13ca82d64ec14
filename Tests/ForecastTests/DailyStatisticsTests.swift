import Forecast
import Testing

@Suite struct DailyStatisticsTests {
  @Test func theMedianOfAnOddCountIsTheMiddleValue() {
    // Sorted: 1 1 2 3 4 5 9, so the median is the fourth value, 3; the sum is 25.
    let day = DailyStatistics(hourly: [3, 1, 4, 1, 5, 9, 2])
    #expect(day.median == 3 && day.minimum == 1 && day.maximum == 9 && day.sum == 25)
    #expect(day.hours == 7 && day.known == 7 && day.isComplete)
  }

  @Test func theMedianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
    // Sorted: 1 3 5 7 9 11; the middle two are 5 and 7, so the median is 6.
    let day = DailyStatistics(hourly: [7, 1, 3, 9, 5, 11])
    #expect(day.median == 6 && day.minimum == 1 && day.maximum == 11 && day.sum == 36)
    // A realistic day of temperatures (°C), 00 to 23 h. Sorted, the 12th and 13th values
    // are 15.1 and 15.4, so the median is 15.25; the minimum 11.2 (05 h), the maximum 21.6
    // (14 h).
    let temperatures: [Double?] = [
      13.0, 12.4, 12.1, 11.8, 11.5, 11.2, 11.6, 12.9, 14.6, 16.4, 18.1, 19.5,
      20.6, 21.3, 21.6, 21.2, 20.3, 19.0, 17.4, 16.0, 15.4, 15.1, 14.5, 13.9,
    ]
    let temperature = DailyStatistics(hourly: temperatures)
    #expect(abs((temperature.median ?? 0) - 15.25) < 1e-12)
    #expect(temperature.minimum == 11.2 && temperature.maximum == 21.6)
  }

  @Test func missingHoursAreLeftOutOfOrderStatisticsButVoidTheSum() {
    // Known: 4, 8, 2; sorted 2 4 8, median 4.
    let day = DailyStatistics(hourly: [nil, 4, nil, 8, 2])
    #expect(day.median == 4 && day.minimum == 2 && day.maximum == 8)
    #expect(day.sum == nil && day.hours == 5 && day.known == 3 && !day.isComplete)
    // A wet day whose wettest hour is missing is not reported as the other hours' total.
    #expect(DailyStatistics(hourly: [0, 0, nil, 0.2]).sum == nil)
    let empty = DailyStatistics(hourly: [nil, nil])
    #expect(empty.median == nil && empty.minimum == nil && empty.maximum == nil && empty.sum == nil)
    #expect(empty.known == 0 && empty.hours == 2)
    #expect(DailyStatistics(hourly: []).median == nil)
  }

  @Test func aBufferWithNaNForMissingGivesTheSameAnswer() {
    let values: [Double?] = [2.5, nil, 0.5, 7, nil, 1]
    let buffer = values.map { $0 ?? .nan }
    let fromBuffer = buffer.withUnsafeBufferPointer { DailyStatistics(hourly: $0) }
    #expect(fromBuffer == DailyStatistics(hourly: values))
    // Known 0.5 1 2.5 7: median (1 + 2.5) / 2.
    #expect(fromBuffer.median == 1.75 && fromBuffer.known == 4)
    #expect(DailyStatistics(hourly: [1, .nan, 3]).known == 2)
  }

  @Test func rainSumsEveryHour() {
    // 0.2 mm in each of 24 hours is 4.8 mm.
    let rain = DailyStatistics(hourly: [Double?](repeating: 0.2, count: 24))
    #expect(abs((rain.sum ?? 0) - 4.8) < 1e-12)
  }

  @Test func daylightSavingDaysFeed23And25Hours() throws {
    let lisbon = try LocalTimeZone(identifier: "Europe/Lisbon")
    // The value at each hour is the local clock's hour, read from its timestamp.
    func clockHours(_ text: String) throws -> [Double?] {
      try lisbon.day(LocalDate(parsing: text)).hours.map { Double($0.timestamp.dropFirst(11).prefix(2)) }
    }
    // Spring: 00, 02, 03, …, 23. The sum is 0 + 1 + … + 23 = 276 less the missing 1, 275;
    // sorted, the 12th of the 23 values is 12.
    let spring = DailyStatistics(hourly: try clockHours("2026-03-29"))
    #expect(spring.hours == 23 && spring.sum == 275 && spring.median == 12)
    // Autumn: 00, 01, 01, 02, …, 23. The sum is 276 + 1 = 277; the 13th of 25 is 11.
    let autumn = DailyStatistics(hourly: try clockHours("2026-10-25"))
    #expect(autumn.hours == 25 && autumn.sum == 277 && autumn.median == 11)
  }

  /// The selection that finds the median against sorting, on many random days with ties
  /// (values drawn from a few levels) and missing hours.
  @Test func theMedianEqualsTheSortedMiddleOnRandomDays() {
    var state: UInt64 = 0x2026_1122
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    for _ in 0..<2000 {
      let count = Int(next() % 26)
      let levels = 1 + next() % 12
      let values: [Double?] = (0..<count).map { _ in next() % 7 == 0 ? nil : Double(next() % levels) * 0.5 - 2 }
      let known = values.compactMap { $0 }.sorted()
      let statistics = DailyStatistics(hourly: values)
      let expected: Double? =
        known.isEmpty
        ? nil
        : known.count % 2 == 1 ? known[known.count / 2] : (known[known.count / 2 - 1] + known[known.count / 2]) / 2
      #expect(statistics.median == expected, "\(values)")
      #expect(statistics.minimum == known.first && statistics.maximum == known.last, "\(values)")
    }
  }
}
