/// The units a client wants its answers in: one per kind of quantity.
///
/// Start from a preset and override single units, as Open-Meteo clients do with
/// `temperature_unit=fahrenheit`:
///
/// ```swift
/// var units = UnitSystem.uk
/// units.windSpeed = .knots
/// let shown = units.convert(12.5, of: .windVel)   // 24.3 (kn)
/// let label = units.label(of: .windVel)           // "kn"
/// ```
public struct UnitSystem: Sendable, Hashable {
  /// For `temp`, `dew_point` and other °C metrics.
  public var temperature: TemperatureUnit
  /// For `wind_vel`, `wind_u`, `wind_v` and other m/s metrics.
  public var windSpeed: WindSpeedUnit
  /// For `rain`, `snow` and other mm metrics.
  public var precipitation: PrecipitationUnit
  /// For `atm_press`, `sfc_press` and other hPa metrics.
  public var pressure: PressureUnit
  /// For visibility, stored in metres.
  public var visibility: VisibilityUnit
  /// For `hum`, `cloud`, `precipitation_probability` and other % metrics.
  public var share: ShareUnit

  /// Every unit given explicitly.
  public init(
    temperature: TemperatureUnit, windSpeed: WindSpeedUnit, precipitation: PrecipitationUnit,
    pressure: PressureUnit, visibility: VisibilityUnit, share: ShareUnit = .percent
  ) {
    self.temperature = temperature
    self.windSpeed = windSpeed
    self.precipitation = precipitation
    self.pressure = pressure
    self.visibility = visibility
    self.share = share
  }

  /// The units of a preset.
  public init(_ preset: UnitPreset) {
    self =
      switch preset {
      case .si: .si
      case .us: .us
      case .uk: .uk
      case .canada: .canada
      }
  }

  /// A preset (SI when nil) with the units a request overrides, each given by its
  /// parameter's value as a client sends it (`fahrenheit`, `kn`, `inHg`, …; nil keeps the
  /// preset's unit).
  /// - Throws: `UnitError` for the first name that is not allowed, naming its parameter.
  public init(
    preset: String?, temperature: String? = nil, windSpeed: String? = nil, precipitation: String? = nil,
    pressure: String? = nil, visibility: String? = nil
  ) throws(UnitError) {
    self.init(try preset.map { name throws(UnitError) in try UnitPreset(parsing: name) } ?? .si)
    if let temperature { self.temperature = try TemperatureUnit(parsing: temperature) }
    if let windSpeed { self.windSpeed = try WindSpeedUnit(parsing: windSpeed) }
    if let precipitation { self.precipitation = try PrecipitationUnit(parsing: precipitation) }
    if let pressure { self.pressure = try PressureUnit(parsing: pressure) }
    if let visibility { self.visibility = try VisibilityUnit(parsing: visibility) }
  }

  /// °C, m/s, mm, hPa, m, %: the units metrics are stored in, so nothing is converted.
  public static let si = UnitSystem(
    temperature: .celsius, windSpeed: .metresPerSecond, precipitation: .millimetres, pressure: .hectopascals,
    visibility: .metres)
  /// °F, mph, inch, inHg, mi, %.
  public static let us = UnitSystem(
    temperature: .fahrenheit, windSpeed: .milesPerHour, precipitation: .inches, pressure: .inchesOfMercury,
    visibility: .miles)
  /// °C, mph, mm, hPa, mi, %: British forecasts give wind and visibility in imperial units.
  public static let uk = UnitSystem(
    temperature: .celsius, windSpeed: .milesPerHour, precipitation: .millimetres, pressure: .hectopascals,
    visibility: .miles)
  /// °C, km/h, mm, kPa, km, %. Pressure is in kPa because that is what Environment and
  /// Climate Change Canada's public forecasts print (hPa is one `pressure_unit=hPa` away).
  public static let canada = UnitSystem(
    temperature: .celsius, windSpeed: .kilometresPerHour, precipitation: .millimetres, pressure: .kilopascals,
    visibility: .kilometres)

  /// `value`, a value of `metric` in the metric's own unit, in these units. Metrics whose
  /// unit no choice covers (%, degrees, W/m²) pass through unchanged.
  public func convert(_ value: Double, of metric: Metric) -> Double {
    unit(of: metric)?.convert(fromCanonical: value) ?? value
  }

  /// The conversion `convert(_:of:)` applies to `metric`, found once so that a column of
  /// values converts with a multiply-add each. Every unit conversion here is affine.
  public func conversion(of metric: Metric) -> UnitConversion {
    guard let unit = unit(of: metric) else { return .identity }
    let offset = unit.convert(fromCanonical: 0)
    return UnitConversion(scale: unit.convert(fromCanonical: 1) - offset, offset: offset)
  }

  /// The unit `convert(_:of:)` gives `metric` in: the chosen unit's label, or the metric's
  /// own unit where no choice covers it.
  public func label(of metric: Metric) -> String {
    unit(of: metric)?.label ?? metric.unit
  }

  /// The chosen unit for the quantity a metric's canonical unit belongs to.
  private func unit(of metric: Metric) -> (any MeasurementUnit)? {
    switch metric.quantity {
    case .temperature: temperature
    case .windSpeed: windSpeed
    case .precipitation: precipitation
    case .pressure: pressure
    case .visibility: visibility
    case .share: share
    case nil: nil
    }
  }
}

/// A named set of units, as in `--units us`.
public enum UnitPreset: String, UnitChoice {
  /// °C, m/s, mm, hPa, m.
  case si
  /// °F, mph, inch, inHg, mi.
  case us
  /// °C, mph, mm, hPa, mi.
  case uk
  /// °C, km/h, mm, kPa, km.
  case canada

  public static let parameter = "units"
}

/// An affine unit conversion, `value · scale + offset`.
public struct UnitConversion: Sendable, Hashable {
  public let scale: Double
  public let offset: Double

  /// No conversion.
  public static let identity = UnitConversion(scale: 1, offset: 0)

  /// `value` converted.
  @inlinable
  public func callAsFunction(_ value: Double) -> Double { value * scale + offset }
}
