import Testing

@testable import Forecast

/// How a forecast's instants are split among the runs answering them, against the rule
/// applied instant by instant.
@Suite struct HourlyReaderTests {
  /// Per instant: the first span covering it, and its step index when on one of its steps.
  static func oracle(_ instants: [Int64], _ spans: [HourlyReader.Span]) -> [(Int?, Int?)] {
    instants.map { time in
      guard let source = spans.firstIndex(where: { time >= $0.first && time <= $0.last }) else { return (nil, nil) }
      let offset = time - spans[source].first
      return (source, offset % spans[source].step == 0 ? Int(offset / spans[source].step) : nil)
    }
  }

  @Test func segmentsAnswerEachInstantFromTheFirstSpanCoveringIt() {
    var state: UInt64 = 0x5E6
    func next(_ bound: UInt64) -> Int64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int64((state >> 33) % bound)
    }
    for trial in 0..<3000 {
      // Up to four runs with hourly or 3-hourly steps, starting anywhere in 10 days.
      let spans: [HourlyReader.Span] = (0...next(4)).map { _ in
        let step: Int64 = next(3) == 0 ? 10_800 : 3_600
        let first = next(240) * 3_600
        return (first, first + next(100) * step, step)
      }
      // Hourly instants, sometimes at :45 past, sometimes out of order.
      var instants = (0..<next(300)).map { Int64($0) * 3_600 + (trial % 5 == 0 ? 2_700 : 0) }
      if trial % 7 == 0 { instants.shuffle() }
      let segments = spans.withUnsafeBufferPointer { HourlyReader.segments(of: instants, spans: $0) }
      // The segments tile the instants, and each instant gets the oracle's source and step.
      #expect(segments.map(\.instants.count).reduce(0, +) == instants.count)
      var next = 0
      let expected = Self.oracle(instants, spans)
      for segment in segments {
        #expect(segment.instants.lowerBound == next)
        next = segment.instants.upperBound
        for (offset, index) in segment.instants.enumerated() {
          #expect(segment.source == expected[index].0, "trial \(trial) instant \(index)")
          if let first = segment.firstStepIndex {
            #expect(first + offset == expected[index].1, "trial \(trial) instant \(index)")
          } else if segment.source != nil {
            #expect(segment.instants.count == 1 && expected[index].1 == nil, "trial \(trial) instant \(index)")
          }
        }
      }
    }
  }
}
