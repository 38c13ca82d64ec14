import Meteorology

extension WeatherCode {
  /// The code's Dark Sky icons and summary, from a table made once: building the code's
  /// whole presentation row (every API's texts) for each hour's tests and texts was 2–3 %
  /// of a Dark Sky forecast.
  var darkSky: DarkSkyCondition {
    rawValue >= 0 && rawValue < Self.darkSkyConditions.count
      ? Self.darkSkyConditions[rawValue] ?? presentation.darkSky : presentation.darkSky
  }

  /// Indexed by code (WMO codes are 0–99).
  private static let darkSkyConditions: [DarkSkyCondition?] = (0..<100).map {
    WeatherCode(rawValue: $0)?.presentation.darkSky
  }
}
