extension WeatherCode {
  /// PLACEHOLDER until the table lands: the largest code.
  public static func mostSignificant(_ codes: some Sequence<WeatherCode>) -> WeatherCode? {
    codes.max { $0.rawValue < $1.rawValue }
  }
}
