/// A quantity nwpcube answers for a point and time.
///
/// Names follow the legacy mobile client where one exists. Stored metrics are quantized
/// to 16 bits as `offset + step · q` (q in 0…65534; 65535 means missing), so a stored
/// value is within `step / 2` of the derived one. `wind_vel` and `wind_dir` are not stored:
/// they are computed at query time from the stored earth-relative `wind_u`/`wind_v`, so
/// that interpolation in space and time happens on vectors, never on angles.
///
/// A metric is its position in the catalogue and nothing else; what it is (name, unit,
/// quantization) is looked up there. So metrics compare as integers, and copying one, or
/// an array of them, touches no reference counts: forecasts pass metric lists around on
/// every request.
public struct Metric: Sendable, Hashable, CustomStringConvertible {
  /// Its position in `Metric.queryable`: what identifies it, and what per-metric tables
  /// (a cube's resolved metrics, a forecast's columns) are indexed by.
  public let index: Int

  private init(index: Int) { self.index = index }

  /// The metric's API name, e.g. `temp`.
  public var name: String { Self.catalogue[index].name }
  /// Its unit, e.g. `°C`.
  public var unit: String { Self.catalogue[index].unit }
  /// The quantization step in `unit`; nil for metrics derived at query time.
  public var step: Double? { Self.catalogue[index].step }
  /// The value stored as q = 0.
  public var offset: Double { Self.catalogue[index].offset }
  /// How the value behaves between output steps.
  public var temporal: Temporal { Self.catalogue[index].temporal }
  /// Decimal places worth printing: those of the quantization step.
  public var decimals: Int { Self.catalogue[index].decimals }
  /// One line on how the metric is derived (shown by `nwpcube info` and the docs).
  public var derivation: String { Self.catalogue[index].derivation }
  /// The kind of quantity its unit measures, for the units a client may choose; nil for
  /// units without a choice (%, degrees, W/m²).
  var quantity: Quantity? { Self.catalogue[index].quantity }

  /// How a metric is interpolated in time.
  public enum Temporal: UInt32, Sendable {
    /// An instantaneous field: linear between steps.
    case instant = 0
    /// An amount per hour over the interval ending at a step: constant over that interval.
    case hourlyAmount = 1
  }

  /// The kinds of quantity a `UnitSystem` chooses units for.
  enum Quantity {
    case temperature, windSpeed, precipitation, pressure, visibility
  }

  public var description: String { name }

  /// The largest representable value.
  public var maximum: Double { offset + (step ?? 0) * 65534 }

  /// What a metric is.
  private struct Definition {
    let name: String
    let unit: String
    let step: Double?
    let offset: Double
    let temporal: Temporal
    let decimals: Int
    let derivation: String
    let quantity: Quantity?
  }
}

extension Metric {
  public static let temp = Metric(index: 0)
  public static let hum = Metric(index: 1)
  public static let dewPoint = Metric(index: 2)
  public static let rain = Metric(index: 3)
  public static let snow = Metric(index: 4)
  public static let cloud = Metric(index: 5)
  public static let windVel = Metric(index: 6)
  public static let windDir = Metric(index: 7)
  public static let windU = Metric(index: 8)
  public static let windV = Metric(index: 9)
  public static let atmPress = Metric(index: 10)
  public static let sfcPress = Metric(index: 11)
  public static let shortwave = Metric(index: 12)

  /// Every metric's definition, in index order.
  private static let catalogue: [Definition] = [
    Definition(
      name: "temp", unit: "°C", step: 0.01, offset: -150, temporal: .instant, decimals: 2,
      derivation: "T2 − 273.15", quantity: .temperature),
    Definition(
      name: "hum", unit: "%", step: 0.01, offset: 0, temporal: .instant, decimals: 2,
      derivation: "2 m relative humidity from T2, Q2, PSFC (Bolton), clamped to 0–100", quantity: nil),
    Definition(
      name: "dew_point", unit: "°C", step: 0.01, offset: -150, temporal: .instant, decimals: 2,
      derivation: "from Q2 and PSFC, inverse Bolton, vapour pressure floored at 0.001 hPa", quantity: .temperature),
    Definition(
      name: "rain", unit: "mm", step: 0.01, offset: 0, temporal: .hourlyAmount, decimals: 2,
      derivation:
        "precipitation in the hour ending at t: RAINC+RAINNC(+RAINSH)(+buckets) deaccumulated", quantity: .precipitation
    ),
    Definition(
      name: "snow", unit: "mm", step: 0.01, offset: 0, temporal: .hourlyAmount, decimals: 2,
      derivation: "snow water equivalent in the hour ending at t: SNOWNC deaccumulated", quantity: .precipitation),
    Definition(
      name: "cloud", unit: "%", step: 0.01, offset: 0, temporal: .instant, decimals: 2,
      derivation: "100 · max over levels of CLDFRA", quantity: nil),
    Definition(
      name: "wind_vel", unit: "m/s", step: nil, offset: 0, temporal: .instant, decimals: 2,
      derivation: "speed of (wind_u, wind_v); error ≤ 0.0071 m/s from quantization", quantity: .windSpeed),
    Definition(
      name: "wind_dir", unit: "°", step: nil, offset: 0, temporal: .instant, decimals: 1,
      derivation:
        "direction the wind blows from, (270 − atan2(v, u)) mod 360; error ≤ asin(0.0071/speed)", quantity: nil),
    Definition(
      name: "wind_u", unit: "m/s", step: 0.01, offset: -327.67, temporal: .instant, decimals: 2,
      derivation: "earth-relative eastward 10 m wind (U10/V10 rotated by the grid angle)", quantity: .windSpeed),
    Definition(
      name: "wind_v", unit: "m/s", step: 0.01, offset: -327.67, temporal: .instant, decimals: 2,
      derivation: "earth-relative northward 10 m wind (U10/V10 rotated by the grid angle)", quantity: .windSpeed),
    Definition(
      name: "atm_press", unit: "hPa", step: 0.01, offset: 500, temporal: .instant, decimals: 2,
      derivation: "sea-level pressure: PSFC·(1 − 0.0065·HGT/(T2 + 0.0065·HGT))^−5.257 / 100", quantity: .pressure),
    Definition(
      name: "sfc_press", unit: "hPa", step: 0.02, offset: 0, temporal: .instant, decimals: 2,
      derivation: "PSFC / 100", quantity: .pressure),
    Definition(
      name: "shortwave", unit: "W/m²", step: 0.1, offset: 0, temporal: .instant, decimals: 1,
      derivation: "SWDOWN, downward shortwave flux at the surface", quantity: nil),
  ]

  /// Every metric a cube can store, in storage order.
  public static let stored: [Metric] = [
    temp, hum, dewPoint, rain, snow, cloud, windU, windV, atmPress, sfcPress, shortwave,
  ]

  /// Every metric a query can ask for; each one's `index` is its position here.
  public static let queryable: [Metric] = catalogue.indices.map(Metric.init(index:))

  /// The metric called `name`, stored or derived.
  public static func named(_ name: String) -> Metric? {
    queryable.first { $0.name == name }
  }
}
