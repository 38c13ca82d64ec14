/// A quantity nwpcube answers for a point and time.
///
/// Names follow the legacy mobile client where one exists. Stored metrics are quantized
/// to 16 bits as `offset + step · q` (q in 0…65534; 65535 means missing), so a stored
/// value is within `step / 2` of the derived one. `wind_vel` and `wind_dir` are not stored:
/// they are computed at query time from the stored earth-relative `wind_u`/`wind_v`, so
/// that interpolation in space and time happens on vectors, never on angles.
public struct Metric: Sendable, Hashable, CustomStringConvertible {
  /// The metric's API name, e.g. `temp`.
  public let name: String
  /// Its unit, e.g. `°C`.
  public let unit: String
  /// The quantization step in `unit`; nil for metrics derived at query time.
  public let step: Double?
  /// The value stored as q = 0.
  public let offset: Double
  /// How the value behaves between output steps.
  public let temporal: Temporal
  /// Decimal places worth printing: those of the quantization step.
  public let decimals: Int
  /// One line on how the metric is derived (shown by `nwpcube info` and the docs).
  public let derivation: String

  /// How a metric is interpolated in time.
  public enum Temporal: UInt32, Sendable {
    /// An instantaneous field: linear between steps.
    case instant = 0
    /// An amount per hour over the interval ending at a step: constant over that interval.
    case hourlyAmount = 1
  }

  public var description: String { name }

  /// Metrics are identified by name alone. Comparing the short ASCII names is a couple of
  /// machine words; the synthesized comparison also compared units such as `°C`, whose
  /// non-ASCII bytes take a slow path that showed up in daily summaries.
  public static func == (a: Metric, b: Metric) -> Bool { a.name == b.name }

  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The largest representable value.
  public var maximum: Double { offset + (step ?? 0) * 65534 }
}

extension Metric {
  public static let temp = Metric(
    name: "temp", unit: "°C", step: 0.01, offset: -150, temporal: .instant, decimals: 2,
    derivation: "T2 − 273.15")
  public static let hum = Metric(
    name: "hum", unit: "%", step: 0.01, offset: 0, temporal: .instant, decimals: 2,
    derivation: "2 m relative humidity from T2, Q2, PSFC (Bolton), clamped to 0–100")
  public static let dewPoint = Metric(
    name: "dew_point", unit: "°C", step: 0.01, offset: -150, temporal: .instant, decimals: 2,
    derivation: "from Q2 and PSFC, inverse Bolton, vapour pressure floored at 0.001 hPa")
  public static let rain = Metric(
    name: "rain", unit: "mm", step: 0.01, offset: 0, temporal: .hourlyAmount, decimals: 2,
    derivation:
      "precipitation in the hour ending at t: RAINC+RAINNC(+RAINSH)(+buckets) deaccumulated")
  public static let snow = Metric(
    name: "snow", unit: "mm", step: 0.01, offset: 0, temporal: .hourlyAmount, decimals: 2,
    derivation: "snow water equivalent in the hour ending at t: SNOWNC deaccumulated")
  public static let cloud = Metric(
    name: "cloud", unit: "%", step: 0.01, offset: 0, temporal: .instant, decimals: 2,
    derivation: "100 · max over levels of CLDFRA")
  public static let windU = Metric(
    name: "wind_u", unit: "m/s", step: 0.01, offset: -327.67, temporal: .instant, decimals: 2,
    derivation: "earth-relative eastward 10 m wind (U10/V10 rotated by the grid angle)")
  public static let windV = Metric(
    name: "wind_v", unit: "m/s", step: 0.01, offset: -327.67, temporal: .instant, decimals: 2,
    derivation: "earth-relative northward 10 m wind (U10/V10 rotated by the grid angle)")
  public static let windVel = Metric(
    name: "wind_vel", unit: "m/s", step: nil, offset: 0, temporal: .instant, decimals: 2,
    derivation: "speed of (wind_u, wind_v); error ≤ 0.0071 m/s from quantization")
  public static let windDir = Metric(
    name: "wind_dir", unit: "°", step: nil, offset: 0, temporal: .instant, decimals: 1,
    derivation:
      "direction the wind blows from, (270 − atan2(v, u)) mod 360; error ≤ asin(0.0071/speed)")
  public static let atmPress = Metric(
    name: "atm_press", unit: "hPa", step: 0.01, offset: 500, temporal: .instant, decimals: 2,
    derivation: "sea-level pressure: PSFC·(1 − 0.0065·HGT/(T2 + 0.0065·HGT))^−5.257 / 100")
  public static let sfcPress = Metric(
    name: "sfc_press", unit: "hPa", step: 0.02, offset: 0, temporal: .instant, decimals: 2,
    derivation: "PSFC / 100")
  public static let shortwave = Metric(
    name: "shortwave", unit: "W/m²", step: 0.1, offset: 0, temporal: .instant, decimals: 1,
    derivation: "SWDOWN, downward shortwave flux at the surface")

  /// Every metric a cube can store, in storage order.
  public static let stored: [Metric] = [
    temp, hum, dewPoint, rain, snow, cloud, windU, windV, atmPress, sfcPress, shortwave,
  ]

  /// Every metric a query can ask for.
  public static let queryable: [Metric] = [
    temp, hum, dewPoint, rain, snow, cloud, windVel, windDir, windU, windV, atmPress, sfcPress,
    shortwave,
  ]

  /// The metric called `name`, stored or derived.
  public static func named(_ name: String) -> Metric? {
    queryable.first { $0.name == name }
  }
}
