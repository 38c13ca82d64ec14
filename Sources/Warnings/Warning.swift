/// A rule a point's forecast triggers: a run of consecutive hours on the rule's side of its
/// threshold, at least the rule's duration long, within its validity.
public struct Warning: Sendable {
  public let rule: WarningRule
  /// Unix seconds: the start of the first hour of the run (never before the current hour,
  /// the first the evaluation reads).
  public let onset: Int64
  /// Unix seconds: the end of the last hour of the run (never after the rule's validity).
  public let expires: Int64
  /// The most extreme value in the run, in the rule's unit: the highest for `above`, the
  /// lowest for `below`.
  public let peak: Double
  /// The model cell whose forecast triggered it (that of the run's first hour).
  public let cell: WarningCell

  public init(rule: WarningRule, onset: Int64, expires: Int64, peak: Double, cell: WarningCell) {
    self.rule = rule
    self.onset = onset
    self.expires = expires
    self.peak = peak
    self.cell = cell
  }

  /// Hours from onset to expiry.
  public var hours: Int { Int((expires - onset) / 3_600) }
}
