/// The statistics of one day's hourly values of a metric: median, extremes and total.
///
/// Missing hours (nil, or NaN in a buffer) are treated by what each statistic means:
/// - `median`, `minimum` and `maximum` describe the hours that are known, and are nil
///   only when none is. One missing hour barely moves a median; a caller that wants
///   whole days only checks `isComplete` (the first or last day of a forecast may be
///   covered by a few hours only, and their extremes are not the day's).
/// - `sum` is nil unless every hour is known: an amount that leaves hours out is a
///   different, smaller number, and a day reported dry because its wet hour was
///   missing is worse than no total.
///
/// The day's length comes from its values: a local day of 23 or 25 hours gives 23 or 25.
public struct DailyStatistics: Sendable, Hashable {
  /// Hours in the day, missing ones included.
  public let hours: Int
  /// Hours with a value.
  public let known: Int
  /// The median of the known values: the middle one of an odd count, the mean of the two
  /// middle ones of an even count.
  public let median: Double?
  /// The smallest known value.
  public let minimum: Double?
  /// The largest known value.
  public let maximum: Double?
  /// The total of every hour (rain, snow); nil when any hour is missing.
  public let sum: Double?

  /// Whether every hour of the day has a value.
  public var isComplete: Bool { known == hours }

  /// The statistics of `values`, one per hour of the day, nil where missing. NaN counts
  /// as missing too.
  public init(hourly values: [Double?]) {
    self = withUnsafeTemporaryAllocation(of: Double.self, capacity: values.count) { buffer in
      for (index, value) in values.enumerated() { buffer[index] = value ?? .nan }
      return DailyStatistics(hourly: UnsafeBufferPointer(buffer))
    }
  }

  /// The statistics of `values`, one per hour of the day, NaN where missing (the form
  /// `Cube.series(_:at:steps:into:)` writes).
  ///
  /// With `median` false the median is left nil and the values are not sorted, which is
  /// most of the cost: for a caller that shows only extremes or totals.
  public init(hourly values: UnsafeBufferPointer<Double>, median wantsMedian: Bool = true) {
    self = withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 1) { day in
      day.initializeElement(at: 0, to: 0..<values.count)
      return withUnsafeTemporaryAllocation(of: DailyStatistics.self, capacity: 1) { output in
        Self.summarize(days: UnsafeBufferPointer(day), of: values, medians: wantsMedian, into: output)
        return output.moveElement(from: 0)
      }
    }
  }

  /// The statistics of a day of `hours` hours, `known` of them with values, whose extremes
  /// and total (NaN or anything when none is known) are already found.
  init(hours: Int, known: Int, median: Double?, minimum: Double, maximum: Double, sum: Double) {
    self.hours = hours
    self.known = known
    guard known > 0 else {
      (self.median, self.minimum, self.maximum, self.sum) = (nil, nil, nil, nil)
      return
    }
    self.median = median
    self.minimum = minimum
    self.maximum = maximum
    self.sum = known == hours ? sum : nil
  }

  /// The statistics of each of `days`, ranges of `values` (NaN where missing), into
  /// `output`, with medians only when `medians` is true.
  ///
  /// Four days at a time are the lanes of SIMD rows, row h holding hour h of each, so
  /// that one pass of vector arithmetic down the rows gives every day's count, total and
  /// extremes, and one sorting network its median (see `MedianNetwork`). Each lane adds
  /// its day's hours in order, so totals are exactly those of a loop over the day. (Four,
  /// not eight: a row of eight doubles is four SSE registers, and this pass then ran out
  /// of registers and spilled; measured side by side, four was faster.)
  static func summarize(
    days: UnsafeBufferPointer<Range<Int>>, of values: UnsafeBufferPointer<Double>, medians wantsMedians: Bool,
    into output: UnsafeMutableBufferPointer<DailyStatistics>
  ) {
    typealias Row = SIMD4<Double>
    let lanes = Row.scalarCount
    precondition(output.count >= days.count)
    forEachBatch(of: days) { (batch, rows: UnsafeMutableBufferPointer<Row>) in
      // Hours past a day's end are NaN, missing like a missing hour.
      rows.initialize(repeating: Row(repeating: .nan))
      rows.withMemoryRebound(to: Double.self) { cells in
        for (lane, day) in batch.enumerated() {
          for (hour, index) in days[day].enumerated() { cells[hour &* lanes &+ lane] = values[index] }
        }
      }
      var known = Row(repeating: 0)
      var sum = Row(repeating: 0)
      var minimum = Row(repeating: .infinity)
      var maximum = Row(repeating: -.infinity)
      for hour in rows.indices {
        let row = rows[hour]
        let isKnown = row .== row
        known = known.replacing(with: known + 1, where: isKnown)
        sum = sum.replacing(with: sum + row, where: isKnown)
        // NaN compares false, so a missing hour changes neither extreme.
        minimum = minimum.replacing(with: row, where: row .< minimum)
        maximum = maximum.replacing(with: row, where: row .> maximum)
        rows[hour] = row.replacing(with: .infinity, where: .!isKnown)
      }
      if wantsMedians { MedianNetwork.sortLowerHalf(rows) }
      for (lane, day) in batch.enumerated() {
        let count = Int(known[lane])
        let middle = count / 2
        let median =
          !wantsMedians || count == 0
          ? nil : count % 2 == 1 ? rows[middle][lane] : (rows[middle - 1][lane] + rows[middle][lane]) / 2
        output.initializeElement(
          at: day,
          to: DailyStatistics(
            hours: days[day].count, known: count, median: median, minimum: minimum[lane], maximum: maximum[lane],
            sum: sum[lane]))
      }
    }
  }

  /// Calls `body` with each batch of up to `Row.scalarCount` consecutive days of `days`
  /// and uninitialized room for one row per hour of the batch's longest day.
  static func forEachBatch<Row: SIMD>(
    of days: UnsafeBufferPointer<Range<Int>>,
    _ body: (_ batch: Range<Int>, _ rows: UnsafeMutableBufferPointer<Row>) -> Void
  ) {
    var first = 0
    while first < days.count {
      let batch = first..<min(first + Row.scalarCount, days.count)
      first = batch.upperBound
      var longest = 0
      for day in batch { longest = max(longest, days[day].count) }
      withUnsafeTemporaryAllocation(of: Row.self, capacity: max(longest, 1)) { rows in
        body(batch, UnsafeMutableBufferPointer(rebasing: rows[0..<longest]))
      }
    }
  }
}
