import Meteorology
import PointQuery

extension DailyStatistics {
  /// The statistics of each of `days`, ranges of `words` (a stored metric's words,
  /// `WordDecoding.missing` where missing), of the values `conversion(decoding.value(w))`,
  /// into `output`; medians only when `medians` is true.
  ///
  /// Decoding and every unit conversion increase with the word, so words are in the order
  /// of their values: extremes and medians are found among words and only the chosen ones
  /// decoded. Eight days of words fill one SSE register, so this does a quarter of the
  /// vector work of `summarize(days:of:medians:into:)` on the same days, whose values it
  /// matches exactly, save the total: that is `k·offset + scale·Σw`, converted, from the
  /// exact integer sum of the words, rather than the day's values added one by one (the
  /// two differ in the last bits only).
  /// - Precondition: `conversion.scale > 0`.
  static func summarize(
    days: UnsafeBufferPointer<Range<Int>>, words: UnsafeBufferPointer<UInt16>, decoding: WordDecoding,
    conversion: UnitConversion, medians wantsMedians: Bool, into output: UnsafeMutableBufferPointer<DailyStatistics>
  ) {
    // Words with their top bit flipped, as signed 16-bit integers: the same order, and one
    // SSE2 instruction per comparison (SSE2 compares only signed 16-bit lanes; unsigned
    // ones went lane by lane, several times slower than the whole summary).
    typealias Row = SIMD8<Int16>
    let missing = Int16.max  // the missing word, flipped
    func flipped(_ word: UInt16) -> Int16 { Int16(bitPattern: word ^ 0x8000) }
    func word(_ key: Int16) -> UInt16 { UInt16(bitPattern: key) ^ 0x8000 }
    precondition(output.count >= days.count && conversion.scale > 0)
    // The arithmetic of the values path: decode, then convert unless nothing changes.
    func value(_ key: Int16) -> Double {
      let decoded = decoding.value(word(key))
      return conversion == .identity ? decoded : conversion(decoded)
    }
    forEachBatch(of: days) { (batch, rows: UnsafeMutableBufferPointer<Row>) in
      // Row h gathers hour h of each day into a register, past a day's end missing like a
      // missing hour. (Scattering the days into memory and loading whole rows back made
      // every load wait for the narrow stores still in flight.)
      for hour in rows.indices {
        // Lanes past the batch hold empty days.
        @inline(__always) func key(_ lane: Int) -> Int16 {
          guard lane < batch.count else { return missing }
          let day = days[batch.lowerBound + lane]
          return hour < day.count ? flipped(words[day.lowerBound + hour]) : missing
        }
        rows.initializeElement(at: hour, to: Row(key(0), key(1), key(2), key(3), key(4), key(5), key(6), key(7)))
      }
      var known = Row(repeating: 0)
      var total = SIMD8<UInt32>(repeating: 0)
      // Missing is the largest key, so it never lowers the minimum; for the maximum and
      // the total it is replaced by the smallest key, word 0.
      var minimum = Row(repeating: missing)
      var maximum = Row(repeating: .min)
      // Vector-with-vector comparisons only: those with a scalar operand are generic and
      // compare lane by lane.
      let missingRow = Row(repeating: missing)
      let smallest = Row(repeating: .min)
      let one = Row(repeating: 1)
      for row in rows {
        let isKnown = row .< missingRow
        let stored = smallest.replacing(with: row, where: isKnown)
        known &+= Row.zero.replacing(with: one, where: isKnown)
        total &+= SIMD8<UInt32>(truncatingIfNeeded: SIMD8<UInt16>(truncatingIfNeeded: stored) ^ 0x8000)
        minimum = minimum.replacing(with: row, where: row .< minimum)
        maximum = maximum.replacing(with: stored, where: maximum .< stored)
      }
      if wantsMedians { MedianNetwork.sortLowerHalf(rows) }
      for (lane, day) in batch.enumerated() {
        let count = Int(known[lane])
        let hours = days[day].count
        let middle = count / 2
        let median =
          !wantsMedians || count == 0
          ? nil
          : count % 2 == 1
            ? value(rows[middle][lane]) : (value(rows[middle - 1][lane]) + value(rows[middle][lane])) / 2
        let decodedTotal = Double(count) * decoding.offset + decoding.scale * Double(total[lane])
        output.initializeElement(
          at: day,
          to: DailyStatistics(
            hours: hours, known: count, median: median, minimum: count == 0 ? .nan : value(minimum[lane]),
            maximum: count == 0 ? .nan : value(maximum[lane]),
            sum: decodedTotal * conversion.scale + Double(count) * conversion.offset))
      }
    }
  }
}
