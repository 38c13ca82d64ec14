/// How one step's value of one quantity is made from messages: a weighted sum of fields
/// (an instant is one field at weight 1; an hour's precipitation may be one accumulation
/// less another), nothing (zero), or unknown.
///
/// Accumulations and averages are combined by their windows, whatever the producer's
/// convention: from the run's start (ECMWF: 0–6, 0–12 …), reset every few hours (GFS:
/// 0–3, 0–6, 6–9, 6–12 …), or both (NAM, HRRR: 0–1 … and 0–12 …). The amount over
/// `a…b` is a window `a…b` itself; else a window `s…b` that starts earlier, less the
/// amount over `s…a`; else a window `s…b` that starts later, plus the amount over `a…s`;
/// each found the same way. An average rate over a window counts as its rate times the
/// window's length. A step's value is the amount over the step (or the hour ending at it,
/// when steps are shorter) spread evenly over it: a rate per `outputSeconds`.
enum GRIBRecipe: Sendable {
  /// One weighted field.
  struct Term: Sendable {
    let field: GRIBField
    let weight: Double
  }

  case sum([Term])
  case zero
  case unknown

  /// The deepest chain of windows followed (each step of it is a different window end).
  static let maximumDepth = 16

  /// The value of an instant quantity at `time` (seconds after the reference time).
  static func instant(_ quantity: GRIBInventory.Quantity, at time: Int64) -> GRIBRecipe {
    quantity.instants[time].map { .sum([Term(field: $0, weight: 1)]) } ?? .unknown
  }

  /// The mean rate (per `outputSeconds`) of a windowed quantity over the `interval`
  /// seconds ending at `time`: from its windows; else from a rate at that instant; else,
  /// at the run's first step (which has no earlier step to subtract), the shortest window
  /// ending at `time` spread evenly. At or before the reference time nothing has
  /// accumulated: zero when `zeroAtStart` (precipitation, as the NetCDF conventions'
  /// first step), unknown otherwise (radiation in the hour before the run).
  static func windowed(
    _ quantity: GRIBInventory.Quantity, at time: Int64, interval: Int64, isFirstStep: Bool, outputSeconds: Double,
    zeroAtStart: Bool
  ) -> GRIBRecipe {
    guard time > 0 else { return zeroAtStart ? .zero : .unknown }
    let start = max(time - interval, 0)
    let perAmount = outputSeconds / Double(time - start)
    if let terms = compose(quantity.windows, from: start, to: time, depth: 0) {
      return .sum(terms.map { Term(field: $0.field, weight: $0.weight * perAmount) })
    }
    if let rate = quantity.instants[time] { return .sum([Term(field: rate, weight: outputSeconds)]) }
    if isFirstStep, let window = quantity.windows[time]?.filter({ $0.start < time }).max(by: { $0.start < $1.start }) {
      return .sum([
        Term(field: window.field, weight: amountWeight(window) * outputSeconds / Double(time - window.start))
      ])
    }
    return .unknown
  }

  /// The weight that makes a window's value an amount over it.
  static func amountWeight(_ window: GRIBInventory.Window) -> Double {
    window.isAverage ? Double(window.end - window.start) : 1
  }

  /// The terms whose sum is the amount over `start…end`, or nil when the windows cannot
  /// make it.
  static func compose(
    _ windows: [Int64: [GRIBInventory.Window]], from start: Int64, to end: Int64, depth: Int
  ) -> [Term]? {
    if start == end { return [] }
    guard depth < maximumDepth, let ending = windows[end] else { return nil }
    if let exact = ending.first(where: { $0.start == start }) {
      return [Term(field: exact.field, weight: amountWeight(exact))]
    }
    for window in ending.sorted(by: { $0.start < $1.start }) where window.start < end {
      let own = Term(field: window.field, weight: amountWeight(window))
      if window.start < start, let earlier = compose(windows, from: window.start, to: start, depth: depth + 1) {
        return [own] + earlier.map { Term(field: $0.field, weight: -$0.weight) }
      }
      if window.start > start, let before = compose(windows, from: start, to: window.start, depth: depth + 1) {
        return [own] + before
      }
    }
    return nil
  }
}
