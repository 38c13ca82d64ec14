extension WeatherCode {
  /// A day's code: the most significant of its hours' codes, nil for a day without any.
  ///
  /// Open-Meteo defines the daily code as "the most severe weather condition on a given day"
  /// and computes it as the largest code number. WMO 4677 numbers by type, not by severity,
  /// so the largest number lets a slight shower (80) outrank heavy rain (65) and slight snow
  /// (71) outrank heavy rain too. nwpcube orders by `significance` instead: intensity first,
  /// freezing precipitation above all other precipitation, thunderstorms above everything
  /// (docs/weather-codes.md lists the order and where it differs from the largest number).
  public static func mostSignificant(_ codes: some Sequence<WeatherCode>) -> WeatherCode? {
    codes.max { $0.significance < $1.significance }
  }

  /// The code's rank in the order `mostSignificant` uses, from 0 (clear sky) to 27
  /// (thunderstorm with heavy hail); no two codes share a rank.
  ///
  /// Ascending: the sky by cloud cover; fog, then rime fog; then precipitation by intensity
  /// (drizzle; slight; moderate; heavy), within one intensity rain, showers, snow, snow
  /// showers; then freezing precipitation, whose glaze is the worst hazard short of a
  /// thunderstorm; then thunderstorms, hail above none.
  public var significance: Int {
    switch self {
    case .clearSky: 0
    case .mainlyClear: 1
    case .partlyCloudy: 2
    case .overcast: 3
    case .fog: 4
    case .depositingRimeFog: 5
    // Drizzle-like: below slight rain's rates.
    case .lightDrizzle: 6
    case .moderateDrizzle: 7
    case .denseDrizzle: 8
    case .snowGrains: 9
    // Slight.
    case .slightRain: 10
    case .slightRainShowers: 11
    case .slightSnowFall: 12
    case .slightSnowShowers: 13
    // Moderate; `heavySnowShowers` is WMO's "moderate or heavy" and starts at moderate snow's rate.
    case .moderateRain: 14
    case .moderateRainShowers: 15
    case .moderateSnowFall: 16
    case .heavySnowShowers: 17
    // Heavy.
    case .heavyRain: 18
    case .violentRainShowers: 19
    case .heavySnowFall: 20
    // Freezing.
    case .lightFreezingDrizzle: 21
    case .denseFreezingDrizzle: 22
    case .lightFreezingRain: 23
    case .heavyFreezingRain: 24
    // Thunderstorms.
    case .thunderstorm: 25
    case .thunderstormWithSlightHail: 26
    case .thunderstormWithHeavyHail: 27
    }
  }
}
