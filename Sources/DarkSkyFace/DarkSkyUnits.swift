import Meteorology

/// Dark Sky's `units`: which unit system its numbers are in. Every unit comes from
/// `Meteorology`'s conversions; pressure is hPa in all, and shares (humidity, cloud cover,
/// probabilities) are 0–1 fractions.
public enum DarkSkyUnits: String, Sendable, CaseIterable {
  /// °F, mph, in/h, miles: Dark Sky's default.
  case us
  /// °C, m/s, mm/h, km.
  case si
  /// As `si`, with wind in km/h.
  case ca
  /// As `si`, with wind in mph and visibility in miles.
  case uk2

  /// The units values are written in.
  public var system: UnitSystem {
    switch self {
    case .us:
      UnitSystem(
        temperature: .fahrenheit, windSpeed: .milesPerHour, precipitation: .inches, pressure: .hectopascals,
        visibility: .miles, share: .fraction)
    case .si:
      UnitSystem(
        temperature: .celsius, windSpeed: .metresPerSecond, precipitation: .millimetres, pressure: .hectopascals,
        visibility: .kilometres, share: .fraction)
    case .ca:
      UnitSystem(
        temperature: .celsius, windSpeed: .kilometresPerHour, precipitation: .millimetres, pressure: .hectopascals,
        visibility: .kilometres, share: .fraction)
    case .uk2:
      UnitSystem(
        temperature: .celsius, windSpeed: .milesPerHour, precipitation: .millimetres, pressure: .hectopascals,
        visibility: .miles, share: .fraction)
    }
  }

  /// `units=auto`'s choice for a country (ISO 3166 alpha-2): `us` in the United States,
  /// `ca` in Canada, `uk2` in the United Kingdom, `si` elsewhere, as Dark Sky chose.
  public static func forCountry(_ code: String?) -> DarkSkyUnits {
    switch code?.uppercased() {
    case "US": .us
    case "CA": .ca
    case "GB": .uk2
    default: .si
    }
  }
}
