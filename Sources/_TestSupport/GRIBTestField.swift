import CEcCodes
import UTCTime

/// One field for `GRIBWriter`: the parameter, its level, the run it belongs to, its step
/// and its values in the message's order (the order `GRIBWriter.coordinates` gives).
public struct GRIBTestField: Sendable {
  /// `discipline`, `parameterCategory`, `parameterNumber` (WMO code table 4.2).
  public var parameter: (discipline: Int, category: Int, number: Int)
  /// `typeOfLevel` (`heightAboveGround`, `surface`, `meanSea` …) and `level`.
  public var typeOfLevel: String
  public var level: Int
  /// The run's reference time (`dataDate`/`dataTime`), UTC seconds since 1970.
  public var reference: Int64
  /// When the field is valid, in hours after the reference time.
  public var step: Step
  /// The values, one per grid point.
  public var values: [Double]
  /// How the values are packed.
  public var packing: Packing = .ieee
  /// The originating centre: NCEP's (`kwbc`) unless a test says otherwise, as GFS, NAM,
  /// HRRR and UPP write; nil keeps the sample's (`ecmf`). ecCodes names a parameter, and
  /// gives its units, from the centre's tables: its `ecmf` and `edzw` tables have no name
  /// for WMO's 0/1/8 (total precipitation), `kwbc`'s call it `tp` in kg m⁻².
  public var centre: String? = "kwbc"

  /// A field's time: an instant, or a statistic over a window (product definition template
  /// 4.8 with `typeOfStatisticalProcessing`).
  public enum Step: Sendable, Equatable {
    /// Valid at `hours` (template 4.0).
    case instant(hours: Int)
    /// Accumulated from `from` to `to` hours (statistical process 1).
    case accumulation(from: Int, to: Int)
    /// Averaged from `from` to `to` hours (statistical process 0), as GFS writes rates.
    case average(from: Int, to: Int)
  }

  /// How `GRIBWriter` packs values.
  public enum Packing: Sendable, Equatable {
    /// 32-bit IEEE floats (`grid_ieee`): a value reads back as `Float(value)`.
    case ieee
    /// Simple packing with `bits` bits per value (`grid_simple`), as most producers write.
    case simple(bits: Int)
    /// Complex packing with second-order spatial differencing and `bits` bits per value
    /// (`grid_complex_spatial_differencing`), as GFS, NAM and HRRR write.
    case complex(bits: Int)
  }

  public init(
    parameter: (discipline: Int, category: Int, number: Int), typeOfLevel: String, level: Int, reference: Int64,
    step: Step, values: [Double], packing: Packing = .ieee, centre: String? = "kwbc"
  ) {
    self.parameter = parameter
    self.typeOfLevel = typeOfLevel
    self.level = level
    self.reference = reference
    self.step = step
    self.values = values
    self.packing = packing
    self.centre = centre
  }

  /// 2 m temperature (0/0/0, K).
  public static func temperature(reference: Int64, hours: Int, values: [Double]) -> GRIBTestField {
    GRIBTestField(
      parameter: (0, 0, 0), typeOfLevel: "heightAboveGround", level: 2, reference: reference,
      step: .instant(hours: hours), values: values)
  }

  /// 10 m wind's u (0/2/2) or v (0/2/3) component, m/s.
  public static func wind(_ component: Character, reference: Int64, hours: Int, values: [Double]) -> GRIBTestField {
    GRIBTestField(
      parameter: (0, 2, component == "u" ? 2 : 3), typeOfLevel: "heightAboveGround", level: 10,
      reference: reference, step: .instant(hours: hours), values: values)
  }

  /// Mean-sea-level pressure (0/3/1, Pa).
  public static func seaLevelPressure(reference: Int64, hours: Int, values: [Double]) -> GRIBTestField {
    GRIBTestField(
      parameter: (0, 3, 1), typeOfLevel: "meanSea", level: 0, reference: reference, step: .instant(hours: hours),
      values: values)
  }

  /// Total precipitation (0/1/8, kg m⁻² = mm) accumulated over `from`…`to` hours.
  public static func precipitation(reference: Int64, from: Int, to: Int, values: [Double]) -> GRIBTestField {
    GRIBTestField(
      parameter: (0, 1, 8), typeOfLevel: "surface", level: 0, reference: reference,
      step: .accumulation(from: from, to: to), values: values)
  }

  /// Precipitation rate (0/1/7, kg m⁻² s⁻¹) averaged over `from`…`to` hours.
  public static func precipitationRate(reference: Int64, from: Int, to: Int, values: [Double]) -> GRIBTestField {
    GRIBTestField(
      parameter: (0, 1, 7), typeOfLevel: "surface", level: 0, reference: reference,
      step: .average(from: from, to: to), values: values)
  }

  /// Sets the product's keys (everything but the grid and the values) on `handle`.
  func apply(to handle: OpaquePointer) throws(GRIBWriterError) {
    let template: Int
    switch step {
    case .instant: template = 0
    case .accumulation, .average: template = 8
    }
    let seconds = Int(reference)
    let secondsOfDay = ((seconds % 86_400) + 86_400) % 86_400
    let (year, month, day) = UTC.civil(fromDays: (seconds - secondsOfDay) / 86_400)
    let date = year * 10_000 + month * 100 + day
    let hhmm = secondsOfDay / 3600 * 100 + secondsOfDay % 3600 / 60
    var keys: [(String, GRIBKeyValue)] = centre.map { [("centre", .text($0))] } ?? []
    keys += [
      ("productDefinitionTemplateNumber", .integer(template)),
      ("discipline", .integer(parameter.discipline)),
      ("parameterCategory", .integer(parameter.category)), ("parameterNumber", .integer(parameter.number)),
      ("typeOfLevel", .text(typeOfLevel)), ("level", .integer(level)),
      ("dataDate", .integer(date)), ("dataTime", .integer(hhmm)),
      ("stepUnits", .integer(1)),
    ]
    switch step {
    case .instant(let hours): keys.append(("forecastTime", .integer(hours)))
    case .accumulation(let from, let to), .average(let from, let to):
      let process = if case .accumulation = step { 1 } else { 0 }
      keys += [
        ("typeOfStatisticalProcessing", .integer(process)), ("startStep", .integer(from)), ("endStep", .integer(to)),
      ]
    }
    switch packing {
    case .ieee: keys += [("packingType", .text("grid_ieee")), ("precision", .integer(1))]
    case .simple(let bits): keys += [("packingType", .text("grid_simple")), ("bitsPerValue", .integer(bits))]
    case .complex(let bits):
      // Simple first: ecCodes repacks as complex once the values are set (`GRIBWriter`).
      keys += [("packingType", .text("grid_simple")), ("bitsPerValue", .integer(bits))]
    }
    for (key, value) in keys { try GRIBWriter.set(key, value, handle) }
  }
}
