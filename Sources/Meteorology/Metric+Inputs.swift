/// What each metric is derived from in each input convention: the one table ingest
/// warnings ("no temp: 2t (0/0/0 heightAboveGround 2) not found in FILE") and query-time
/// absence reasons quote.
extension Metric {
  /// The inputs this metric is derived from in `convention`'s output, in its own names
  /// (WRF variables, which MM5 input is translated to; CF standard names; GRIB parameters);
  /// nil where nwpcube never derives it from that convention.
  public func inputs(in convention: InputConvention) -> String? {
    switch convention {
    case .wrf, .mm5: inputs
    case .cf: Self.cfInputs[self]
    case .grib: Self.gribInputs[self]
    }
  }

  /// Every metric's inputs in `convention`'s output, for the metrics it gives.
  public static func inputs(in convention: InputConvention) -> [Metric: String] {
    Dictionary(
      uniqueKeysWithValues: allCases.compactMap { metric in metric.inputs(in: convention).map { (metric, $0) } })
  }

  /// Why a cube derived from `convention` that lacks every metric of `absent` lacks this
  /// one; `convention` nil for a cube that does not record it (written before cubes did).
  public func absenceReason(amongAbsent absent: [Metric], convention: InputConvention?) -> String {
    guard let convention else {
      // Older cubes predate snow_depth: its absence says nothing about their input.
      guard self == .snowDepth else { return absenceReason(amongAbsent: absent) }
      let everywhere = InputConvention.allCases.filter { $0 != .mm5 }.compactMap { convention in
        inputs(in: convention).map { "\(Self.trimmed($0)) in \(convention.name) output" }
      }
      return
        "not in this cube: it was written before nwpcube derived \(name), or from output without its inputs (\(everywhere.joined(separator: "; "))); ingesting the run again derives it where they exist"
    }
    if (self == .precipitationNeighbourhood || self == .precipitationProbability), !absent.contains(.rain) {
      return absenceReason(amongAbsent: absent)
    }
    guard let inputs = inputs(in: convention) else {
      return "not in this cube: nwpcube derives \(name) from WRF and MM5 output only, not from \(convention.name) input"
    }
    return
      "not in this cube: derived from \(Self.trimmed(inputs)), which the \(convention.name) input lacked (the ingest warning named the missing ones)"
  }

  /// An inputs text without the comma that ends it in a warning's "…, not found in FILE".
  private static func trimmed(_ text: String) -> String {
    text.hasSuffix(",") ? String(text.dropLast()) : text
  }

  /// The GRIB parameters of the parameter table (docs/inputs.md) each metric is derived
  /// from: `shortName (discipline/category/number typeOfLevel level)`.
  static let gribInputs: [Metric: String] = {
    let wind = "10u/10v (0/2/2 and 0/2/3 heightAboveGround 10)"
    let rain = "tp or prate (0/1/8, 0/1/52 or 0/1/7 surface)"
    return [
      .temp: "2t (0/0/0 heightAboveGround 2)",
      .hum: "2r (0/1/1 heightAboveGround 2), or 2t with 2d (0/0/6) or with 2sh (0/1/0) and sp,",
      .dewPoint: "2d (0/0/6 heightAboveGround 2), or 2sh (0/1/0) and sp, or 2t and 2r (0/1/1),",
      .rain: rain,
      .cloud: "tcc (0/6/1 atmosphere or entireAtmosphere)",
      .windVel: wind, .windDir: wind, .windU: wind, .windV: wind,
      .atmPress: "prmsl or msl (0/3/1 or 0/3/0 meanSea)",
      .sfcPress: "sp (0/3/0 surface)",
      .shortwave: "dswrf or ssrd (0/4/7 surface)",
      .apparentTemp: "2 m temperature, humidity and 10 m wind",
      .visibility: "vis (0/19/0 surface)",
      .weatherCode: "precipitation and 2 m temperature",
      .showers: "acpcp, cp or cprat (0/1/10 or 0/1/37 surface)",
      .snowfall: "sf or tsrwe (0/1/53 surface)",
      .cloudLow: "lcc (0/6/1 lowCloudLayer)",
      .cloudMid: "mcc (0/6/1 middleCloudLayer)",
      .cloudHigh: "hcc (0/6/1 highCloudLayer)",
      .windGusts: "gust (0/2/22 surface) or 10fg/i10fg (0/2/22 heightAboveGround 10)",
      .snowDepth: "sde (0/1/11 surface), or sd/sdwe (0/1/60 or 0/1/13 surface),",
      .precipitationNeighbourhood: rain, .precipitationProbability: rain,
    ]
  }()

  /// The CF quantities each metric is derived from, by standard name (with the short
  /// names ERA5 and GFS converters write).
  static let cfInputs: [Metric: String] = {
    let wind = "10 m eastward_wind and northward_wind (u10/v10, …)"
    let rain = "precipitation_flux (or an hourly precipitation_amount)"
    return [
      .temp: "2 m air_temperature (t2m, TMP_2maboveground, …)",
      .hum: "2 m relative_humidity, or temperature and dew point,",
      .dewPoint: "2 m dew_point_temperature (d2m, …), or temperature and relative humidity,",
      .rain: rain,
      .cloud: "cloud_area_fraction (tcc, …)",
      .windVel: wind, .windDir: wind, .windU: wind, .windV: wind,
      .atmPress: "air_pressure_at_mean_sea_level (msl, PRMSL_meansealevel, …)",
      .sfcPress: "surface_air_pressure (sp, …)",
      .shortwave: "surface_downwelling_shortwave_flux_in_air",
      .apparentTemp: "2 m temperature, humidity (or dew point) and 10 m wind",
      .visibility: "visibility_in_air (VIS_surface, vis, …)",
      .showers: "convective_precipitation_flux (or an hourly convective_precipitation_amount)",
      .snowfall: "snowfall_flux (or an hourly snowfall_amount)",
      .cloudLow: "low_type_cloud_area_fraction (lcc, LCDC_lowcloudlayer, …)",
      .cloudMid: "medium_type_cloud_area_fraction (mcc, MCDC_middlecloudlayer, …)",
      .cloudHigh: "high_type_cloud_area_fraction (hcc, HCDC_highcloudlayer, …)",
      .windGusts: "wind_speed_of_gust (GUST_surface, i10fg, …)",
      .weatherCode: "precipitation and 2 m temperature",
      .snowDepth: "surface_snow_thickness (sde, …), or surface_snow_amount (sd, …),",
      .precipitationNeighbourhood: rain, .precipitationProbability: rain,
    ]
  }()
}
