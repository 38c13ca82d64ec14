import Warnings

extension CAPSeverity {
  /// Dark Sky's `severity` of an alert, which has three levels where CAP has five:
  /// `warning` (take action: Extreme, Severe), `watch` (be prepared: Moderate) and
  /// `advisory` (be aware: Minor, Unknown), as the US National Weather Service ranks its
  /// own warnings, watches and advisories, which Dark Sky relayed.
  public var darkSky: String {
    switch self {
    case .extreme, .severe: "warning"
    case .moderate: "watch"
    case .minor, .unknown: "advisory"
    }
  }
}
