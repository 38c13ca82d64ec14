/// A time zone or local date a client gave that nwpcube cannot use.
public enum LocalTimeError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No IANA time zone has this identifier.
  case unknownTimeZone(String)
  /// The text is not a calendar date written `yyyy-MM-dd`.
  case invalidDate(String)

  public var description: String {
    switch self {
    case .unknownTimeZone(let identifier):
      "unknown time zone \"\(identifier)\"; give an IANA name such as Europe/Lisbon, America/New_York or UTC"
    case .invalidDate(let text):
      "invalid date \"\(text)\"; expected a calendar date written yyyy-MM-dd, such as 2026-03-29"
    }
  }
}
