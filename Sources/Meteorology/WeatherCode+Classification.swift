extension WeatherCode {
  /// The code for one hour's conditions (docs/weather-codes.md has the thresholds and their
  /// sources).
  ///
  /// It never fails: an absent or non-finite input reads as nothing observed. Unknown
  /// precipitation is none, an unknown temperature is not below freezing (no freezing
  /// precipitation, no rime fog, and without the snow input the precipitation is rain), and
  /// an unknown cloud cover is a clear sky. Where such a guess must not be stored, use
  /// `classifyIfKnown(_:)`, which says nil instead.
  ///
  /// A thunderstorm (95, 96, 99) needs the instability input: without a lifted index no
  /// amount of convective rain makes one.
  public static func classify(_ conditions: WeatherConditions) -> WeatherCode {
    var reading = Reading(conditions)
    reading.precipitation = reading.precipitation ?? 0
    reading.temperature = reading.temperature ?? Threshold.freezing
    reading.cloud = reading.cloud ?? 0
    // Every input `code` can ask for is now known, so it always answers; clear sky only
    // keeps the compiler's totality without a force unwrap.
    return code(reading) ?? .clearSky
  }

  /// The code for one hour's conditions, or nil when it depends on an input that is absent or
  /// not finite: the precipitation always, the temperature for liquid precipitation (is it
  /// freezing?), for fog (is it rime?) and, without the snow input, for the type, and the
  /// cloud cover for a dry hour without fog. Otherwise the same as `classify(_:)`.
  public static func classifyIfKnown(_ conditions: WeatherConditions) -> WeatherCode? {
    code(Reading(conditions))
  }

  /// `classifyIfKnown(_:)` of every cell of a band, as the cube stores a code: its raw
  /// value, NaN where the answer is nil. Each column holds one value a cell, NaN where it
  /// is unknown (to the classifier, a non-finite value is an absent one); a nil column is an
  /// input the model does not give. One call a band rather than one a cell, so that the
  /// classifier is inlined into the loop instead of building eight optionals a cell.
  public static func codesIfKnown(
    precipitation: [Double], convective: [Double]? = nil, snow: [Double]? = nil, temperature: [Double],
    visibility: [Double]? = nil, cloud: [Double]? = nil, liftedIndex: [Double]? = nil, hail: [Double]? = nil,
    cape: [Double]? = nil, precipitationType: [Double]? = nil
  ) -> [Double] {
    let columns = [convective, snow, visibility, cloud, liftedIndex, hail, cape, precipitationType].compactMap { $0 }
    let count = columns.reduce(min(precipitation.count, temperature.count)) { min($0, $1.count) }
    return [Double](unsafeUninitializedCapacity: count) { codes, initialized in
      for cell in 0..<count {
        let conditions = WeatherConditions(
          precipitation: precipitation[cell], convective: convective?[cell], snow: snow?[cell],
          temperature: temperature[cell], visibility: visibility?[cell], cloud: cloud?[cell],
          liftedIndex: liftedIndex?[cell], hail: hail?[cell], cape: cape?[cell],
          precipitationType: precipitationType.flatMap { Self.type($0[cell]) })
        codes.initializeElement(at: cell, to: code(Reading(conditions)).map { Double($0.rawValue) } ?? .nan)
      }
      initialized = count
    }
  }

  /// The type a column of `codesIfKnown` holds as its raw value; nil for NaN or another.
  @inline(__always)
  private static func type(_ raw: Double) -> PrecipitationType? {
    raw.isFinite ? PrecipitationType(rawValue: Int(raw)) : nil
  }

  /// The thresholds `classify` uses; docs/weather-codes.md gives the source of each.
  /// Amounts are for one hour, so an amount in mm is also the rate in mm/h.
  enum Threshold {
    /// Less precipitation than this in the hour is none, mm.
    static let wetHour = Metric.wetHour
    /// At least this share of the precipitation as snow (water equivalent) makes it frozen.
    static let frozenShare = 0.5
    /// At least this share of the precipitation from the convection scheme makes it showers.
    static let convectiveShare = 0.5
    /// Liquid precipitation is freezing below this 2 m temperature, °C; without the snow
    /// input, precipitation below it is snow.
    static let freezing = 0.0
    /// Non-convective liquid precipitation below this rate is drizzle, mm/h: the AMS
    /// glossary's 0.04 in/h, from which drizzle "generally is rain".
    static let drizzleCeiling = 1.0
    /// Drizzle from this rate is moderate, mm/h (AMS: 0.01 in/h).
    static let drizzleModerate = 0.25
    /// Drizzle from this rate is dense, mm/h (AMS: 0.02 in/h; WMO-No. 8: heavy drizzle).
    static let drizzleDense = 0.5
    /// Rain and rain showers from this rate are moderate, mm/h (AMS: 0.10 in/h; WMO-No. 8).
    static let rainModerate = 2.5
    /// Rain and rain showers from this rate are heavy, mm/h (AMS: 0.30 in/h).
    static let rainHeavy = 7.6
    /// Snow from this rate is moderate, mm/h water equivalent (WMO-No. 8).
    static let snowModerate = 1.0
    /// Snow from this rate is heavy, mm/h water equivalent (WMO-No. 8).
    static let snowHeavy = 5.0
    /// A dry hour with a visibility below this is fog, m (WMO's definition of fog).
    static let fogVisibility = 1000.0
    /// Total cloud cover from which a dry sky is mainly clear, partly cloudy, overcast, %
    /// (Open-Meteo's bands).
    static let mainlyClear = 20.0
    static let partlyCloudy = 50.0
    static let overcast = 80.0
    /// A lifted index at or below this is unstable enough for a thunderstorm, K.
    static let thunderLiftedIndex = -2.0
    /// Where the lifted index is unknown, CAPE at or above this is unstable enough for a
    /// thunderstorm, J/kg: the bottom of "moderately unstable" (1,000–2,500 J/kg), the
    /// class the lifted index's −3 to −5 K share.
    static let thunderCAPE = 1000.0
    /// The convective precipitation a thunderstorm needs in the hour as well, mm.
    static let thunderConvective = 1.0
    /// Less hail than this in the hour is none (deaccumulation round-off), mm.
    static let hailPresent = 0.01
    /// Hail from this amount in the hour is heavy, mm.
    static let hailHeavy = 1.0
  }

  /// The conditions cleaned once: nil for an absent, non-finite or impossible value, the
  /// parts of the precipitation clamped into it, and the cloud cover into 0…100 %.
  struct Reading {
    var precipitation: Double?
    var convective: Double?
    var snow: Double?
    var temperature: Double?
    var visibility: Double?
    var cloud: Double?
    var liftedIndex: Double?
    var hail: Double?
    var cape: Double?
    var precipitationType: PrecipitationType?

    // Inlined, so that a band's loop (`codesIfKnown`) keeps the optionals in registers.
    @inline(__always)
    init(_ conditions: WeatherConditions) {
      // Deaccumulation leaves small negative amounts from round-off: they are none.
      let total = Self.known(conditions.precipitation).map { max($0, 0) }
      precipitation = total
      convective = Self.known(conditions.convective).map { min(max($0, 0), total ?? 0) }
      snow = Self.known(conditions.snow).map { min(max($0, 0), total ?? 0) }
      temperature = Self.known(conditions.temperature)
      visibility = Self.known(conditions.visibility).flatMap { $0 >= 0 ? $0 : nil }
      cloud = Self.known(conditions.cloud).map { min(max($0, 0), 100) }
      liftedIndex = Self.known(conditions.liftedIndex)
      hail = Self.known(conditions.hail).map { max($0, 0) }
      cape = Self.known(conditions.cape)
      precipitationType = conditions.precipitationType
    }

    private static func known(_ value: Double?) -> Double? {
      guard let value, value.isFinite else { return nil }
      return value
    }
  }

  /// The decision itself, in the order of docs/weather-codes.md: precipitation before fog
  /// before cloud; within precipitation, thunderstorm, then frozen, freezing, showers,
  /// drizzle and rain.
  @inline(__always)
  static func code(_ reading: Reading) -> WeatherCode? {
    guard let precipitation = reading.precipitation else { return nil }
    guard precipitation >= Threshold.wetHour else { return dryCode(reading) }
    if let storm = thunderstorm(reading) { return storm }
    let showers = (reading.convective ?? 0) / precipitation >= Threshold.convectiveShare
    if let type = reading.precipitationType {
      return categorical(type, precipitation, showers: showers)
    }

    let frozen: Bool
    if let snow = reading.snow {
      frozen = snow / precipitation >= Threshold.frozenShare
    } else {
      guard let temperature = reading.temperature else { return nil }
      frozen = temperature < Threshold.freezing
    }
    if frozen {
      return showers ? snowShowers(precipitation) : snowFall(precipitation)
    }
    guard let temperature = reading.temperature else { return nil }
    if temperature < Threshold.freezing { return freezingPrecipitation(precipitation) }
    if showers { return rainShowers(precipitation) }
    return precipitation < Threshold.drizzleCeiling ? drizzle(precipitation) : rain(precipitation)
  }

  private static func dryCode(_ reading: Reading) -> WeatherCode? {
    if let visibility = reading.visibility, visibility < Threshold.fogVisibility {
      guard let temperature = reading.temperature else { return nil }
      // Fog below freezing is supercooled and deposits rime.
      return temperature < Threshold.freezing ? .depositingRimeFog : .fog
    }
    guard let cloud = reading.cloud else { return nil }
    if cloud < Threshold.mainlyClear { return .clearSky }
    if cloud < Threshold.partlyCloudy { return .mainlyClear }
    return cloud < Threshold.overcast ? .partlyCloudy : .overcast
  }

  /// The code of a wet hour whose type the model's categorical types give: freezing rain
  /// by rate, ice pellets and snow as snow (WMO 4677's ice pellets, 79, is not among
  /// Open-Meteo's codes), rain as rain, never freezing, whatever the 2 m temperature.
  private static func categorical(_ type: PrecipitationType, _ rate: Double, showers: Bool) -> WeatherCode {
    switch type {
    case .freezingRain: return freezingPrecipitation(rate)
    case .snow, .icePellets: return showers ? snowShowers(rate) : snowFall(rate)
    case .rain:
      if showers { return rainShowers(rate) }
      return rate < Threshold.drizzleCeiling ? drizzle(rate) : rain(rate)
    }
  }

  /// A thunderstorm only where the lifted index (else, where it is unknown, CAPE) says the
  /// air is unstable AND the convection scheme rains: never from an amount alone, never
  /// without an instability input.
  private static func thunderstorm(_ reading: Reading) -> WeatherCode? {
    let unstable: Bool
    if let liftedIndex = reading.liftedIndex {
      unstable = liftedIndex <= Threshold.thunderLiftedIndex
    } else if let cape = reading.cape {
      unstable = cape >= Threshold.thunderCAPE
    } else {
      unstable = false
    }
    guard unstable, let convective = reading.convective, convective >= Threshold.thunderConvective
    else { return nil }
    guard let hail = reading.hail, hail >= Threshold.hailPresent else { return .thunderstorm }
    return hail >= Threshold.hailHeavy ? .thunderstormWithHeavyHail : .thunderstormWithSlightHail
  }

  private static func drizzle(_ rate: Double) -> WeatherCode {
    if rate < Threshold.drizzleModerate { return .lightDrizzle }
    return rate < Threshold.drizzleDense ? .moderateDrizzle : .denseDrizzle
  }

  private static func rain(_ rate: Double) -> WeatherCode {
    if rate < Threshold.rainModerate { return .slightRain }
    return rate < Threshold.rainHeavy ? .moderateRain : .heavyRain
  }

  private static func rainShowers(_ rate: Double) -> WeatherCode {
    if rate < Threshold.rainModerate { return .slightRainShowers }
    return rate < Threshold.rainHeavy ? .moderateRainShowers : .violentRainShowers
  }

  /// WMO 4677 has no freezing showers, and freezing matters more than the showers: drizzle
  /// and rain by rate alone.
  private static func freezingPrecipitation(_ rate: Double) -> WeatherCode {
    if rate < Threshold.drizzleModerate { return .lightFreezingDrizzle }
    if rate < Threshold.drizzleCeiling { return .denseFreezingDrizzle }
    return rate < Threshold.rainModerate ? .lightFreezingRain : .heavyFreezingRain
  }

  private static func snowFall(_ rate: Double) -> WeatherCode {
    if rate < Threshold.snowModerate { return .slightSnowFall }
    return rate < Threshold.snowHeavy ? .moderateSnowFall : .heavySnowFall
  }

  /// WMO 4677 has two snow-shower codes: slight, and moderate or heavy.
  private static func snowShowers(_ rate: Double) -> WeatherCode {
    rate < Threshold.snowModerate ? .slightSnowShowers : .heavySnowShowers
  }
}
