/// A WMO 4677 present-weather code, as Open-Meteo uses them.
///
/// The raw value is the code itself. `classify(_:)` derives the code of one hour from the
/// model's fields (WeatherCode+Classification.swift) and `mostSignificant(_:)` picks a
/// day's code from its hours (WeatherCode+Significance.swift). What an API shows for a code
/// is the API's own: FaceKit has the descriptions and icons the faces and pictures share
/// (`presentation`), each face its own conditions (`openWeatherMap`, `darkSky`).
/// docs/weather-codes.md has the table, the thresholds and their sources.
public enum WeatherCode: Int, CaseIterable, Sendable {
  case clearSky = 0
  case mainlyClear = 1
  case partlyCloudy = 2
  case overcast = 3
  case fog = 45
  case depositingRimeFog = 48
  case lightDrizzle = 51
  case moderateDrizzle = 53
  case denseDrizzle = 55
  case lightFreezingDrizzle = 56
  case denseFreezingDrizzle = 57
  case slightRain = 61
  case moderateRain = 63
  case heavyRain = 65
  case lightFreezingRain = 66
  case heavyFreezingRain = 67
  case slightSnowFall = 71
  case moderateSnowFall = 73
  case heavySnowFall = 75
  case snowGrains = 77
  case slightRainShowers = 80
  case moderateRainShowers = 81
  case violentRainShowers = 82
  case slightSnowShowers = 85
  case heavySnowShowers = 86
  case thunderstorm = 95
  case thunderstormWithSlightHail = 96
  case thunderstormWithHeavyHail = 99
}

/// What the weather code of one hour at one cell is derived from. Amounts are for the hour
/// ending at the step; nil where the input does not exist (the classifier then never
/// produces the codes that need it).
public struct WeatherConditions: Sendable, Equatable {
  /// Total precipitation in the hour, mm (liquid equivalent).
  public var precipitation: Double
  /// Its convective part (RAINC + RAINSH), mm; nil without a convective scheme's output.
  public var convective: Double?
  /// Its frozen part (SNOWNC, water equivalent), mm; nil when the model gives none.
  public var snow: Double?
  /// 2 m temperature, °C.
  public var temperature: Double
  /// Visibility, m; nil when not derived.
  public var visibility: Double?
  /// Total cloud cover, %; nil when not derived.
  public var cloud: Double?
  /// Surface-based lifted index at 500 hPa, K (negative is unstable); nil without the
  /// model-level temperature and pressure it needs. Without it there is no thunderstorm.
  public var liftedIndex: Double?
  /// Hail in the hour (HAILNC), mm; nil when the model gives none.
  public var hail: Double?
  /// Convective available potential energy, J/kg: the instability input where the lifted
  /// index is unknown (GRIB's `cape`); nil when the model gives none.
  public var cape: Double?
  /// The precipitation's type as the model's categorical types give it (NCEP's `crain`,
  /// `cfrzr`, `cicep`, `csnow`); nil where they give none (or are absent).
  public var precipitationType: PrecipitationType?

  public init(
    precipitation: Double, convective: Double? = nil, snow: Double? = nil, temperature: Double,
    visibility: Double? = nil, cloud: Double? = nil, liftedIndex: Double? = nil, hail: Double? = nil,
    cape: Double? = nil, precipitationType: PrecipitationType? = nil
  ) {
    (self.precipitation, self.convective, self.snow, self.temperature) = (precipitation, convective, snow, temperature)
    (self.visibility, self.cloud, self.liftedIndex, self.hail) = (visibility, cloud, liftedIndex, hail)
    (self.cape, self.precipitationType) = (cape, precipitationType)
  }
}
