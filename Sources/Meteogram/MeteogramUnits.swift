import Meteorology

/// The unit choice a meteogram offers: a forecaster's metric chart or an American one.
public enum MeteogramUnits: String, CaseIterable, Sendable {
  /// °C, mm, km/h (the speed people read on a chart, rather than m/s).
  case metric
  /// °F, inch, mph.
  case imperial

  /// The units values are read in.
  public var system: UnitSystem {
    switch self {
    case .metric:
      var units = UnitSystem.si
      units.windSpeed = .kilometresPerHour
      return units
    case .imperial: return .us
    }
  }
}
