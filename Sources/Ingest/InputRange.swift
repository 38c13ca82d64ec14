/// The physically plausible values of one input field, in the unit ingest reads it in.
///
/// A value outside its range, or not finite, is no weather: a corrupted chunk, a wrong
/// unit, a model that blew up. Ingest treats it as missing in that cell and step
/// (`InputScreen`), so that no metric is computed from it. The bounds are wide: they hold
/// every value a healthy model run produces anywhere on Earth, so that they never fire on
/// good input, and they exclude what no atmosphere has. docs/inputs.md gives the reasons.
struct InputRange: Sendable {
  let lower: Double
  let upper: Double
  let unit: String

  init(_ lower: Double, _ upper: Double, _ unit: String) {
    self.lower = lower
    self.upper = upper
    self.unit = unit
  }

  /// Whether `value` is a value of this field: finite and within the bounds.
  @inline(__always)
  func contains(_ value: Double) -> Bool {
    value >= lower && value <= upper && value.isFinite
  }

  /// `lower…upper unit`, as warnings and errors show it.
  var text: String { "\(lower)…\(upper) \(unit)" }

  /// Mixing ratios may be slightly negative in model output: advection schemes that are
  /// not positive-definite leave round-off below zero, which the formulas floor at 0.
  static let roundOffMixingRatio = -1e-5

  /// Every input field ingest reads, under WRF's names (MM5 fields are translated to them
  /// by `MM5FieldSource`, so they share these bounds) and under the labels of the CF
  /// quantities (`CFQuantity.label`, in the units `CFUnit` converts to). One table, so that
  /// a field has one range whichever convention brings it.
  static let table: [String: InputRange] = [
    // WRF and MM5 surface fields.
    "T2": InputRange(150, 350, "K"),
    "Q2": InputRange(roundOffMixingRatio, 0.1, "kg/kg"),
    // Surface pressure: 20 kPa is below the summit of Everest (about 33 kPa), 110 kPa
    // above the highest sea-level pressure observed (108.4 kPa).
    "PSFC": InputRange(20_000, 110_000, "Pa"),
    "U10": InputRange(-150, 150, "m/s"),
    "V10": InputRange(-150, 150, "m/s"),
    "COSALPHA": InputRange(-1.0001, 1.0001, "1"),
    "SINALPHA": InputRange(-1.0001, 1.0001, "1"),
    // The Dead Sea shore is −430 m; no terrain reaches 9,000 m.
    "HGT": InputRange(-500, 9_000, "m"),
    "LANDMASK": InputRange(0, 1, "1"),
    "SWDOWN": InputRange(0, 1_500, "W/m²"),
    "PBLH": InputRange(0, 10_000, "m"),
    "SNOWH": InputRange(0, 10_000, "m"),
    // Accumulations since the run's start (mm): never below float round-off (a real WRF
    // nest holds −7.5e-9 mm), which the amounts floor at 0; a week's worst rain is a few
    // thousand millimetres. Bucket counts are whole buckets.
    "RAINC": InputRange(-accumulationRoundOff, 50_000, "mm"),
    "RAINNC": InputRange(-accumulationRoundOff, 50_000, "mm"),
    "RAINSH": InputRange(-accumulationRoundOff, 50_000, "mm"),
    "SNOWNC": InputRange(-accumulationRoundOff, 50_000, "mm"),
    "HAILNC": InputRange(-accumulationRoundOff, 50_000, "mm"),
    "I_RAINC": InputRange(0, 1_000_000, "buckets"),
    "I_RAINNC": InputRange(0, 1_000_000, "buckets"),
    // Model levels.
    "CLDFRA": InputRange(0, 1, "1"),
    "QVAPOR": InputRange(roundOffMixingRatio, 0.1, "kg/kg"),
    "QCLOUD": InputRange(roundOffMixingRatio, 0.02, "kg/kg"),
    "QRAIN": InputRange(roundOffMixingRatio, 0.02, "kg/kg"),
    "QICE": InputRange(roundOffMixingRatio, 0.02, "kg/kg"),
    "QSNOW": InputRange(roundOffMixingRatio, 0.02, "kg/kg"),
    // Perturbation pressure and base-state pressure; their sum is the level's pressure.
    "P": InputRange(-30_000, 30_000, "Pa"),
    "PB": InputRange(1, 110_000, "Pa"),
    // Perturbation potential temperature (θ − 300 K): θ runs from about 200 K at the
    // coldest surface to about 1,000 K at a 10 hPa model top.
    "T": InputRange(-150, 700, "K"),
    "U": InputRange(-150, 150, "m/s"),
    "V": InputRange(-150, 150, "m/s"),
    // Geopotential (m²/s²): a 1 hPa model top is about 48 km up.
    "PH": InputRange(-100_000, 100_000, "m²/s²"),
    "PHB": InputRange(-10_000, 600_000, "m²/s²"),
    // CF quantities, converted.
    "2 m air_temperature": InputRange(150 - 273.15, 350 - 273.15, "°C"),
    "2 m dew_point_temperature": InputRange(150 - 273.15, 350 - 273.15, "°C"),
    // Relative humidity may exceed 100 % slightly in model output (supersaturation).
    "2 m relative_humidity": InputRange(0, 110, "%"),
    "10 m eastward_wind": InputRange(-150, 150, "m/s"),
    "10 m northward_wind": InputRange(-150, 150, "m/s"),
    "air_pressure_at_mean_sea_level": InputRange(850, 1_100, "hPa"),
    "surface_air_pressure": InputRange(200, 1_100, "hPa"),
    "precipitation_amount": InputRange(-0.001, 2_000, "mm"),
    "precipitation_flux": InputRange(-0.001, 500, "mm/h"),
    "convective_precipitation_amount": InputRange(-0.001, 2_000, "mm"),
    "convective_precipitation_flux": InputRange(-0.001, 500, "mm/h"),
    "snowfall_amount": InputRange(-0.001, 2_000, "mm"),
    "snowfall_flux": InputRange(-0.001, 500, "mm/h"),
    "cloud_area_fraction": InputRange(0, 100, "%"),
    "low_type_cloud_area_fraction": InputRange(0, 100, "%"),
    "medium_type_cloud_area_fraction": InputRange(0, 100, "%"),
    "high_type_cloud_area_fraction": InputRange(0, 100, "%"),
    "surface_downwelling_shortwave_flux_in_air": InputRange(0, 1_500, "W/m²"),
    "visibility_in_air": InputRange(0, 1_000_000, "m"),
    "wind_speed_of_gust": InputRange(0, 200, "m/s"),
    // Snow on the ground: ice caps hold kilometres of it, which models cap (ECMWF at 10 m
    // of water); the bounds leave room for any model's cap.
    "surface_snow_thickness": InputRange(0, 10_000, "m"),
    "surface_snow_amount": InputRange(0, 1_000_000, "mm"),
    // Fresh snow is about 50 kg/m³; glacier ice about 917.
    "snow_density": InputRange(10, 1_000, "kg/m³"),
    // GRIB quantities with no CF counterpart.
    "2 m specific_humidity": InputRange(0, 0.1, "kg/kg"),
    // The most unstable air observed lifts to about −15 K; stable air to +40 K.
    "lifted_index": InputRange(-40, 60, "K"),
    "categorical_snow": InputRange(0, 1, "flag"),
    "categorical_rain": InputRange(0, 1, "flag"),
    "categorical_freezing_rain": InputRange(0, 1, "flag"),
    "categorical_ice_pellets": InputRange(0, 1, "flag"),
    // The largest CAPE soundings measure about 8,000 J/kg.
    "convective_available_potential_energy": InputRange(0, 15_000, "J/kg"),
  ]

  /// An accumulation may fall between steps by float round-off, not more (mm): a
  /// float32 accumulation of 50,000 mm has a spacing of 0.004 mm. A larger fall is a
  /// corrupted or restarted field, and the hour's amount there is unknown. A bucket
  /// reset (BUCKET_MM) never shows as a fall: the bucket count rises with it.
  static let accumulationRoundOff = 0.01
}
