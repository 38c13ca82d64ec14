import NetCDF
import SampleRun

/// The small real NetCDF files the metadata target alters: one per input convention, each
/// of which ingests cleanly as it is.
public enum MetadataTemplates {
  /// The conventions, by the name a metadata script's first line gives.
  public static let names = ["wrf", "cf", "mm5"]

  /// WRF: the real 10 × 8 Lambert file (4 steps) with the variables ingest reads,
  /// model-level pressure and temperature included, so that a value changed in a field
  /// reaches every derivation, the lifted index's ascent too.
  public static let wrf: NetCDFDocument? = {
    let keep: Set<String> = [
      "Times", "XTIME", "XLAT", "XLONG", "T2", "Q2", "PSFC", "U10", "V10", "RAINC", "RAINNC", "RAINSH", "SNOWNC",
      "HGT", "COSALPHA", "SINALPHA", "SWDOWN", "CLDFRA", "QCLOUD", "QRAIN", "QICE", "QSNOW", "QVAPOR", "P", "PB",
      "T",
    ]
    return try? NetCDFDocument(
      reading: "\(FuzzScratch.repositoryRoot)/SampleGrids/wrf/wrf_d01_allvars_lambert.cdf2.nc", keep: keep.contains)
  }()

  /// MM5: the archiver layout written by the sample-run generator on a 6 × 5 grid, 3 steps.
  public static let mm5: NetCDFDocument? = {
    let spec = SampleRunSpec(westEast: 6, southNorth: 5, levels: 2, hours: 2)
    let path = FuzzScratch.path("template-mm5.nc")
    defer { FuzzScratch.remove("template-mm5.nc") }
    guard (try? SampleRunGenerator.writeMM5(spec, to: path)) != nil else { return nil }
    return try? NetCDFDocument(reading: path)
  }()

  /// CF: a GRIB-converter-style 5 × 4 lattice (descending latitudes, 0–360 longitudes),
  /// 3 hourly steps counted from the analysis, a scalar `forecast_reference_time`, and one
  /// packed variable.
  public static let cf: NetCDFDocument? = {
    let path = FuzzScratch.path("template-cf.nc")
    defer { FuzzScratch.remove("template-cf.nc") }
    guard (try? writeCF(path)) != nil else { return nil }
    return try? NetCDFDocument(reading: path)
  }()

  /// The template named `name`.
  public static func named(_ name: String) -> NetCDFDocument? {
    switch name {
    case "wrf": wrf
    case "cf": cf
    case "mm5": mm5
    default: nil
    }
  }

  private static func writeCF(_ path: String) throws {
    let file = try NCFile.create(path, format: .classic64BitOffset)
    defer { file.close() }
    let (latitudes, longitudes): ([Double], [Double]) = ([44, 43, 42, 41], [350, 351, 352, 353, 354])
    try file.defineDimension("time", length: nil)
    try file.defineDimension("lat", length: latitudes.count)
    try file.defineDimension("lon", length: longitudes.count)
    let hours = "hours since 2026-01-31 00:00:00"
    for (name, dimensions, units) in [
      ("time", ["time"], hours), ("forecast_reference_time", [], hours), ("lat", ["lat"], "degrees_north"),
      ("lon", ["lon"], "degrees_east"),
    ] {
      try file.defineVariable(name, type: .double, dimensions: dimensions)
      try file.setAttribute("units", .text(units), on: name)
    }
    try file.setAttribute("standard_name", .text("time"), on: "time")
    let fields = [
      ("t2m", "air_temperature", "K"), ("d2m", "dew_point_temperature", "K"), ("u10", "eastward_wind", "m s-1"),
      ("v10", "northward_wind", "m s-1"), ("msl", "air_pressure_at_mean_sea_level", "Pa"),
      ("tp", "precipitation_amount", "kg m-2"),
    ]
    for (name, standardName, units) in fields {
      try file.defineVariable(name, type: name == "msl" ? .short : .float, dimensions: ["time", "lat", "lon"])
      try file.setAttribute("standard_name", .text(standardName), on: name)
      try file.setAttribute("units", .text(units), on: name)
    }
    try file.setAttribute("scale_factor", .reals([0.5]), on: "msl")
    try file.setAttribute("add_offset", .reals([101_000]), on: "msl")
    try file.setAttribute("_FillValue", .integers([-32767]), on: "msl", type: .short)
    try file.setAttribute("Conventions", .text("CF-1.6"))
    try file.endDefinitions()
    let steps = 3
    try file.write("time", start: [0], count: [steps], (0..<steps).map(Double.init))
    try file.write("forecast_reference_time", start: [], count: [], [0.0])
    try file.write("lat", start: [0], count: [latitudes.count], latitudes)
    try file.write("lon", start: [0], count: [longitudes.count], longitudes)
    let cells = latitudes.count * longitudes.count
    let shape = [steps, latitudes.count, longitudes.count]
    let values: [String: (Int) -> Double] = [
      "t2m": { 280 + Double($0 % 7) }, "d2m": { 275 + Double($0 % 5) }, "u10": { Double($0 % 9) - 4 },
      "v10": { Double($0 % 11) - 5 }, "msl": { Double($0 % 40) - 20 }, "tp": { Double($0 % 3) * 0.4 },
    ]
    for (name, _, _) in fields {
      let value = values[name] ?? { _ in 0 }
      try file.write(name, start: [0, 0, 0], count: shape, (0..<(steps * cells)).map(value))
    }
  }
}
