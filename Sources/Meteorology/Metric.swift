/// A quantity nwpcube answers for a point and time.
///
/// Names follow the legacy mobile client where one exists, Open-Meteo's otherwise. Stored
/// metrics are quantized as `offset + step · q` (q in 0…65534; 65535 means missing), so a
/// stored value is within `step / 2` of the derived one. The step is the metric's
/// precision, chosen by meteorology: finer than the model's own accuracy, and Open-Meteo's
/// where it has one (0.05 K, 0.1 m/s, 0.1 hPa, 0.1 mm, 1 %); `ingest --precision`
/// overrides it (`Metric+Precision.swift`). The others are
/// computed at query time (`origin`): `wind_vel` and `wind_dir` from the stored
/// earth-relative `wind_u`/`wind_v`, so that interpolation in space and time happens on
/// vectors, never on angles; `is_day` from the sun's position; `precipitation_probability`
/// from every run in the store that covers the hour.
///
/// A metric is a case of this enumeration and everything about it is in `definition`, one
/// exhaustive switch: adding a case without its definition does not compile, nor does a
/// derivation switch that forgets it (docs/adding-a-metric.md). Metrics compare as small
/// integers, and copying one, or an array of them, touches no reference counts: forecasts
/// pass metric lists around on every request.
public enum Metric: Int, CaseIterable, Sendable, CustomStringConvertible {
  case temp
  case hum
  case dewPoint
  case rain
  case snow
  case cloud
  case windVel
  case windDir
  case windU
  case windV
  case atmPress
  case sfcPress
  case shortwave
  case apparentTemp
  case visibility
  case weatherCode
  case showers
  case snowfall
  case cloudLow
  case cloudMid
  case cloudHigh
  case windGusts
  case snowDepth
  case isDay
  case precipitationNeighbourhood
  case precipitationProbability

  /// Its position in `Metric.queryable`: what per-metric tables (a cube's resolved metrics,
  /// a forecast's columns) are indexed by.
  @inlinable public var index: Int { rawValue }

  /// The metric's API name, e.g. `temp`.
  public var name: String { entry.name }
  /// Its unit, e.g. `°C`.
  public var unit: String { entry.unit }
  /// The default quantization step (precision) in `unit`; nil for metrics computed at
  /// query time.
  public var step: Double? { entry.origin == .stored ? entry.step : nil }
  /// The value stored as q = 0.
  public var offset: Double { entry.offset }
  /// How the value behaves between output steps and between cells.
  public var temporal: Temporal { entry.temporal }
  /// Decimal places worth printing: those of the quantization step.
  public var decimals: Int { entry.decimals }
  /// One line on how the metric is derived (shown by `nwpcube info` and the docs).
  public var derivation: String { entry.derivation }
  /// Where its values come from.
  public var origin: Origin { entry.origin }
  /// The model fields it is derived from, under WRF's names (MM5 and CF inputs are
  /// translated to these): what a cube without it lacked.
  public var inputs: String { entry.needs }
  /// Why a cube lacks this metric: its ingest found none of, or not all of, its inputs.
  public var absenceReason: String {
    "not in this cube: derived from \(inputs), which the model output lacked (the ingest warning named the missing ones)"
  }

  /// Why a cube that lacks every metric of `absent` lacks this one. A cube with `rain` but
  /// without `precip_neighbourhood` had its inputs: it was written by an ingest that
  /// skipped the neighbourhood on a large grid (before it was computed at every size).
  public func absenceReason(amongAbsent absent: [Metric]) -> String {
    guard self == .precipitationNeighbourhood || self == .precipitationProbability, !absent.contains(.rain) else {
      return absenceReason
    }
    let name = Metric.precipitationNeighbourhood.name
    return
      "not in this cube: it has rain, but the ingest that wrote it skipped \(name) (earlier versions did on grids above about 500,000 cells); ingesting the run again computes it"
  }
  /// The physically possible values, in `unit`: derived values outside are a defect.
  public var range: ClosedRange<Double> { entry.range }
  /// The kind of quantity its unit measures, for the units a client may choose; nil for
  /// units without a choice (degrees, W/m², cm, codes).
  var quantity: Quantity? { entry.quantity }

  /// How a metric is interpolated in time and space.
  public enum Temporal: UInt32, Sendable {
    /// An instantaneous field: linear between steps, bilinear between cells.
    case instant = 0
    /// An amount per hour over the interval ending at a step: constant over that interval.
    case hourlyAmount = 1
    /// A class (a weather code) describing the interval ending at a step: constant over that
    /// interval like an amount, and never averaged between cells: a bilinear query answers
    /// the class of the nearest cell, since the mean of drizzle (51) and snow (71) is not rain.
    case category = 2
  }

  /// Where a metric's values come from.
  public enum Origin: Sendable, Equatable {
    /// Derived at ingest and stored in the cube.
    case stored
    /// Speed or direction of the stored `wind_u`/`wind_v` at query time.
    case windComponents
    /// The sun's elevation at the point and instant, at query time.
    case solarPosition
    /// The mean over the store's runs covering the hour of their stored
    /// `precip_neighbourhood`, at query time.
    case timeLaggedMembers
  }

  /// The kinds of quantity a `UnitSystem` chooses units for.
  enum Quantity {
    case temperature, windSpeed, precipitation, pressure, visibility, share
  }

  public var description: String { name }

  /// The largest representable value.
  public var maximum: Double { offset + (step ?? 0) * 65534 }

  /// The least precipitation (mm in the hour) that makes an hour wet: the one threshold of
  /// the weather code, `precipitation_hours` and `precipitation_probability`.
  public static let wetHour = 0.1

  /// Every metric a cube can store, in storage order.
  public static let stored: [Metric] = allCases.filter { $0.origin == .stored }

  /// Every metric a query can ask for; each one's `index` is its position here.
  public static let queryable: [Metric] = allCases

  /// The metric called `name`, stored or derived.
  public static func named(_ name: String) -> Metric? {
    byName[name]
  }

  private static let byName: [String: Metric] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

extension Metric {
  /// What a metric is.
  struct Definition {
    let name: String
    let unit: String
    let step: Double
    let offset: Double
    let temporal: Temporal
    let decimals: Int
    let derivation: String
    let range: ClosedRange<Double>
    let quantity: Quantity?
    let origin: Origin
    let needs: String

    init(
      _ name: String, needs: String, _ unit: String, step: Double, offset: Double = 0, _ temporal: Temporal = .instant,
      decimals: Int = 2, range: ClosedRange<Double>, quantity: Quantity? = nil, origin: Origin = .stored,
      _ derivation: String
    ) {
      (self.name, self.needs, self.unit, self.step) = (name, needs, unit, step)
      (self.offset, self.temporal) = (offset, temporal)
      (self.decimals, self.derivation, self.range, self.quantity, self.origin) = (
        decimals, derivation, range, quantity, origin
      )
    }
  }

  /// This metric's catalogue entry, from a table built once: properties are read on the
  /// lookup and forecast paths, where building the definition each time would cost.
  private var entry: Definition { Self.catalogue[rawValue] }

  private static let catalogue: [Definition] = allCases.map(\.definition)

  /// The catalogue: one entry per metric. Ingest conventions derive the stored ones;
  /// docs/adding-a-metric.md lists every other switch the compiler then asks to extend.
  var definition: Definition {
    switch self {
    case .temp:
      Definition(
        "temp", needs: "T2", "°C", step: 0.05, offset: -150, range: -100...70, quantity: .temperature, "T2 − 273.15")
    case .hum:
      Definition(
        "hum", needs: "T2, Q2, PSFC", "%", step: 1, range: 0...100, quantity: .share,
        "2 m relative humidity from T2, Q2, PSFC (Bolton), clamped to 0–100")
    case .dewPoint:
      Definition(
        "dew_point", needs: "Q2, PSFC", "°C", step: 0.05, offset: -150, range: -150...70, quantity: .temperature,
        "from Q2 and PSFC, inverse Bolton, vapour pressure floored at 0.001 hPa")
    case .rain:
      Definition(
        "rain", needs: "RAINC or RAINNC", "mm", step: 0.1, .hourlyAmount, range: 0...655, quantity: .precipitation,
        "precipitation in the hour ending at t: RAINC+RAINNC(+RAINSH)(+buckets) deaccumulated")
    case .snow:
      Definition(
        "snow", needs: "SNOWNC", "mm", step: 0.1, .hourlyAmount, range: 0...655, quantity: .precipitation,
        "snow water equivalent in the hour ending at t: SNOWNC deaccumulated")
    case .cloud:
      Definition(
        "cloud", needs: "CLDFRA, or QVAPOR, P, PB, T", "%", step: 1, range: 0...100, quantity: .share,
        "100 · max over levels of CLDFRA")
    case .windVel:
      Definition(
        "wind_vel", needs: "U10, V10 and the grid angle", "m/s", step: 0, range: 0...464, quantity: .windSpeed,
        origin: .windComponents,
        "speed of (wind_u, wind_v); error ≤ 0.071 m/s from quantization")
    case .windDir:
      Definition(
        "wind_dir", needs: "U10, V10 and the grid angle", "°", step: 0, decimals: 1, range: 0...360,
        origin: .windComponents,
        "direction the wind blows from, (270 − atan2(v, u)) mod 360; error ≤ asin(0.071/speed)")
    case .windU:
      Definition(
        "wind_u", needs: "U10, V10 and the grid angle", "m/s", step: 0.1, offset: -327.67, range: -327.67...327.67,
        quantity: .windSpeed,
        "earth-relative eastward 10 m wind (U10/V10 rotated by the grid angle)")
    case .windV:
      Definition(
        "wind_v", needs: "U10, V10 and the grid angle", "m/s", step: 0.1, offset: -327.67, range: -327.67...327.67,
        quantity: .windSpeed,
        "earth-relative northward 10 m wind (U10/V10 rotated by the grid angle)")
    case .atmPress:
      Definition(
        "atm_press", needs: "PSFC, HGT, T2", "hPa", step: 0.1, offset: 500, range: 500...1155, quantity: .pressure,
        "sea-level pressure: PSFC·(1 − 0.0065·HGT/(T2 + 0.0065·HGT))^−5.257 / 100")
    case .sfcPress:
      Definition("sfc_press", needs: "PSFC", "hPa", step: 0.1, range: 0...1310, quantity: .pressure, "PSFC / 100")
    case .shortwave:
      Definition(
        "shortwave", needs: "SWDOWN", "W/m²", step: 1, decimals: 1, range: 0...1500,
        "SWDOWN, downward shortwave flux at the surface")
    case .apparentTemp:
      Definition(
        "apparent_temp", needs: "T2, Q2, PSFC, U10, V10 (and SWDOWN)", "°C", step: 0.05, offset: -150,
        range: -150...100, quantity: .temperature,
        "Steadman's apparent temperature, BoM form as Open-Meteo computes it: Ta + 0.348·e − 0.70·ws + 0.70·Q/(ws + 10) − 4.25, ws = 0.75 × 10 m wind, Q = max(0, 0.1·(SWDOWN − 550)), Q = 0 without SWDOWN"
      )
    case .visibility:
      Definition(
        "visibility", needs: "QVAPOR, P, PB, T (and QCLOUD, QRAIN, QICE, QSNOW) at the lowest levels", "m", step: 10,
        decimals: 0, range: 0...24135, quantity: .visibility,
        "the lower of UPP CALVIS extinction from QCLOUD, QRAIN, QICE, QSNOW at the lowest model level and CALVIS_GSD's haze term 90 km·exp(−2.5·min(0.8, max(0, RH − 0.15))) of the lowest two levels; capped at 24,135 m"
      )
    case .weatherCode:
      Definition(
        "weather_code", needs: "T2 and RAINC or RAINNC", "wmo code", step: 1, .category, decimals: 0, range: 0...99,
        "WMO 4677 code of the hour ending at t, from its precipitation rate, type and convective share, temperature, visibility, cloud and lifted index (docs/weather-codes.md)"
      )
    case .showers:
      Definition(
        "showers", needs: "RAINC", "mm", step: 0.1, .hourlyAmount, range: 0...655, quantity: .precipitation,
        "convective precipitation in the hour ending at t: RAINC+RAINSH deaccumulated")
    case .snowfall:
      Definition(
        "snowfall", needs: "SNOWNC", "cm", step: 0.1, .hourlyAmount, range: 0...655,
        "snow depth fallen in the hour ending at t: SNOWNC deaccumulated (mm water) × 0.7 cm/mm, Open-Meteo's 7:1 snow-to-liquid ratio"
      )
    case .cloudLow:
      Definition(
        "cloud_low", needs: "CLDFRA, P, PB", "%", step: 1, range: 0...100, quantity: .share,
        "100 · max of CLDFRA at levels with p > 800 hPa")
    case .cloudMid:
      Definition(
        "cloud_mid", needs: "CLDFRA, P, PB", "%", step: 1, range: 0...100, quantity: .share,
        "100 · max of CLDFRA at levels with 450 hPa < p ≤ 800 hPa")
    case .cloudHigh:
      Definition(
        "cloud_high", needs: "CLDFRA, P, PB", "%", step: 1, range: 0...100, quantity: .share,
        "100 · max of CLDFRA at levels with p ≤ 450 hPa")
    case .windGusts:
      Definition(
        "wind_gusts", needs: "PBLH, U, V, PH, PHB, U10, V10", "m/s", step: 0.1, range: 0...655, quantity: .windSpeed,
        "UPP CALGUST: the 10 m wind plus the difference to the wind at the top of the boundary layer (PBLH), damped by 1 − min(0.5, PBLH/2000 m)"
      )
    case .snowDepth:
      Definition(
        "snow_depth", needs: "SNOWH", "m", step: 0.01, range: 0...655,
        "snow depth on the ground: WRF SNOWH; GRIB sde, else the water equivalent sd over the snow density rsn (250 kg/m³ without it); CF surface_snow_thickness, else lwe_thickness_of_surface_snow_amount over 250 kg/m³"
      )
    case .isDay:
      Definition(
        "is_day", needs: "nothing", "", step: 0, .category, decimals: 0, range: 0...1, origin: .solarPosition,
        "1 when the sun's centre is above the horizon at the point and instant (NOAA solar position), else 0")
    case .precipitationNeighbourhood:
      Definition(
        "precip_neighbourhood", needs: "RAINC or RAINNC", "%", step: 1, .hourlyAmount, range: 0...100,
        quantity: .share,
        "this run's share of the cells within 25 km (great circle, the cell included) with ≥ 0.1 mm of rain as stored in the hour ending at t"
      )
    case .precipitationProbability:
      Definition(
        "precipitation_probability", needs: "RAINC or RAINNC", "%", step: 0, .hourlyAmount, decimals: 0, range: 0...100,
        quantity: .share,
        origin: .timeLaggedMembers,
        "mean of precip_neighbourhood over the newest four runs of the answering model and domain that cover the hour (those with a value)"
      )
    }
  }
}
