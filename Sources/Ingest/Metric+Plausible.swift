import Meteorology

extension Metric {
  /// The values a derived metric may take, in its unit: the last guard before a value is
  /// stored. A value outside is a derivation gone wrong or weather no station has seen,
  /// and is stored missing with a warning naming the metric. The bounds below are what
  /// in-range input (`InputRange`) can yield, narrowed to the metric's storable range
  /// (`Metric.range`, the span of real weather), so that they never fire on good input;
  /// nil for metrics not stored.
  var plausibleRange: InputRange? {
    guard let bounds = derivedBounds else { return nil }
    return InputRange(
      Swift.max(bounds.lower, range.lowerBound), Swift.min(bounds.upper, range.upperBound), unit)
  }

  private var derivedBounds: InputRange? {
    switch self {
    // T2's 150–350 K.
    case .temp: InputRange(-125, 80, unit)
    case .hum: InputRange(0, 100, unit)
    // From a vapour pressure of 0.001 hPa (−80 °C) to that of 0.1 kg/kg at 110 kPa (54 °C).
    case .dewPoint: InputRange(-125, 80, unit)
    // The world's wettest hour is about 305 mm.
    case .rain, .showers, .snow: InputRange(0, 500, unit)
    case .snowfall: InputRange(0, 500 * WRFDerivation.snowfallRatio, unit)
    case .cloud, .cloudLow, .cloudMid, .cloudHigh, .precipitationNeighbourhood: InputRange(0, 100, unit)
    // Rotation keeps a wind's speed; 150 m/s in either component, with rounding room.
    case .windU, .windV: InputRange(-215, 215, unit)
    case .atmPress: InputRange(500, 1_500, unit)
    case .sfcPress: InputRange(200, 1_100, unit)
    case .shortwave: InputRange(0, 1_500, unit)
    // From T2's extremes with a 150 m/s wind, or saturated air at 350 K.
    case .apparentTemp: InputRange(-250, 250, unit)
    case .visibility: InputRange(0, 1_000_000, unit)
    case .weatherCode: InputRange(0, 99, unit)
    case .windGusts: InputRange(0, 400, unit)
    // The inputs' caps, narrowed to the stored range.
    case .snowDepth: InputRange(0, 10_000, unit)
    case .windVel, .windDir, .isDay, .precipitationProbability: nil
    }
  }
}
