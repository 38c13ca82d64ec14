import NetCDF

/// One input quantity of the CF convention and how to find it: by `standard_name` (at a
/// height above ground where that matters), else by the short names ECMWF/ERA5 files and
/// GFS-to-NetCDF converters write.
struct CFQuantity {
  let label: String
  let standardNames: [String]
  /// Metres above ground the quantity is defined at (2 m temperature, 10 m wind).
  let height: Double?
  let aliases: [String]
  let unit: CFUnit

  /// Terrain height: surface altitude or orography, in metres.
  static let orography = CFQuantity(
    label: "surface_altitude", standardNames: ["surface_altitude"], height: nil, aliases: ["orog"], unit: .metres)
  /// Terrain as surface geopotential (ERA5's `z`), divided by standard gravity for metres.
  static let surfaceGeopotential = CFQuantity(
    label: "surface_geopotential", standardNames: ["surface_geopotential"], height: nil, aliases: ["z"],
    unit: .geopotential)
  /// Land fraction: land where it is at least 0.5.
  static let landSeaMask = CFQuantity(
    label: "land_binary_mask", standardNames: ["land_binary_mask", "land_area_fraction"], height: nil,
    aliases: ["lsm", "LAND_surface"], unit: .fraction)

  static let temperature = CFQuantity(
    label: "2 m air_temperature", standardNames: ["air_temperature"], height: 2,
    aliases: [
      "t2m", "2t", "T2M", "TMP_2maboveground", "Temperature_height_above_ground", "tas",
    ], unit: .celsius)
  static let dewPoint = CFQuantity(
    label: "2 m dew_point_temperature", standardNames: ["dew_point_temperature"], height: 2,
    aliases: ["d2m", "2d", "D2M", "DPT_2maboveground", "Dewpoint_temperature_height_above_ground", "tdps"],
    unit: .celsius)
  static let humidity = CFQuantity(
    label: "2 m relative_humidity", standardNames: ["relative_humidity"], height: 2,
    aliases: ["r2", "RH_2maboveground", "Relative_humidity_height_above_ground", "hurs"], unit: .percent)
  static let eastward = CFQuantity(
    label: "10 m eastward_wind", standardNames: ["eastward_wind"], height: 10,
    aliases: ["u10", "10u", "U10M", "UGRD_10maboveground", "u-component_of_wind_height_above_ground", "uas"],
    unit: .metresPerSecond)
  static let northward = CFQuantity(
    label: "10 m northward_wind", standardNames: ["northward_wind"], height: 10,
    aliases: ["v10", "10v", "V10M", "VGRD_10maboveground", "v-component_of_wind_height_above_ground", "vas"],
    unit: .metresPerSecond)
  static let seaLevelPressure = CFQuantity(
    label: "air_pressure_at_mean_sea_level",
    standardNames: ["air_pressure_at_mean_sea_level", "air_pressure_at_sea_level"], height: nil,
    aliases: ["msl", "MSL", "PRMSL_meansealevel", "Pressure_reduced_to_MSL_msl", "MSLET_meansealevel", "psl", "slp"],
    unit: .hectopascal)
  static let surfacePressure = CFQuantity(
    label: "surface_air_pressure", standardNames: ["surface_air_pressure"], height: nil,
    aliases: ["sp", "PRES_surface", "Pressure_surface", "ps"], unit: .hectopascal)
  static let precipitationAmount = CFQuantity(
    label: "precipitation_amount",
    standardNames: ["precipitation_amount", "lwe_thickness_of_precipitation_amount"], height: nil,
    aliases: ["tp", "APCP_surface"], unit: .millimetres)
  static let precipitationFlux = CFQuantity(
    label: "precipitation_flux", standardNames: ["precipitation_flux"], height: nil,
    aliases: ["pr", "PRATE_surface", "Precipitation_rate_surface"], unit: .millimetresPerHour)
  static let cloud = CFQuantity(
    label: "cloud_area_fraction", standardNames: ["cloud_area_fraction"], height: nil,
    aliases: ["tcc", "TCDC_entireatmosphere", "Total_cloud_cover_entire_atmosphere", "clt"], unit: .percent)
  static let shortwave = CFQuantity(
    label: "surface_downwelling_shortwave_flux_in_air", standardNames: ["surface_downwelling_shortwave_flux_in_air"],
    height: nil, aliases: ["DSWRF_surface", "rsds", "Downward_Short-Wave_Radiation_Flux_surface"],
    unit: .wattsPerSquareMetre)
  static let visibility = CFQuantity(
    label: "visibility_in_air", standardNames: ["visibility_in_air"], height: nil,
    aliases: ["VIS_surface", "VIS", "vis", "Visibility_surface"], unit: .metres)
  static let gust = CFQuantity(
    label: "wind_speed_of_gust", standardNames: ["wind_speed_of_gust"], height: nil,
    aliases: ["GUST_surface", "GUST", "i10fg", "fg10", "10fg", "Wind_speed_gust_surface"], unit: .metresPerSecond)
  static let convectiveFlux = CFQuantity(
    label: "convective_precipitation_flux", standardNames: ["convective_precipitation_flux"], height: nil,
    aliases: ["CPRAT_surface", "Convective_precipitation_rate_surface", "prc"], unit: .millimetresPerHour)
  static let convectiveAmount = CFQuantity(
    label: "convective_precipitation_amount",
    standardNames: ["convective_precipitation_amount", "lwe_thickness_of_convective_precipitation_amount"],
    height: nil, aliases: ["cp", "ACPCP_surface", "Convective_precipitation_surface"], unit: .millimetres)
  static let snowfallFlux = CFQuantity(
    label: "snowfall_flux", standardNames: ["snowfall_flux"], height: nil, aliases: ["prsn"],
    unit: .millimetresPerHour)
  static let snowfallAmount = CFQuantity(
    label: "snowfall_amount", standardNames: ["snowfall_amount", "lwe_thickness_of_snowfall_amount"], height: nil,
    aliases: ["sf"], unit: .millimetres)
  static let snowThickness = CFQuantity(
    label: "surface_snow_thickness", standardNames: ["surface_snow_thickness"], height: nil,
    aliases: ["sde", "snod", "SNOD_surface", "Snow_depth_surface", "snd"], unit: .metres)
  static let snowAmount = CFQuantity(
    label: "surface_snow_amount",
    standardNames: ["surface_snow_amount", "lwe_thickness_of_surface_snow_amount"], height: nil,
    aliases: ["sd", "WEASD_surface", "Water_equivalent_of_accumulated_snow_depth_surface", "snw"],
    unit: .millimetres)
  static let snowDensity = CFQuantity(
    label: "snow_density", standardNames: ["snow_density"], height: nil, aliases: ["rsn"],
    unit: .kilogramsPerCubicMetre)
  static let lowCloud = CFQuantity(
    label: "low_type_cloud_area_fraction", standardNames: ["low_type_cloud_area_fraction"], height: nil,
    aliases: ["lcc", "LCDC_lowcloudlayer", "Low_cloud_cover_low_cloud"], unit: .percent)
  static let midCloud = CFQuantity(
    label: "medium_type_cloud_area_fraction", standardNames: ["medium_type_cloud_area_fraction"], height: nil,
    aliases: ["mcc", "MCDC_middlecloudlayer", "Medium_cloud_cover_middle_cloud"], unit: .percent)
  static let highCloud = CFQuantity(
    label: "high_type_cloud_area_fraction", standardNames: ["high_type_cloud_area_fraction"], height: nil,
    aliases: ["hcc", "HCDC_highcloudlayer", "High_cloud_cover_high_cloud"], unit: .percent)
}

/// A quantity found in a file: which variable, which vertical level, how to convert it.
struct CFField {
  let variable: String
  /// Index along the variable's vertical dimension, if it has one.
  let level: Int?
  /// From the file's unit to the stored one.
  let conversion: CFConversion

  /// Finds `quantity` in `file` on `grid`; nil when the file does not have it. A variable
  /// that matches but whose units cannot be converted is an error naming it.
  static func find(_ quantity: CFQuantity, in file: NCFile, grid: CFGrid) throws(IngestError) -> CFField? {
    let byStandardName = file.variables.values.filter {
      quantity.standardNames.contains($0.attributes["standard_name"]?.text ?? "")
    }.sorted { $0.name < $1.name }
    let byAlias = quantity.aliases.compactMap { file.variables[$0] }
    for variable in byStandardName + byAlias {
      guard Array(variable.dimensions.suffix(2)) == grid.dimensions,
        let level = level(of: variable, in: file, height: quantity.height)
      else { continue }
      let units = variable.attributes["units"]?.text ?? ""
      guard let conversion = quantity.unit.conversion(from: units) else {
        throw IngestError(
          path: file.path, variable: variable.name,
          reason: "units \"\(units)\" cannot be converted to \(quantity.unit.rawValue) for \(quantity.label)")
      }
      return CFField(variable: variable.name, level: level.index, conversion: conversion)
    }
    return nil
  }

  /// The field an operator's map names for a metric. For rain, whose quantity is either a
  /// flux or an amount, nil when the given units fit the other one; otherwise a variable
  /// that is missing, not on the grid or in unknown units is an error naming the map.
  static func mapped(
    _ entry: VariableMap.Entry, as quantity: CFQuantity, in file: NCFile, grid: CFGrid, map: String, metric: String
  ) throws(IngestError) -> CFField? {
    guard let variable = file.variables[entry.variable] else {
      throw IngestError(
        path: map, variable: metric, reason: "maps to \(entry.variable), which \(file.path) does not have")
    }
    guard Array(variable.dimensions.suffix(2)) == grid.dimensions else {
      throw IngestError(
        path: map, variable: metric,
        reason:
          "maps to \(entry.variable), whose dimensions \(variable.dimensions) do not end with the grid's \(grid.dimensions)"
      )
    }
    let units = entry.units ?? variable.attributes["units"]?.text ?? ""
    guard let conversion = quantity.unit.conversion(from: units) else {
      if metric == "rain" { return nil }
      throw IngestError(
        path: map, variable: metric,
        reason: "units \"\(units)\" of \(entry.variable) cannot be converted to \(quantity.unit.rawValue)")
    }
    let level = Self.level(of: variable, in: file, height: quantity.height)?.index ?? 0
    return CFField(variable: entry.variable, level: level, conversion: conversion)
  }

  /// The vertical level of `variable` at `height` metres: `.some(nil)` when it has no
  /// vertical dimension, nil when its vertical coordinate does not include that height
  /// (an isobaric temperature is not a 2 m temperature).
  private static func level(of variable: NCVariable, in file: NCFile, height: Double?) -> (index: Int?, Void)? {
    let extra = variable.dimensions.dropLast(2).filter { dimension in
      !(file.dimension(dimension)?.isUnlimited ?? false) && !dimension.lowercased().contains("time")
    }
    guard let vertical = extra.first else {
      // No vertical dimension: a scalar height coordinate, if any, must match.
      let scalar = (variable.attributes["coordinates"]?.text ?? "").split(separator: " ")
        .compactMap { file.variables[String($0)] }.first { $0.shape.isEmpty && ($0.attributes["units"]?.text == "m") }
      if let scalar, let height, let value = try? file.readUnpacked(scalar.name).first, abs(value - height) > 0.01 {
        return nil
      }
      return (nil, ())
    }
    guard extra.count == 1 else { return nil }
    let values = (try? file.readUnpacked(vertical)) ?? []
    let units = file.variables[vertical]?.attributes["units"]?.text ?? ""
    if let height {
      guard units == "m" || units.isEmpty, let index = values.firstIndex(where: { abs($0 - height) < 0.01 }) else {
        return (file.dimension(vertical)?.length == 1 && values.isEmpty) ? (0, ()) : nil
      }
      return (index, ())
    }
    return file.dimension(vertical)?.length == 1 ? (0, ()) : nil
  }
}
