extension WeatherCode {
  /// Whether the code of an hour with these amounts (mm) can depend on the lifted index:
  /// `classify` reads it only in the thunderstorm test of a wet hour, which also needs the
  /// convective part to reach `Threshold.thunderConvective`. Every other hour's code is the
  /// same whatever the index, so ingest computes the index, the costliest input of a code,
  /// only where this holds. Amounts are cleaned as `Reading` cleans them (a non-finite
  /// amount is none, a negative total is 0, the convective part is clamped into the total),
  /// without building one per cell.
  public static func readsLiftedIndex(precipitation: Double, convective: Double?) -> Bool {
    guard precipitation.isFinite, let convective, convective.isFinite else { return false }
    let total = max(precipitation, 0)
    return total >= Threshold.wetHour && min(max(convective, 0), total) >= Threshold.thunderConvective
  }
}
