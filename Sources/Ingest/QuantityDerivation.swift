import Meteorology

/// Turns surface quantities into metrics, for every convention whose input is surface
/// fields in physical units rather than model levels (CF files and GRIB messages): which
/// metrics a set of quantities supports, and their values at one step.
///
/// A convention finds its quantities in its own way (CF by standard_name, GRIB by its
/// parameter table) and hands them over under these keys, converted to these units:
///
/// | key | quantity | unit |
/// |---|---|---|
/// | `t`, `td` | 2 m temperature, dew point | °C |
/// | `rh` | 2 m relative humidity | % |
/// | `q` | 2 m specific humidity (with `sp` for relative humidity) | kg/kg |
/// | `u`, `v` | 10 m earth-relative wind | m/s |
/// | `msl`, `sp` | mean-sea-level and surface pressure | hPa |
/// | `pr`, `cpr`, `sfr` | precipitation, its convective part, snowfall (water equivalent): the hour's mean rate | mm/h |
/// | `tp`, `cpa`, `sfa` | the same as amounts since the previous step (used when steps are hourly) | mm |
/// | `cloud`, `lcc`, `mcc`, `hcc` | total and low, middle, high cloud | % |
/// | `sw` | surface downward shortwave radiation | W/m² |
/// | `vis` | visibility | m |
/// | `gust` | wind gust | m/s |
/// | `li` | lifted index (the thunderstorm criterion) | K |
/// | `sde` | snow depth | m |
/// | `sdwe`, `rsn` | snow water equivalent, snow density | mm, kg/m³ |
/// | `cape` | convective available potential energy (the thunderstorm criterion without `li`) | J/kg |
/// | `crain`, `cfrzr`, `cicep`, `csnow` | categorical rain, freezing rain, ice pellets, snow (1 where the precipitation is of that type) | 0/1 |
struct QuantityDerivation: Sendable {
  /// What a convention calls the inputs a metric needs, for the warning that it is missing.
  struct Names: Sendable {
    /// The missing input of each metric, as "no METRIC: TEXT not found in FILE" puts it.
    let missing: [Metric: String]
    /// The wind's (both components) missing input.
    let wind: String
    /// Why the weather code has no thunderstorms when `li` and `cape` are absent (with the
    /// file).
    let noThunderstorms: String
    /// The file named in warnings.
    let path: String
    /// The snow density input, for the warning that snow depth assumes one without it.
    var snowDensity = "snow density"
  }

  let metrics: [Metric]
  let warnings: [String]
  private let available: Set<String>
  private let rainIsFlux: Bool
  /// The keys showers and snowfall come from, if any.
  private let convective: String?
  private let snowfall: String?

  /// The metrics `available` supports, and a warning for each metric it does not.
  init(available: Set<String>, stepSeconds: Int64, names: Names) {
    var metrics: [Metric] = []
    var warnings: [String] = []
    func offer(_ metric: Metric, if supported: Bool) {
      if supported {
        metrics.append(metric)
      } else {
        warnings.append("no \(metric.name): \(names.missing[metric] ?? "its input") not found in \(names.path)")
      }
    }
    let has = { (key: String) in available.contains(key) }
    let humidity = has("rh") || (has("t") && has("td")) || (has("t") && has("q") && has("sp"))
    offer(.temp, if: has("t"))
    offer(.hum, if: humidity)
    offer(.dewPoint, if: has("td") || (has("q") && has("sp")) || (has("t") && has("rh")))
    // An amount only says how much fell since the previous step when steps are hourly.
    rainIsFlux = has("pr")
    offer(.rain, if: rainIsFlux || (has("tp") && stepSeconds == 3600))
    offer(.cloud, if: has("cloud"))
    if has("u") && has("v") {
      metrics += [.windU, .windV]
    } else {
      warnings.append("no wind: \(names.wind) not found in \(names.path)")
    }
    offer(.atmPress, if: has("msl"))
    offer(.sfcPress, if: has("sp"))
    offer(.shortwave, if: has("sw"))
    offer(.apparentTemp, if: has("t") && humidity && has("u") && has("v"))
    offer(.visibility, if: has("vis"))
    // Like rain: a flux, or an amount when it is the hour's.
    convective = has("cpr") ? "cpr" : has("cpa") && stepSeconds == 3600 ? "cpa" : nil
    offer(.showers, if: convective != nil)
    snowfall = has("sfr") ? "sfr" : has("sfa") && stepSeconds == 3600 ? "sfa" : nil
    offer(.snowfall, if: snowfall != nil)
    offer(.cloudLow, if: has("lcc"))
    offer(.cloudMid, if: has("mcc"))
    offer(.cloudHigh, if: has("hcc"))
    offer(.windGusts, if: has("gust"))
    offer(.snowDepth, if: has("sde") || has("sdwe"))
    if metrics.contains(.snowDepth), !has("sde"), !has("rsn") {
      warnings.append(
        "snow_depth from the snow water equivalent at \(Int(SnowDepth.fallbackDensity)) kg/m³: \(names.snowDensity) not found in \(names.path)"
      )
    }
    // Last: the code reads the metrics above.
    offer(.weatherCode, if: metrics.contains(.rain) && has("t"))
    if metrics.contains(.weatherCode), !has("li"), !has("cape") {
      warnings.append("weather_code without thunderstorms (no lifted index or CAPE): \(names.noThunderstorms)")
    }
    self.metrics = metrics
    self.warnings = warnings
    self.available = available
  }

  /// The metrics' values over `cells` cells (`[metric][cell]`), reading each quantity
  /// through `read`, which returns `cells` values a key (converted and screened; the
  /// caller caches them when a quantity is asked for twice).
  func derive(cells: Int, read: (String) throws(IngestError) -> [Double]) throws(IngestError) -> [[Double]] {
    // Humidity feeds both `hum` and the apparent temperature: derived once (two `exp` a
    // cell).
    var humidity: [Double]?
    func relativeHumidity() throws(IngestError) -> [Double] {
      if let humidity { return humidity }
      let values = try self.relativeHumidity(read)
      humidity = values
      return values
    }
    var derived: [Metric: [Double]] = [:]
    for metric in metrics {
      let values: [Double]
      switch metric {
      case .temp: values = try read("t")
      case .dewPoint: values = try dewPoint(read)
      case .hum: values = try relativeHumidity()
      case .rain: values = try read(rainIsFlux ? "pr" : "tp").map { max($0, 0) }
      case .cloud: values = try read("cloud")
      case .windU: values = try read("u")
      case .windV: values = try read("v")
      case .atmPress: values = try read("msl")
      case .sfcPress: values = try read("sp")
      case .shortwave: values = try read("sw")
      case .apparentTemp:
        let (t, rh, u, v) = (try read("t"), try relativeHumidity(), try read("u"), try read("v"))
        let shortwave = available.contains("sw") ? try read("sw") : nil
        values = t.indices.map { cell in
          ApparentTemperature.celsius(
            temperature: t[cell], relativeHumidity: rh[cell],
            windSpeed10m: (u[cell] * u[cell] + v[cell] * v[cell]).squareRoot(), shortwave: shortwave?[cell])
        }
      case .visibility: values = try read("vis").map { min(max($0, 0), Visibility.maximum) }
      case .showers: values = try read(convective ?? "").map { max($0, 0) }
      case .snowfall: values = try read(snowfall ?? "").map { max($0, 0) * WRFDerivation.snowfallRatio }
      case .cloudLow: values = try read("lcc")
      case .cloudMid: values = try read("mcc")
      case .cloudHigh: values = try read("hcc")
      case .windGusts: values = try read("gust")
      case .snowDepth: values = try snowDepth(read)
      case .weatherCode: values = try weatherCodes(read, derived: derived)
      case .snow:
        // Surface quantities carry no snow water equivalent series: never offered in `metrics`.
        values = Array(repeating: .nan, count: cells)
      case .precipitationNeighbourhood:
        // Derived from the stored rain after every convention's derivation
        // (`IngestPlan+Neighbourhood`): never offered in `metrics` here.
        values = Array(repeating: .nan, count: cells)
      case .windVel, .windDir, .isDay, .precipitationProbability:
        preconditionFailure("\(metric.name) is computed at query time, never stored")
      }
      derived[metric] = values
    }
    return metrics.map { derived[$0] ?? [] }
  }

  /// 2 m relative humidity (%): the input's; else from temperature and dew point as the
  /// ratio of their saturation pressures; else from specific humidity and surface pressure
  /// (as WRF's from its mixing ratio).
  private func relativeHumidity(
    _ read: (String) throws(IngestError) -> [Double]
  ) throws(IngestError) -> [Double] {
    if available.contains("rh") { return try read("rh").map { min(max($0, 0), 100) } }
    if available.contains("td") {
      let (t, td) = (try read("t"), try read("td"))
      let count = min(t.count, td.count)
      return [Double](unsafeUninitializedCapacity: count) { values, initialized in
        for cell in 0..<count {
          let ratio = Thermodynamics.saturationVapourPressureRatio(
            dewPoint: td[cell] + Thermodynamics.kelvinOffset, kelvin: t[cell] + Thermodynamics.kelvinOffset)
          values.initializeElement(at: cell, to: 100 * min(max(ratio, 0), 1))
        }
        initialized = count
      }
    }
    let (t, q, p) = (try read("t"), try read("q"), try read("sp"))
    return zip(t, zip(q, p)).map { t, qp in
      Thermodynamics.relativeHumidity(
        kelvin: t + Thermodynamics.kelvinOffset, mixingRatio: Self.mixingRatio(specificHumidity: qp.0),
        pascal: qp.1 * 100)
    }
  }

  /// 2 m dew point (°C): the input's, else from specific humidity and surface pressure,
  /// else from temperature and relative humidity (as NCEP's NAM and HRRR give them).
  private func dewPoint(_ read: (String) throws(IngestError) -> [Double]) throws(IngestError) -> [Double] {
    if available.contains("td") { return try read("td") }
    if !(available.contains("q") && available.contains("sp")) {
      let (t, rh) = (try read("t"), try read("rh"))
      return zip(t, rh).map { t, rh in
        Thermodynamics.dewPoint(kelvin: t + Thermodynamics.kelvinOffset, relativeHumidity: rh)
      }
    }
    let (q, p) = (try read("q"), try read("sp"))
    return zip(q, p).map { q, p in
      Thermodynamics.dewPoint(mixingRatio: Self.mixingRatio(specificHumidity: q), pascal: p * 100)
    }
  }

  /// Each cell's dominant categorical precipitation type (`PrecipitationType`'s raw value,
  /// NaN where none is yes), or nil when the run has no categorical type but snow: `csnow`
  /// alone already decides through the snow part.
  private func precipitationTypes(
    _ read: (String) throws(IngestError) -> [Double], cells: Int
  ) throws(IngestError) -> [Double]? {
    let keys = ["crain", "cfrzr", "cicep", "csnow"]
    guard keys.dropLast().contains(where: available.contains) else { return nil }
    var flags: [[Double]?] = []
    for key in keys { flags.append(available.contains(key) ? try read(key) : nil) }
    return (0..<cells).map { cell in
      let type = PrecipitationType.dominant(
        rain: flags[0]?[cell], freezingRain: flags[1]?[cell], icePellets: flags[2]?[cell], snow: flags[3]?[cell])
      return type.map { Double($0.rawValue) } ?? .nan
    }
  }

  /// Snow depth (m): the input's, else the water equivalent over the snow density.
  private func snowDepth(_ read: (String) throws(IngestError) -> [Double]) throws(IngestError) -> [Double] {
    if available.contains("sde") { return try read("sde").map { $0.isNaN ? $0 : max($0, 0) } }
    let water = try read("sdwe")
    guard available.contains("rsn") else { return water.map { SnowDepth.metres(waterEquivalent: $0) } }
    let density = try read("rsn")
    return zip(water, density).map { SnowDepth.metres(waterEquivalent: $0, density: $1) }
  }

  /// The mixing ratio w = q / (1 − q) of a specific humidity q (both kg/kg); NaN stays NaN.
  static func mixingRatio(specificHumidity q: Double) -> Double {
    q / (1 - min(q, 0.5))
  }

  /// The weather code of every cell from the derived precipitation, showers, snowfall (back
  /// to water equivalent; else the precipitation where categorical snow says so),
  /// temperature, visibility, cloud and, when given, the lifted index or CAPE and the
  /// categorical precipitation types.
  private func weatherCodes(
    _ read: (String) throws(IngestError) -> [Double], derived: [Metric: [Double]]
  ) throws(IngestError) -> [Double] {
    let (rain, t) = (derived[.rain] ?? [], try read("t"))
    // Snow below zero is none; unknown snow stays unknown (NaN, which the classifier takes
    // for absent).
    var snow = snowfall == nil ? nil : try read(snowfall ?? "").map { $0.isNaN ? $0 : max($0, 0) }
    if snow == nil, available.contains("csnow") {
      snow = zip(rain, try read("csnow")).map { rain, flag in flag.isNaN ? .nan : flag >= 0.5 ? rain : 0 }
    }
    let liftedIndex = available.contains("li") ? try read("li") : nil
    let cape = available.contains("cape") ? try read("cape") : nil
    // A code that would rest on a guess (a dry hour of unknown cloud) is stored missing.
    var codes = WeatherCode.codesIfKnown(
      precipitation: rain, convective: derived[.showers], snow: snow, temperature: t,
      visibility: derived[.visibility], cloud: derived[.cloud], liftedIndex: liftedIndex, cape: cape,
      precipitationType: try precipitationTypes(read, cells: t.count))
    // An unknown temperature leaves the cell unknown even where snow alone would decide.
    for cell in codes.indices where t[cell].isNaN { codes[cell] = .nan }
    return codes
  }
}
