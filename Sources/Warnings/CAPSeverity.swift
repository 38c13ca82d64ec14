/// CAP 1.2's `severity` of a warning: how bad the event would be.
public enum CAPSeverity: String, CAPValue {
  case extreme = "Extreme"
  case severe = "Severe"
  case moderate = "Moderate"
  case minor = "Minor"
  case unknown = "Unknown"

  public static let field = "severity"
}
