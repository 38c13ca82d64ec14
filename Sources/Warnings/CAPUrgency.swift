/// CAP 1.2's `urgency` of a warning: how soon to act.
public enum CAPUrgency: String, CAPValue {
  case immediate = "Immediate"
  case expected = "Expected"
  case future = "Future"
  case past = "Past"
  case unknown = "Unknown"

  public static let field = "urgency"
}
