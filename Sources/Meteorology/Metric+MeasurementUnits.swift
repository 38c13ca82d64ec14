extension Metric {
  /// The units a value of this metric may be written in, its canonical unit first (the
  /// choices `UnitSystem` offers for its quantity); empty for metrics whose unit has no
  /// choice (degrees, W/m², cm, codes). An operator's threshold given in any of these is
  /// compared through the unit's own `convert(fromCanonical:)`, so that no second factor
  /// exists anywhere.
  public var measurementUnits: [any MeasurementUnit] {
    switch quantity {
    case .temperature: TemperatureUnit.allCases
    case .windSpeed: WindSpeedUnit.allCases
    case .precipitation: PrecipitationUnit.allCases
    case .pressure: PressureUnit.allCases
    case .visibility: VisibilityUnit.allCases
    case .share: ShareUnit.allCases
    case nil: []
    }
  }
}
