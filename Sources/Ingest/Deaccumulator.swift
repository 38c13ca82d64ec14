/// Turns a field accumulated since the run's start into the amount in the hour ending at
/// each step.
///
/// A step longer than an hour has its amount spread evenly over its hours; a step shorter
/// than an hour sums the steps of the last hour. Before the first complete interval the
/// amount is known only when the input starts at the run's initial time (where the
/// accumulation is zero); otherwise it is NaN (unknown), never the raw accumulation.
/// Negative differences are round-off and become 0.
struct Deaccumulator {
  private let stepSeconds: Int64
  private let startsAtRunStart: Bool
  /// The accumulations of the last hour's steps, oldest first.
  private var history: [[Double]] = []

  init(stepSeconds: Int64, startsAtRunStart: Bool) {
    self.stepSeconds = stepSeconds
    self.startsAtRunStart = startsAtRunStart
  }

  /// The hourly amounts at the next step, given its accumulated field.
  mutating func next(_ accumulated: [Double]) -> [Double] {
    let stepsPerHour = max(1, Int(3600 / stepSeconds))
    let hoursPerStep = Double(max(stepSeconds, 3600)) / 3600
    defer {
      history.append(accumulated)
      if history.count > stepsPerHour { history.removeFirst() }
    }
    guard let earlier = history.count == stepsPerHour ? history.first : nil else {
      // Fewer than an hour of earlier steps: only the run's start makes this knowable.
      guard startsAtRunStart else { return Array(repeating: .nan, count: accumulated.count) }
      return zip(accumulated, history.first ?? accumulated).map { max($0 - $1, 0) }
    }
    return zip(accumulated, earlier).map { max($0 - $1, 0) / hoursPerStep }
  }
}
