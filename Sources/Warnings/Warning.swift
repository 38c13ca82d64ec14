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
  /// Every cell the warning's hours read, `cell` first, each outline once: one cell for a
  /// grid that does not move; for a moving nest, the place's cell at each position the nest
  /// held at those hours. The warning's area is their union.
  public let area: [WarningCell]

  /// A warning for `cell` and, when given, the further cells of `area` (`cell` is added
  /// first when `area` does not start with it).
  public init(
    rule: WarningRule, onset: Int64, expires: Int64, peak: Double, cell: WarningCell, area: [WarningCell] = []
  ) {
    self.rule = rule
    self.onset = onset
    self.expires = expires
    self.peak = peak
    self.cell = cell
    self.area = area.first?.polygon == cell.polygon ? area : [cell] + area
  }

  /// The area named for people: the cells' descriptions, joined by "; ".
  public var areaDescription: String { area.map(\.areaDescription).joined(separator: "; ") }

  /// Hours from onset to expiry.
  public var hours: Int { Int((expires - onset) / 3_600) }
}
