/// CAP 1.2's `certainty` of a warning: how likely the event is.
public enum CAPCertainty: String, CAPValue {
  case observed = "Observed"
  case likely = "Likely"
  case possible = "Possible"
  case unlikely = "Unlikely"
  case unknown = "Unknown"

  public static let field = "certainty"
}
