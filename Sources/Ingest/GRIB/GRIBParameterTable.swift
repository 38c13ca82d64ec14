import GRIB
import Meteorology

/// The one table from GRIB parameters to the quantities nwpcube derives metrics from
/// (`QuantityDerivation`'s keys), documented in docs/inputs.md.
///
/// A message matches a row when its level type and level are the row's (a row without
/// them takes any), and either its edition 2 parameter is one of the row's WMO parameters
/// (`discipline/category/number` with category and number below 192, the numbers every
/// centre shares) or its ecCodes `shortName` is one of the row's. Numbers from 192 up are
/// each centre's own (NCEP's 0/1/192 is `crain`, ECMWF's 0/1/193 is `tp`), so those are
/// matched by the `shortName` ecCodes gives them for the message's centre; edition 1 has
/// shortNames only. Units come from ecCodes' `units` key (`GRIBUnit`), so ECMWF's `tp` in
/// metres and NCEP's in kg m⁻² both arrive in millimetres.
///
/// A quantity's rows are in order of preference: the first row with a message anywhere in
/// the run supplies the quantity for every step.
struct GRIBParameterTable {
  /// One row: a parameter at a level, and the quantity it supplies.
  struct Row: Sendable, CustomStringConvertible {
    /// The quantity key (`QuantityDerivation`, or `orog`/`lsm` for terrain).
    let key: String
    let parameters: [GRIBParameter]
    let shortNames: [String]
    let typeOfLevel: String?
    let level: Double?
    /// The unit the quantity is handed over in: of an instant, or of an accumulation
    /// (`amount`) and of a rate or an average (`rate`) for a windowed quantity.
    let unit: GRIBUnit
    let rateUnit: GRIBUnit?
    /// Whether the row's parameters match even where their numbers are a centre's own
    /// (192 and up): an operator's `--map` entry names the centre's numbers knowingly.
    var local = false

    /// Whether the quantity is accumulated or averaged over windows (precipitation,
    /// radiation), rather than a value at an instant.
    var isWindowed: Bool { rateUnit != nil }

    /// "2t / 0/0/0 heightAboveGround 2", as warnings name what was looked for.
    var description: String {
      let names = (shortNames + parameters.map(\.description)).joined(separator: " or ")
      let place = [typeOfLevel, level.map { Self.levelText($0) }].compactMap { $0 }.joined(separator: " ")
      return place.isEmpty ? names : "\(names) \(place)"
    }

    /// Whether `message` is this row's parameter at this row's level.
    func matches(_ message: GRIBMessage) -> Bool {
      if let typeOfLevel, message.typeOfLevel != typeOfLevel { return false }
      if let level, message.level != level { return false }
      if let parameter = message.parameter, local || (parameter.category < 192 && parameter.number < 192),
        parameters.contains(parameter)
      {
        return true
      }
      return shortNames.contains(message.shortName)
    }

    static func levelText(_ level: Double) -> String {
      level == level.rounded() && abs(level) < 1e15 ? String(Int64(level)) : String(level)
    }
  }

  /// The rows, by quantity in order of preference.
  static let rows: [Row] = [
    row("t", ["2t"], [(0, 0, 0)], "heightAboveGround", 2, .celsius),
    row("td", ["2d"], [(0, 0, 6)], "heightAboveGround", 2, .celsius),
    row("rh", ["2r"], [(0, 1, 1)], "heightAboveGround", 2, .percent),
    row("q", ["2sh"], [(0, 1, 0)], "heightAboveGround", 2, .kilogramsPerKilogram),
    row("u", ["10u"], [(0, 2, 2)], "heightAboveGround", 10, .metresPerSecond),
    row("v", ["10v"], [(0, 2, 3)], "heightAboveGround", 10, .metresPerSecond),
    // Edition 1 (ECMWF) writes its 2 m and 10 m fields at the surface level type: their
    // shortNames alone say the height.
    row("t", ["2t"], [], nil, nil, .celsius),
    row("td", ["2d"], [], nil, nil, .celsius),
    row("u", ["10u"], [], nil, nil, .metresPerSecond),
    row("v", ["10v"], [], nil, nil, .metresPerSecond),
    // NCEP's pressure reduced to sea level, else ECMWF's msl (pressure at meanSea), else
    // NCEP's Eta-model reduction.
    row("msl", ["prmsl"], [(0, 3, 1)], "meanSea", nil, .hectopascal),
    row("msl", ["msl"], [(0, 3, 0)], "meanSea", nil, .hectopascal),
    row("msl", ["mslet"], [], "meanSea", nil, .hectopascal),
    row("sp", ["sp"], [(0, 3, 0)], "surface", nil, .hectopascal),
    row(
      "pr", ["tp", "prate"], [(0, 1, 8), (0, 1, 52), (0, 1, 7)], "surface", nil, .millimetres, .millimetresPerSecond),
    row(
      "cpr", ["acpcp", "cp", "cprat"], [(0, 1, 10), (0, 1, 37)], "surface", nil, .millimetres, .millimetresPerSecond),
    row("sfr", ["sf", "tsrwe"], [(0, 1, 53)], "surface", nil, .millimetres, .millimetresPerSecond),
    // NCEP's total cloud is over the atmosphere as a single layer (level type 10).
    row("cloud", ["tcc"], [(0, 6, 1)], "atmosphere", nil, .percent),
    row("cloud", ["tcc"], [(0, 6, 1)], "entireAtmosphere", nil, .percent),
    // ECMWF writes its total cloud at the surface level type.
    row("cloud", ["tcc"], [], nil, nil, .percent),
    row("lcc", ["lcc"], [(0, 6, 1)], "lowCloudLayer", nil, .percent),
    row("lcc", ["lcc"], [], nil, nil, .percent),
    row("mcc", ["mcc"], [(0, 6, 1)], "middleCloudLayer", nil, .percent),
    row("mcc", ["mcc"], [], nil, nil, .percent),
    row("hcc", ["hcc"], [(0, 6, 1)], "highCloudLayer", nil, .percent),
    row("hcc", ["hcc"], [], nil, nil, .percent),
    row("sw", ["dswrf", "ssrd"], [(0, 4, 7)], "surface", nil, .joulesPerSquareMetre, .wattsPerSquareMetre),
    row("vis", ["vis"], [(0, 19, 0)], "surface", nil, .metres),
    row("gust", ["gust"], [(0, 2, 22)], "surface", nil, .metresPerSecond),
    row("gust", ["10fg", "i10fg", "fg10"], [(0, 2, 22)], "heightAboveGround", 10, .metresPerSecond),
    // The best (four-layer) lifted index, else the surface one.
    row("li", ["4lftx"], [(0, 7, 11)], nil, nil, .kelvin),
    row("li", ["lftx"], [(0, 7, 10)], nil, nil, .kelvin),
    // CAPE at the surface (a surface-based parcel, as NCEP and ECMWF write it), else at
    // any level NCEP writes (its mixed layers above ground): the instability input where
    // the run has no lifted index.
    row("cape", ["cape"], [(0, 7, 6)], "surface", nil, .joulesPerKilogram),
    row("cape", ["cape", "mucape"], [(0, 7, 6)], nil, nil, .joulesPerKilogram),
    // The categorical precipitation types: NCEP's local numbers (0/1/192–195, matched by
    // shortName) and WMO's (0/1/33–36).
    row("crain", ["crain"], [(0, 1, 33)], "surface", nil, .flag),
    row("cfrzr", ["cfrzr"], [(0, 1, 34)], "surface", nil, .flag),
    row("cicep", ["cicep"], [(0, 1, 35)], "surface", nil, .flag),
    row("csnow", ["csnow"], [(0, 1, 36)], "surface", nil, .flag),
    // Snow on the ground: its depth (NCEP's snod, 0/1/11), else its water equivalent (WMO's
    // 0/1/60, NCEP's weasd 0/1/13, ECMWF's sd in metres of water) with the snow density
    // (rsn, 0/1/61) where the run has it.
    row("sde", ["sde", "snod"], [(0, 1, 11)], "surface", nil, .metres),
    row("sdwe", ["sdwe", "sd", "weasd"], [(0, 1, 60), (0, 1, 13)], "surface", nil, .millimetres),
    row("rsn", ["rsn"], [(0, 1, 61)], "surface", nil, .kilogramsPerCubicMetre),
    row("orog", ["orog", "hsurf"], [(0, 3, 5)], "surface", nil, .metres),
    row("orog", ["z"], [(0, 3, 4)], "surface", nil, .metres),
    row("lsm", ["lsm", "land"], [(2, 0, 0)], "surface", nil, .fraction),
  ]

  /// The units of WMO code table 4.2 for the WMO parameters the rows name, spelt as ecCodes
  /// spells units: what a message of one of them is in when ecCodes has no units for it
  /// under its centre. ECMWF's and DWD's tables leave 0/1/8 "unknown", yet a number below
  /// 192 is the WMO's parameter, in the WMO's unit, whichever centre wrote it.
  static let wmoUnits: [GRIBParameter: String] = [
    GRIBParameter(discipline: 0, category: 0, number: 0): "K",
    GRIBParameter(discipline: 0, category: 0, number: 6): "K",
    GRIBParameter(discipline: 0, category: 1, number: 0): "kg kg**-1",
    GRIBParameter(discipline: 0, category: 1, number: 1): "%",
    GRIBParameter(discipline: 0, category: 1, number: 7): "kg m**-2 s**-1",
    GRIBParameter(discipline: 0, category: 1, number: 8): "kg m**-2",
    GRIBParameter(discipline: 0, category: 1, number: 10): "kg m**-2",
    GRIBParameter(discipline: 0, category: 1, number: 11): "m",
    GRIBParameter(discipline: 0, category: 1, number: 13): "kg m**-2",
    GRIBParameter(discipline: 0, category: 1, number: 60): "kg m**-2",
    GRIBParameter(discipline: 0, category: 1, number: 61): "kg m**-3",
    GRIBParameter(discipline: 0, category: 1, number: 37): "kg m**-2 s**-1",
    GRIBParameter(discipline: 0, category: 1, number: 52): "kg m**-2 s**-1",
    GRIBParameter(discipline: 0, category: 1, number: 53): "kg m**-2 s**-1",
    GRIBParameter(discipline: 0, category: 1, number: 33): "Code table 4.222",
    GRIBParameter(discipline: 0, category: 1, number: 34): "Code table 4.222",
    GRIBParameter(discipline: 0, category: 1, number: 35): "Code table 4.222",
    GRIBParameter(discipline: 0, category: 1, number: 36): "Code table 4.222",
    GRIBParameter(discipline: 0, category: 2, number: 2): "m s**-1",
    GRIBParameter(discipline: 0, category: 2, number: 3): "m s**-1",
    GRIBParameter(discipline: 0, category: 2, number: 22): "m s**-1",
    GRIBParameter(discipline: 0, category: 3, number: 0): "Pa",
    GRIBParameter(discipline: 0, category: 3, number: 1): "Pa",
    GRIBParameter(discipline: 0, category: 3, number: 4): "m**2 s**-2",
    GRIBParameter(discipline: 0, category: 3, number: 5): "gpm",
    GRIBParameter(discipline: 0, category: 4, number: 7): "W m**-2",
    GRIBParameter(discipline: 0, category: 6, number: 1): "%",
    GRIBParameter(discipline: 0, category: 7, number: 6): "J kg**-1",
    GRIBParameter(discipline: 0, category: 7, number: 10): "K",
    GRIBParameter(discipline: 0, category: 7, number: 11): "K",
    GRIBParameter(discipline: 0, category: 19, number: 0): "m",
    GRIBParameter(discipline: 2, category: 0, number: 0): "Proportion",
  ]

  /// The quantity keys that are terrain, read once rather than at every step.
  static let terrainKeys: Set<String> = ["orog", "lsm"]

  /// What a metric's missing input is called in a warning: the catalogue's GRIB inputs.
  static let missing = Metric.inputs(in: .grib)

  /// The wind's missing inputs.
  static let wind = Metric.windU.inputs(in: .grib) ?? "10u/10v"

  /// The quantity label `InputRange.table` screens each key's values with.
  static let labels: [String: String] = [
    "t": "2 m air_temperature", "td": "2 m dew_point_temperature", "rh": "2 m relative_humidity",
    "q": "2 m specific_humidity", "u": "10 m eastward_wind", "v": "10 m northward_wind",
    "msl": "air_pressure_at_mean_sea_level", "sp": "surface_air_pressure", "pr": "precipitation_flux",
    "cpr": "convective_precipitation_flux", "sfr": "snowfall_flux", "cloud": "cloud_area_fraction",
    "lcc": "low_type_cloud_area_fraction", "mcc": "medium_type_cloud_area_fraction",
    "hcc": "high_type_cloud_area_fraction", "sw": "surface_downwelling_shortwave_flux_in_air",
    "vis": "visibility_in_air", "gust": "wind_speed_of_gust", "li": "lifted_index", "csnow": "categorical_snow",
    "crain": "categorical_rain", "cfrzr": "categorical_freezing_rain", "cicep": "categorical_ice_pellets",
    "cape": "convective_available_potential_energy", "sde": "surface_snow_thickness", "sdwe": "surface_snow_amount",
    "rsn": "snow_density",
  ]

  /// The row an operator's `--map` entry names: `shortName`, or
  /// `discipline/category/number`, each optionally followed by `:typeOfLevel` and
  /// `:level`; nil when the text is none of these.
  static func mapped(_ text: String, key: String, unit: GRIBUnit, rateUnit: GRIBUnit?) -> Row? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard (1...3).contains(parts.count), !parts[0].isEmpty else { return nil }
    var level: Double?
    if parts.count == 3 {
      guard let value = Double(parts[2]), value.isFinite else { return nil }
      level = value
    }
    let typeOfLevel = parts.count >= 2 && !parts[1].isEmpty ? parts[1] : nil
    let codes = parts[0].split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
    // A slash says codes: three whole numbers, or nothing.
    guard codes.count == 1 || codes.count == 3 else { return nil }
    if codes.count == 3 {
      guard let d = codes[0], let c = codes[1], let n = codes[2] else { return nil }
      let parameter = GRIBParameter(discipline: d, category: c, number: n)
      return Row(
        key: key, parameters: [parameter], shortNames: [], typeOfLevel: typeOfLevel, level: level, unit: unit,
        rateUnit: rateUnit, local: c >= 192 || n >= 192)
    }
    return Row(
      key: key, parameters: [], shortNames: [parts[0]], typeOfLevel: typeOfLevel, level: level, unit: unit,
      rateUnit: rateUnit)
  }

  private static func row(
    _ key: String, _ shortNames: [String], _ parameters: [(Int, Int, Int)], _ typeOfLevel: String?, _ level: Double?,
    _ unit: GRIBUnit, _ rateUnit: GRIBUnit? = nil
  ) -> Row {
    Row(
      key: key, parameters: parameters.map { GRIBParameter(discipline: $0.0, category: $0.1, number: $0.2) },
      shortNames: shortNames, typeOfLevel: typeOfLevel, level: level, unit: unit, rateUnit: rateUnit)
  }
}
