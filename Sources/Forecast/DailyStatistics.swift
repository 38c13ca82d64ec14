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
  public init(hourly values: UnsafeBufferPointer<Double>) {
    hours = values.count
    // The known values are copied to a temporary buffer for the median; for a day of hours
    // it lives on the stack, so a summary allocates nothing.
    (known, median, minimum, maximum, sum) = withUnsafeTemporaryAllocation(
      of: Double.self, capacity: values.count
    ) { scratch in
      var known = 0
      var total = 0.0
      var minimum = Double.infinity
      var maximum = -Double.infinity
      for value in values where !value.isNaN {
        scratch[known] = value
        known += 1
        total += value
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
      }
      guard known > 0 else { return (0, nil, nil, nil, nil) }
      let median = Self.median(of: UnsafeMutableBufferPointer(rebasing: scratch[0..<known]))
      return (known, median, minimum, maximum, known == values.count ? total : nil)
    }
  }

  /// The median of `values` (not empty; NaN-free), reordering them.
  ///
  /// A day's 23–25 values are ranked without branching on the data: a value's rank is the
  /// number of values that come before it in sorted order (smaller ones, and equal ones
  /// earlier in the buffer), so every value has a distinct rank and the middle ranks are
  /// the median. That is n² comparisons, but sorting's mispredicted branches made sorting
  /// most of a 7-day summary's time (`nwpcube bench --kinds daily7`). Longer inputs are
  /// sorted.
  static func median(of values: UnsafeMutableBufferPointer<Double>) -> Double {
    let count = values.count
    let middle = count / 2
    guard count <= 48 else {
      var values = values
      values.sort()
      return count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }
    var upper = 0.0
    var lower = 0.0
    for index in 0..<count {
      let value = values[index]
      var rank = 0
      for other in 0..<index { rank &+= values[other] <= value ? 1 : 0 }
      for other in (index + 1)..<count { rank &+= values[other] < value ? 1 : 0 }
      upper = rank == middle ? value : upper
      lower = rank == middle &- 1 ? value : lower
    }
    return count % 2 == 1 ? upper : (lower + upper) / 2
  }
}
