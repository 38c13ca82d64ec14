import Meteorology

/// One threshold an operator publishes warnings for: a metric above or below a value for a
/// number of consecutive hours within the hours ahead (docs/alerts.md).
public struct WarningRule: Sendable {
  /// Which side of the threshold triggers the warning. Both are strict: a rule for rain
  /// above 10 mm/h is not triggered by exactly 10 mm.
  public enum Comparison: String, Sendable, CaseIterable {
    /// Greater than the threshold.
    case above
    /// Less than the threshold.
    case below
  }

  /// The rule's name in the file, unique within it: 1…64 of `A–Z a–z 0–9 - . _`.
  public let id: String
  /// What the warning is called: CAP's `event` and `headline`, Dark Sky's `title`.
  public let title: String
  /// The metric compared, in the hourly forecast.
  public let metric: Metric
  public let comparison: Comparison
  /// The threshold, in `unit`.
  public let threshold: Double
  /// The unit `threshold` is written in; nil for the metric's own unit (`metric.unit`).
  public let unit: (any MeasurementUnit)?
  /// The unit's name as the operator wrote it, or the metric's own unit: what answers print
  /// after the threshold and the peak.
  public let unitLabel: String
  /// Consecutive hours the comparison must hold for, 1…`validityHours`.
  public let durationHours: Int
  /// How many hours ahead of the current hour the rule looks, 1…384.
  public let validityHours: Int
  public let severity: CAPSeverity
  public let urgency: CAPUrgency
  public let certainty: CAPCertainty
  /// What the warning says: CAP's `description`.
  public let description: String
  /// What to do, CAP's `instruction`; nil when the file gives none.
  public let instruction: String?

  /// A rule whose fields have been checked (the file parser checks them).
  public init(
    id: String, title: String, metric: Metric, comparison: Comparison, threshold: Double,
    unit: (any MeasurementUnit)? = nil, unitLabel: String? = nil, durationHours: Int = 1, validityHours: Int = 48,
    severity: CAPSeverity, urgency: CAPUrgency = .expected, certainty: CAPCertainty = .likely, description: String,
    instruction: String? = nil
  ) {
    self.id = id
    self.title = title
    self.metric = metric
    self.comparison = comparison
    self.threshold = threshold
    self.unit = unit
    self.unitLabel = unitLabel ?? unit?.label ?? metric.unit
    self.durationHours = durationHours
    self.validityHours = validityHours
    self.severity = severity
    self.urgency = urgency
    self.certainty = certainty
    self.description = description
    self.instruction = instruction
  }

  /// `value`, given in the metric's canonical unit, in the threshold's unit.
  public func inThresholdUnit(_ value: Double) -> Double {
    unit?.convert(fromCanonical: value) ?? value
  }

  /// Whether `value` (in the threshold's unit) is on the triggering side of the threshold.
  public func triggers(_ value: Double) -> Bool {
    switch comparison {
    case .above: value > threshold
    case .below: value < threshold
    }
  }
}
