/// One of a closed set of unit options a client picks by name, such as `fahrenheit` for
/// `temperature_unit`.
///
/// The raw values are the names clients send; where Open-Meteo has a parameter for the
/// same choice, they are Open-Meteo's spellings, so that its clients work unchanged.
public protocol UnitChoice: CaseIterable, Sendable, Hashable, RawRepresentable where RawValue == String {
  /// The request parameter that carries this choice, e.g. `temperature_unit`; errors name it.
  static var parameter: String { get }
}

extension UnitChoice {
  /// The option called `text`. Case is ignored, so `hpa` and `HPA` both mean `hPa`.
  /// - Throws: `UnitError` naming the parameter and the value, and listing the allowed names.
  public init(parsing text: String) throws(UnitError) {
    if let exact = Self(rawValue: text) {
      self = exact
      return
    }
    let lowered = text.lowercased()
    guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else {
      throw UnitError(parameter: Self.parameter, value: text, allowed: Self.allCases.map(\.rawValue))
    }
    self = match
  }
}

/// A unit option that is not one of the allowed names.
public struct UnitError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The request parameter, e.g. `wind_speed_unit`.
  public let parameter: String
  /// The value as given.
  public let value: String
  /// Every name the parameter accepts.
  public let allowed: [String]

  public var description: String {
    "\(parameter): unknown unit \"\(value)\"; allowed: \(allowed.joined(separator: ", "))"
  }
}
