// The units a forecast can be given in. Each converts from the canonical unit metrics are
// derived and stored in (°C, m/s, mm, hPa, m, %) with exact factors: the kelvin's offset,
// the inch, the mile, the knot and both mercury columns are defined values, so no
// conversion adds its own error. These are the only unit conversions in nwpcube: every
// client API (Open-Meteo's, OpenWeatherMap's, Dark Sky's) converts through them.

/// A unit of one kind of quantity, which values in that quantity's canonical unit convert to.
public protocol MeasurementUnit: UnitChoice {
  /// The symbol printed after a value, e.g. `°F`.
  var label: String { get }
  /// `value`, given in the quantity's canonical unit (°C, m/s, mm, hPa, m or %), in this unit.
  func convert(fromCanonical value: Double) -> Double
}

/// Temperature: °C, °F or K.
public enum TemperatureUnit: String, MeasurementUnit {
  case celsius
  case fahrenheit
  /// OpenWeatherMap's default ("standard") unit. Open-Meteo has no kelvin; accepting it in
  /// `temperature_unit` as well costs its clients nothing.
  case kelvin

  public static let parameter = "temperature_unit"

  public var label: String {
    switch self {
    case .celsius: "°C"
    case .fahrenheit: "°F"
    case .kelvin: "K"
    }
  }

  /// A temperature (not a difference of temperatures) given in °C, in this unit. 0 °C is
  /// 273.15 K by definition.
  public func convert(fromCanonical value: Double) -> Double {
    switch self {
    case .celsius: value
    case .fahrenheit: value * 9 / 5 + 32
    case .kelvin: value + 273.15
    }
  }
}

/// Wind speed: m/s, km/h, mph or knots.
public enum WindSpeedUnit: String, MeasurementUnit {
  case metresPerSecond = "ms"
  case kilometresPerHour = "kmh"
  case milesPerHour = "mph"
  case knots = "kn"

  public static let parameter = "wind_speed_unit"

  public var label: String {
    switch self {
    case .metresPerSecond: "m/s"
    case .kilometresPerHour: "km/h"
    case .milesPerHour: "mph"
    case .knots: "kn"
    }
  }

  /// A speed given in m/s, in this unit. A mile is 1609.344 m and a knot 1852 m per hour.
  public func convert(fromCanonical value: Double) -> Double {
    switch self {
    case .metresPerSecond: value
    case .kilometresPerHour: value * 3.6
    case .milesPerHour: value * 3600 / 1609.344
    case .knots: value * 3600 / 1852
    }
  }
}

/// Precipitation depth: millimetres or inches. An hourly amount is also a mean rate, so the
/// same factor gives mm/h or in/h (`rateLabel`).
public enum PrecipitationUnit: String, MeasurementUnit {
  case millimetres = "mm"
  case inches = "inch"

  public static let parameter = "precipitation_unit"

  public var label: String {
    switch self {
    case .millimetres: "mm"
    case .inches: "in"
    }
  }

  /// The symbol of an intensity in this unit per hour, e.g. `in/h`.
  public var rateLabel: String { label + "/h" }

  /// A depth given in mm, in this unit. An inch is 25.4 mm.
  public func convert(fromCanonical value: Double) -> Double {
    switch self {
    case .millimetres: value
    case .inches: value / 25.4
    }
  }
}

/// Pressure: hPa (= mbar), kPa, inches or millimetres of mercury.
public enum PressureUnit: String, MeasurementUnit {
  case hectopascals = "hPa"
  case kilopascals = "kPa"
  case inchesOfMercury = "inHg"
  case millimetresOfMercury = "mmHg"

  public static let parameter = "pressure_unit"

  public var label: String { rawValue }

  /// A pressure given in hPa, in this unit. 1 inHg is 3386.389 Pa and 1 mmHg
  /// 133.322387415 Pa (the conventional values, at 0 °C and standard gravity).
  public func convert(fromCanonical value: Double) -> Double {
    switch self {
    case .hectopascals: value
    case .kilopascals: value / 10
    case .inchesOfMercury: value * 100 / 3386.389
    case .millimetresOfMercury: value * 100 / 133.322387415
    }
  }
}

/// Visibility: metres, kilometres or miles.
public enum VisibilityUnit: String, MeasurementUnit {
  case metres = "m"
  case kilometres = "km"
  case miles = "mi"

  public static let parameter = "visibility_unit"

  public var label: String { rawValue }

  /// A distance given in m, in this unit. A mile is 1609.344 m.
  public func convert(fromCanonical value: Double) -> Double {
    switch self {
    case .metres: value
    case .kilometres: value / 1000
    case .miles: value / 1609.344
    }
  }
}

/// A share of a whole, such as humidity, cloud cover or a probability: percent, or the 0–1
/// fraction Dark Sky gives. No request parameter chooses it; an API's units do.
public enum ShareUnit: String, MeasurementUnit {
  case percent
  case fraction

  public static let parameter = "share_unit"

  public var label: String {
    switch self {
    case .percent: "%"
    case .fraction: "1"
    }
  }

  /// A share given in %, in this unit.
  public func convert(fromCanonical value: Double) -> Double {
    switch self {
    case .percent: value
    case .fraction: value / 100
    }
  }
}
