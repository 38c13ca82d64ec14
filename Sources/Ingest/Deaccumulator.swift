import CubeFormat

/// Turns a field accumulated since the run's start into the amount in the hour ending at
/// each step.
///
/// A step longer than an hour has its amount spread evenly over its hours; a step shorter
/// than an hour sums the steps of the last hour. Before the first complete interval the
/// amount is known only when the input starts at the run's initial time (where the
/// accumulation is zero); otherwise it is NaN (unknown), never the raw accumulation.
/// A fall no larger than round-off (`InputRange.accumulationRoundOff`) becomes 0; a larger
/// one makes the amount unknown (NaN), and is counted for the run's warning.
///
/// Each step's amount depends only on its own accumulation and one earlier step's, read
/// again rather than remembered, so that steps can be derived in any order and several
/// at once.
struct Deaccumulator {
  private let stepSeconds: Int64
  private let startsAtRunStart: Bool

  init(stepSeconds: Int64, startsAtRunStart: Bool) {
    self.stepSeconds = stepSeconds
    self.startsAtRunStart = startsAtRunStart
  }

  /// The step whose accumulation is subtracted from step `index`'s (`index` itself at the
  /// run's start), or nil when the amount at `index` cannot be known.
  func earlierStep(of index: Int) -> Int? {
    // Fewer than an hour of earlier steps: only the run's start makes this knowable, and
    // then the accumulation since the first step is the hour's so far.
    guard index >= HourlyInterval.steps(stepSeconds: stepSeconds) || startsAtRunStart else { return nil }
    return HourlyInterval.earlierStep(of: index, stepSeconds: stepSeconds)
  }

  /// The hourly amounts at a step, given its accumulated field and that of its
  /// `earlierStep`, and the cells where the accumulation fell by more than round-off,
  /// counted among the cells `counting` counts (a band's own; its first in the grid's
  /// numbering).
  func amounts(
    _ accumulated: [Double], since earlier: [Double], counting: ReadRegion = .whole(cells: 0)
  ) -> (amounts: [Double], falls: InputScreen.Tally) {
    let hoursPerStep = Double(max(stepSeconds, 3600)) / 3600
    let cells = min(accumulated.count, earlier.count)
    var falls = InputScreen.Tally(values: counting.counted(values: cells), bad: 0)
    var amounts = [Double](repeating: .nan, count: cells)
    for cell in amounts.indices {
      let difference = accumulated[cell] - earlier[cell]
      if difference < -InputRange.accumulationRoundOff {
        if counting.counts(cell) {
          if falls.first == nil { falls.first = (counting.gridIndex(of: cell), difference) }
          falls.bad += 1
        }
        continue
      }
      // `max` keeps NaN here: NaN is the first argument and compares false.
      amounts[cell] = Swift.max(difference, 0) / hoursPerStep
    }
    return (amounts, falls)
  }

  /// The amounts of a step whose earlier accumulation cannot be known.
  static func unknown(cells: Int) -> [Double] {
    Array(repeating: .nan, count: cells)
  }
}
