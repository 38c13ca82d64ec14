/// What one evaluation found for a point, and over which hours.
public struct WarningEvaluation: Sendable {
  /// The warnings, by onset, then by the rules' order in the file.
  public let warnings: [Warning]
  /// Unix seconds: the start of the first hour read (the hour holding "now").
  public let start: Int64
  /// How many hours were read: the longest validity of the rules.
  public let hours: Int
  /// The cell that answered the first covered hour; nil when none answered (and from
  /// `WarningEvaluator.warnings(for:now:)`, which does not outline it).
  public let cell: WarningCell?
}
