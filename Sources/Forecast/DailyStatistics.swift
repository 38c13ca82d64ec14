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
    hours = values.count
    // Sorting a temporary copy gives the median; for a day of hours it lives on the stack,
    // so a summary allocates nothing.
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
      let sum = known == values.count ? total : nil
      guard wantsMedian else { return (known, nil, minimum, maximum, sum) }
      let sorted = UnsafeMutableBufferPointer(rebasing: scratch[0..<known])
      Self.sortLowerHalf(sorted)
      let middle = known / 2
      let median = known % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
      return (known, median, minimum, maximum, sum)
    }
  }

  /// Puts the smallest ⌊n/2⌋ + 1 values of `values` in order at its start, which is all a
  /// median needs: insertion sort into that prefix, skipping with one comparison every
  /// value above it (about half of a day, in long runs for a smooth quantity). Sorting the
  /// whole day was most of a 7-day summary's cost (`nwpcube bench --kinds daily7`).
  /// Longer inputs are sorted whole.
  static func sortLowerHalf(_ values: UnsafeMutableBufferPointer<Double>) {
    let count = values.count
    guard count > 1 else { return }
    guard count <= 48 else {
      var values = values
      values.sort()
      return
    }
    let kept = count / 2 + 1
    for index in 1..<count {
      let value = values[index]
      var slot = Swift.min(index, kept)
      // Past the prefix, a value no smaller than its largest cannot be among the smallest.
      if slot == kept {
        guard value < values[kept - 1] else { continue }
        slot = kept - 1
      }
      while slot > 0, values[slot - 1] > value {
        values[slot] = values[slot - 1]
        slot -= 1
      }
      values[slot] = value
    }
  }
}
