import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import Testing
import _TestSupport

/// Snow depth from CF input: ERA5's `sd` (metres of water equivalent) over its snow density
/// `rsn`, and `surface_snow_thickness` as written; the depth worked out here from the values
/// written, as water (kg/m²) over density (kg/m³).
@Suite struct CFSnowDepthTests {
  static let (lats, lons) = ([44.0, 43, 42, 41], [350.0, 351, 352, 353, 354])

  /// A one-step file of 2 m temperature and `fields` (name, standard name or nil, units,
  /// the value at cell k).
  static func write(_ path: String, _ fields: [(String, String?, String, (Int) -> Double)]) throws {
    let file = try NCFile.create(path, format: .netcdf4)
    defer { file.close() }
    try defineCFAxes(
      file, latitudes: lats.count, longitudes: lons.count, timeUnits: "hours since 2026-01-31 00:00:00")
    let all = [("t2m", nil, "K", { (_: Int) in 270.0 })] + fields
    for (name, standardName, units, _) in all {
      try file.defineVariable(name, type: .double, dimensions: ["time", "latitude", "longitude"])
      try file.setAttribute("units", .text(units), on: name)
      if let standardName { try file.setAttribute("standard_name", .text(standardName), on: name) }
    }
    try file.endDefinitions()
    try file.write("latitude", start: [0], count: [4], lats)
    try file.write("longitude", start: [0], count: [5], lons)
    try file.write("time", start: [0], count: [1], [0.0])
    for (name, _, _, value) in all {
      try file.write(name, start: [0, 0, 0], count: [1, 4, 5], (0..<20).map(value))
    }
  }

  @Test func snowDepthIsWaterOverDensityOrTheThicknessWritten() throws {
    let water = { (k: Int) in 0.01 * Double(k) }  // m of water
    let density = { (k: Int) in 150 + 10 * Double(k) }  // kg/m³
    let thickness = { (k: Int) in 0.05 * Double(k) }  // m
    let cases: [(String, [(String, String?, String, (Int) -> Double)], (Int) -> Double)] = [
      (
        "era5", [("sd", nil, "m of water equivalent", water), ("rsn", nil, "kg m**-3", density)],
        {
          water($0) * 1000 / density($0)
        }
      ),
      ("thickness", [("snd", "surface_snow_thickness", "m", thickness)], thickness),
    ]
    for (name, fields, expected) in cases {
      let directory = SampleFiles.temporaryDirectory("cf-snow")
      defer { SampleFiles.remove(directory) }
      let path = "\(directory)/\(name).nc"
      try Self.write(path, fields)
      let report = try Ingestor.run([path], options: .init(store: "\(directory)/store", model: "cf"))
      #expect(!report.warnings.contains { $0.hasPrefix("snow_depth from the snow water equivalent") }, "\(name)")
      let cube = try Cube(path: try #require(report.published.first).path)
      #expect(cube.inputConvention == .cf)
      let metric = try cube.metric("snow_depth")
      for k in 0..<20 {
        let location = try cube.locate(latitude: Self.lats[k / 5], longitude: Self.lons[k % 5] - 360, method: .nearest)
        let value = try #require(try cube.value(metric, at: location, time: cube.time(ofStep: 0)), "\(name) \(k)")
        #expect(abs(value - expected(k)) <= 0.005 + 1e-9, "\(name) cell \(k): \(value), expected \(expected(k))")
      }
    }
  }

  /// A cube written before cubes recorded their input (the bundled version 2 sample) is
  /// explained in WRF's names as before, and its missing snow_depth as possibly older than
  /// the metric.
  @Test func aCubeFromBeforeTheRecordSaysItMayPredateSnowDepth() throws {
    let cube = try Cube(path: SampleFiles.grid("cubes/wrf_d01_allvars_v2.cube"))
    #expect(cube.inputConvention == nil)
    #expect(
      cube.absenceReason(.snowDepth).hasPrefix(
        "not in this cube: it was written before nwpcube derived snow_depth, or from output without its inputs (SNOWH in WRF output;"
      ))
  }
}
