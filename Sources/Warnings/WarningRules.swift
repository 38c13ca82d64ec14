/// The thresholds of an alerts file, read and checked: `nwpcube serve --alerts FILE`
/// (docs/alerts.md).
///
/// One `[id]` section per rule, then `field = value` lines; a line whose first non-blank
/// character is `#` is a comment and blank lines are skipped:
///
///     [heavy-rain]
///     title = Heavy rain
///     metric = rain
///     above = 10 mm/h
///     severity = Moderate
///     description = More than 10 mm of rain in an hour.
///
/// Every fault is refused with the file, the line, the rule and why.
public struct WarningRules: Sendable {
  /// The file as given.
  public let path: String
  /// The rules in file order; at least one, each id once.
  public let rules: [WarningRule]

  /// The most bytes an alerts file may have: hundreds of rules, far more than an operator
  /// writes by hand; a mistaken path to a large file is refused rather than read.
  public static let maximumBytes = 1 << 20

  /// Rules already checked, e.g. built in code; `path` names them in answers.
  public init(rules: [WarningRule], path: String) {
    self.path = path
    self.rules = rules
  }

  /// The longest validity of any rule: the hours an evaluation reads.
  public var horizonHours: Int { rules.map(\.validityHours).max() ?? 0 }
}
