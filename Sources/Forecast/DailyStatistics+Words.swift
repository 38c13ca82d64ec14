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
    func word(_ key: Int16) -> UInt16 { UInt16(bitPattern: key) ^ 0x8000 }
    precondition(output.count >= days.count && conversion.scale > 0)
    // The arithmetic of the values path: decode, then convert unless nothing changes.
    func value(_ key: Int16) -> Double {
      let decoded = decoding.value(word(key))
      return conversion == .identity ? decoded : conversion(decoded)
    }
    forEachBatch(of: days) { (batch, rows: UnsafeMutableBufferPointer<Row>) in
      // Row h gathers hour h of each day into a register. The days are first copied to
      // lanes of equal length, padded with the missing word (a short day, lanes past the
      // batch), so that the gathering needs no test. (Scattering the days into the rows'
      // memory instead made every row's load wait for eight narrow stores in flight.)
      let length = rows.count
      withUnsafeTemporaryAllocation(of: UInt16.self, capacity: Row.scalarCount * max(length, 1)) { lanes in
        lanes.initialize(repeating: WordDecoding.missing)
        for (lane, day) in batch.enumerated() {
          for (hour, index) in days[day].enumerated() { lanes[lane &* length &+ hour] = words[index] }
        }
        let top = SIMD8<UInt16>(repeating: 0x8000)
        for hour in 0..<length {
          @inline(__always) func word(_ lane: Int) -> UInt16 { lanes[lane &* length &+ hour] }
          let row = SIMD8(word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7)) ^ top
          rows.initializeElement(at: hour, to: Row(truncatingIfNeeded: row))
        }
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
