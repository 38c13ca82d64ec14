import Meteorology
import PointQuery
import Testing

@testable import Forecast

/// Daily statistics from stored words against the same statistics from the decoded values.
@Suite struct WordStatisticsTests {
  /// Random days of words (some missing, of 1 to 40 hours: DST days, partial days, and
  /// longer than the sorting network takes), decoded and converted as a forecast would be.
  @Test func wordsGiveTheStatisticsOfTheirValues() {
    var state: UInt64 = 0x0D0D
    func next(_ bound: UInt64) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % bound)
    }
    let decodings = [
      WordDecoding(scale: 0.01, offset: -150), WordDecoding(scale: 0.01, offset: 0),
      WordDecoding(scale: 0.02, offset: 500),
    ]
    let conversions = [
      UnitConversion.identity, UnitSystem.us.conversion(of: .temp), UnitSystem.us.conversion(of: .rain),
    ]
    for trial in 0..<400 {
      let decoding = decodings[trial % decodings.count]
      let conversion = conversions[(trial / 3) % conversions.count]
      let dayCount = 1 + next(17)
      var days: [Range<Int>] = []
      var words: [UInt16] = []
      for _ in 0..<dayCount {
        let length = trial % 20 == 0 ? 1 + next(40) : [23, 24, 24, 24, 25][next(5)]
        days.append(words.count..<(words.count + length))
        // Few distinct words, so that days have ties; sometimes the extremes 0 and 65534.
        let levels = [0, 1, 2, 500, 65_534, UInt16.max - 1].map { UInt16($0) }
        for _ in 0..<length {
          words.append(
            next(9) == 0 ? WordDecoding.missing : next(4) == 0 ? levels[next(6)] : UInt16(20_000 + next(40)))
        }
      }
      let values = words.map { $0 == WordDecoding.missing ? Double.nan : conversion(decoding.value($0)) }
      let medians = trial % 7 != 0
      let fromWords = Self.summarize(days) {
        DailyStatistics.summarize(
          days: $0, words: words.withUnsafeBufferPointer { $0 }, decoding: decoding, conversion: conversion,
          medians: medians, into: $1)
      }
      let fromValues = Self.summarize(days) {
        DailyStatistics.summarize(days: $0, of: values.withUnsafeBufferPointer { $0 }, medians: medians, into: $1)
      }
      for (day, (a, b)) in zip(fromWords, fromValues).enumerated() {
        let label = "trial \(trial) day \(day)"
        #expect(a.hours == b.hours && a.known == b.known, "\(label)")
        #expect(a.median == b.median && a.minimum == b.minimum && a.maximum == b.maximum, "\(label)")
        // The total is computed from the integer sum of the words: equal to the values'
        // total to rounding.
        #expect((a.sum == nil) == (b.sum == nil), "\(label)")
        if let x = a.sum, let y = b.sum { #expect(abs(x - y) <= 1e-9 * max(1, abs(y)), "\(label): \(x) \(y)") }
      }
    }
  }

  static func summarize(
    _ days: [Range<Int>],
    _ body: (UnsafeBufferPointer<Range<Int>>, UnsafeMutableBufferPointer<DailyStatistics>) -> Void
  ) -> [DailyStatistics] {
    days.withUnsafeBufferPointer { days in
      [DailyStatistics](unsafeUninitializedCapacity: days.count) { output, count in
        body(days, output)
        count = days.count
      }
    }
  }
}
