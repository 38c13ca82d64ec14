import CVectorKernels
import Dispatch
import Testing
import _TestSupport

@testable import CubeFormat

/// A band's words are filled by several threads, a step each, through claims
/// (`BandWords`), and each row is quantized in one vectorisable pass
/// (`CubeMetric.quantize(_:into:)`), in the widest vectors the CPU has: every level this
/// CPU runs (`nwp_vector_level`, 0 being the portable Swift loop) is checked alike.
@Suite struct BandWordsTests {
  /// The vector kernel levels this CPU runs, the portable loop (0) first.
  static let levels = Array(Int32(0)...nwp_vector_level())

  /// The word of `value` from the definition of quantization: `((value − offset) / scale)`
  /// rounded half away from zero, in 0…65534; missing for NaN; nil when unrepresentable.
  static func definedWord(_ value: Double, _ metric: CubeMetric) -> UInt16? {
    if value.isNaN { return CubeMetric.missing }
    let q = ((value - metric.offset) / metric.scale).rounded()
    return q >= 0 && q <= 65_534 ? UInt16(q) : nil
  }

  /// Values whose ratio lies on or next to every boundary the rounding decides: halves,
  /// the doubles either side of them, both ends of the range, zeros, infinities and NaN.
  static let edges: [Double] = {
    var ratios: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 1e300, -1e300, 9e18, -9e18, 65_535, 70_000]
    for half in [-0.5, 0.5, 1.5, 2.5, 1_000.5, 32_767.5, 65_533.5, 65_534.5] {
      ratios += [half, half.nextUp, half.nextDown]
    }
    for whole in [0.0, 1, 2, 65_533, 65_534] { ratios += [whole.nextUp, whole.nextDown] }
    return ratios
  }()

  @Test(arguments: levels)
  func aRowIsQuantizedToTheDefinedWordOfEveryValue(level: Int32) {
    var random = TestRandom(seed: 29)
    for metric in [
      CubeMetric(name: "a", unit: "u", temporal: 0, scale: 1, offset: 0),
      CubeMetric(name: "b", unit: "u", temporal: 0, scale: 0.05, offset: -150),
      CubeMetric(name: "c", unit: "u", temporal: 0, scale: 0.1, offset: -327.67),
      CubeMetric(name: "d", unit: "u", temporal: 1, scale: 3, offset: 7),
    ] {
      // The edges as ratios of this metric, and random values over and beyond its range.
      var values = Self.edges.map { metric.offset + metric.scale * $0 }
      values += (0..<2_000).map { _ in metric.offset + metric.scale * random.uniform(-10...65_600) }
      // Ties of every word, at every position of a vector of eight values: each rounds away
      // from zero, whether the nearest even word is below or above it.
      values += (0..<2_000).map { _ in
        metric.offset + metric.scale * (random.uniform(-3...65_537).rounded(.down) + 0.5)
      }
      // Every count and start near the vectors' eight values, so that each value is met
      // in every lane, in the tail the kernel leaves, and at an address the kernel's loads
      // do not find aligned.
      for count in [1, 3, 7, 8, 9, 15, 16, 17, values.count - 3] {
        for start in 0..<3 {
          let row = Array(values[start..<start + count])
          var words = [UInt16](repeating: 1, count: count)
          let first = values.withUnsafeBufferPointer { values in
            words.withUnsafeMutableBufferPointer {
              metric.quantize(
                UnsafeBufferPointer(rebasing: values[start..<start + count]), into: $0.baseAddress!,
                checking: -.infinity...(.infinity), level: level
              ).unrepresentable
            }
          }
          let label = "\(metric.name), \(count) values from \(start), level \(level)"
          let expected = row.map { Self.definedWord($0, metric) ?? CubeMetric.missing }
          #expect(words == expected, "\(label)")
          #expect(first == row.firstIndex { Self.definedWord($0, metric) == nil }, "\(label)")
        }
        let row = Array(values.prefix(count))
        // The word of one value is the same.
        #expect(row.map { metric.quantize($0) } == row.map { Self.definedWord($0, metric) })
      }
    }
  }

  /// The pass that stores a row and checks it against a plausible range gives the words
  /// the plain pass gives, the same first unrepresentable value, and says a row passes
  /// exactly when each value is NaN or a finite number within the range, wherever a
  /// failing value falls (among the eight-at-a-time values or in the tail).
  @Test(arguments: levels)
  func theCheckingPassStoresTheSameWordsAndFindsEveryImplausibleValue(level: Int32) {
    var random = TestRandom(seed: 2_029)
    let metric = CubeMetric(name: "hum", unit: "%", temporal: 0, scale: 0.05, offset: -150)
    for range in [0.0...100.0, -50.0...(-50.0), -Double.infinity...Double.infinity, 1e300...Double.infinity] {
      let inside = (0..<40).map { _ in
        range.lowerBound.isFinite && range.upperBound.isFinite ? random.uniform(range) : random.uniform(-100...100)
      }
      // Values just outside and on both bounds, infinities, NaN and unrepresentable ones.
      let probes: [Double] = [
        range.lowerBound, range.upperBound, range.lowerBound.nextDown, range.upperBound.nextUp, .infinity,
        -.infinity, .nan, -1e300, 1e300, 5_000,
      ]
      for count in [0, 1, 7, 8, 9, 16, 17, 23, 40] {
        for position in 0..<max(count, 1) {
          for probe in probes {
            var row = Array(inside.prefix(count))
            if count > 0 { row[position] = probe }
            var plain = [UInt16](repeating: 1, count: count)
            var checked = [UInt16](repeating: 2, count: count)
            let first = row.withUnsafeBufferPointer { values in
              plain.withUnsafeMutableBufferPointer { metric.quantize(values, into: $0.baseAddress!) }
            }
            let once = row.withUnsafeBufferPointer { values in
              checked.withUnsafeMutableBufferPointer {
                metric.quantize(values, into: $0.baseAddress!, checking: range, level: level)
              }
            }
            let plausible = row.allSatisfy { $0.isNaN || ($0.isFinite && range.contains($0)) }
            let label = "\(probe) at \(position) of \(count) in \(range), level \(level)"
            #expect(checked == plain, "\(label)")
            #expect(once.unrepresentable == first, "\(label)")
            #expect(once.plausible == plausible, "\(label)")
          }
        }
      }
    }
  }

  static func words() -> BandWords {
    BandWords(
      bandCells: 4, cells: 3, steps: 3,
      metrics: [
        CubeMetric(name: "a", unit: "u", temporal: 0, scale: 1, offset: 0),
        CubeMetric(name: "b", unit: "u", temporal: 0, scale: 2, offset: 0),
      ])
  }

  /// Whether step `step` can be claimed now (the claim ends at once).
  static func claims(_ words: BandWords, step: Int) -> Bool { words.claim(step: step) != nil }

  @Test func aStepIsHeldByOneClaimAtATimeAndASealedBandByNone() {
    let words = Self.words()
    do {
      let held = words.claim(step: 1)
      #expect(!Self.claims(words, step: 1))
      #expect(!Self.claims(words, step: 3))
      #expect(!Self.claims(words, step: -1))
      #expect(!words.seal())
      let stored = [4.0, 5, 6].withUnsafeBufferPointer { held?.store(metric: 1, values: $0) }
      #expect(stored == nil)
    }
    // Released: the step can be claimed again, and the band sealed.
    #expect(Self.claims(words, step: 1))
    #expect(words.seal())
    #expect(!Self.claims(words, step: 0))
    // metric 0: every step missing; metric 1: step 1 holds 4, 5, 6 at a scale of 2.
    let expected: [UInt16] =
      [UInt16](repeating: 0xFFFF, count: 9) + [0xFFFF, 0xFFFF, 0xFFFF, 2, 3, 3, 0xFFFF, 0xFFFF, 0xFFFF]
    #expect(words.withSealedWords { Array($0) } == expected)
    // Held again for the next band, missing throughout and open to claims.
    #expect(words.reset(cells: 4))
    #expect(words.withSealedWords { Array($0) } == nil)
    #expect(Self.claims(words, step: 2))
    #expect(!words.reset(cells: 5))
  }

  @Test func aRowOfTheWrongCountOrMetricIsRefusedAndStoresNothing() {
    let words = Self.words()
    do {
      let held = words.claim(step: 0)
      #expect([1.0, 2].withUnsafeBufferPointer { held?.store(metric: 0, values: $0) } == 0)
      #expect([1.0, 2, 3].withUnsafeBufferPointer { held?.store(metric: 2, values: $0) } == 0)
    }
    #expect(words.seal())
    #expect(words.withSealedWords { $0.allSatisfy { $0 == CubeMetric.missing } } == true)
  }

  /// The words are not filled with missing ahead of the steps: a row no step stored reads
  /// as missing once sealed, in a band held again as much as in the first, never as the
  /// previous band's word.
  @Test func aRowNeverStoredReadsAsMissingAfterTheWordsHeldAnotherBand() {
    let words = Self.words()
    for step in 0..<3 {
      let held = words.claim(step: step)
      for metric in 0..<2 {
        #expect([8.0, 10, 12].withUnsafeBufferPointer { held?.store(metric: metric, values: $0) } == nil)
      }
    }
    #expect(words.seal(reopening: true))
    #expect(words.withSealedWords { $0.allSatisfy { $0 != CubeMetric.missing } } == true)
    #expect(words.reset(cells: 4))
    do {
      let held = words.claim(step: 2)
      #expect([2.0, 4, 6, 8].withUnsafeBufferPointer { held?.store(metric: 1, values: $0) } == nil)
    }
    #expect(words.seal())
    // Metric 1 at step 2 holds 1, 2, 3, 4 at a scale of 2; every other row is missing.
    var expected = [UInt16](repeating: CubeMetric.missing, count: 2 * 3 * 4)
    expected.replaceSubrange((3 + 2) * 4..<(3 + 2) * 4 + 4, with: [1, 2, 3, 4])
    #expect(words.withSealedWords { Array($0) } == expected)
  }

  /// Words sealed to be packed and held again for the next band make a claim wait for
  /// their reset, and the claim is then one of the next band's; words sealed for good
  /// refuse it.
  @Test func aClaimOfWordsSealedToBeHeldAgainWaitsForTheNextBand() {
    let words = Self.words()
    #expect(words.seal(reopening: true))
    #expect(!words.seal())
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { _ = words.reset(cells: 4) }
    // Three cells before the reset, four after.
    let cells = words.claim(step: 0)?.cells
    #expect(cells == 4)
    #expect(words.seal())
    #expect(!Self.claims(words, step: 0))
  }

  /// Words of a band spanning several huge pages (allocated at a huge page's boundary and
  /// advised to the kernel as such) hold what each step stored, in every row, across two
  /// bands, as the definition of quantization gives it.
  @Test func wordsSpanningHugePagesHoldEveryStoredRowAcrossBands() throws {
    let metrics = [
      CubeMetric(name: "a", unit: "u", temporal: 0, scale: 0.1, offset: -100),
      CubeMetric(name: "b", unit: "u", temporal: 0, scale: 1, offset: 0),
    ]
    let (cells, steps) = (1 << 17, 9)
    // 2 × 9 × 131,072 words of 2 bytes: 4.5 MiB, more than two huge pages.
    #expect(cells * steps * metrics.count * 2 > 2 * BandWords.hugePage)
    let words = BandWords(bandCells: cells, cells: cells, steps: steps, metrics: metrics)
    var random = TestRandom(seed: 2)
    for band in 0..<2 {
      let held = band == 0 ? cells : cells - 5
      if band == 1 { #expect(words.reset(cells: held)) }
      var expected = [UInt16](repeating: 0, count: held * steps * metrics.count)
      for step in 0..<steps {
        guard let claim = words.claim(step: step) else {
          Issue.record("band \(band): step \(step) refused")
          return
        }
        for (slot, metric) in metrics.enumerated() {
          let values = (0..<held).map { _ in random.uniform(metric.offset...(metric.offset + 60_000 * metric.scale)) }
          #expect(values.withUnsafeBufferPointer { claim.store(metric: slot, values: $0) } == nil)
          let row = (slot * steps + step) * held
          for (cell, value) in values.enumerated() {
            expected[row + cell] = try #require(Self.definedWord(value, metric))
          }
        }
      }
      #expect(words.seal(reopening: band == 0))
      #expect(words.withSealedWords { Array($0) } == expected, "band \(band)")
    }
  }
}
