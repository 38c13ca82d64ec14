import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import Testing
import UTCTime
import _TestSupport

/// An ERA5-style file: packed shorts, "hours since 1900-01-01 00:00:00.0", metres of
/// precipitation per hour, cloud as a fraction, no relative humidity (it must be derived).
private func writeERA5Style(
  _ path: String, scalarTime: Bool = false, temperatureUnits: String = "K", lats: [Double] = [44, 43, 42, 41]
) throws {
  let lons: [Double] = [350, 351, 352, 353, 354]
  let file = try NCFile.create(path, format: .netcdf4)
  defer { file.close() }
  if !scalarTime { try file.defineDimension("time", length: nil) }
  try file.defineDimension("latitude", length: lats.count)
  try file.defineDimension("longitude", length: lons.count)
  try file.defineVariable("time", type: .int, dimensions: scalarTime ? [] : ["time"])
  try file.setAttribute("units", .text("hours since 1900-01-01 00:00:00.0"), on: "time")
  try file.defineVariable("latitude", type: .float, dimensions: ["latitude"])
  try file.setAttribute("units", .text("degrees_north"), on: "latitude")
  try file.defineVariable("longitude", type: .float, dimensions: ["longitude"])
  try file.setAttribute("units", .text("degrees_east"), on: "longitude")
  let dims = scalarTime ? ["latitude", "longitude"] : ["time", "latitude", "longitude"]
  let packed: [(String, String, Double, Double)] = [
    ("t2m", temperatureUnits, 0.001, 280), ("d2m", "K", 0.001, 275), ("u10", "m s**-1", 0.001, 0),
    ("v10", "m s**-1", 0.001, 0), ("msl", "Pa", 0.2, 101_000), ("tp", "m", 1e-6, 0.03), ("tcc", "(0 - 1)", 3e-5, 0.9),
  ]
  for (name, units, scale, offset) in packed {
    try file.defineVariable(name, type: .short, dimensions: dims)
    try file.setAttribute("scale_factor", .reals([scale]), on: name)
    try file.setAttribute("add_offset", .reals([offset]), on: name)
    try file.setAttribute("_FillValue", .integers([-32767]), on: name, type: .short)
    try file.setAttribute("units", .text(units), on: name)
  }
  try file.setAttribute("units", .text("1"), on: "tcc")
  try file.endDefinitions()
  let steps = scalarTime ? 1 : 3
  try file.write("latitude", start: [0], count: [4], lats)
  try file.write("longitude", start: [0], count: [5], lons)
  let hours = (0..<steps).map { 1_105_224 + Double($0) }  // 2026-01-31 00:00 UTC onwards
  try file.write("time", start: scalarTime ? [] : [0], count: scalarTime ? [] : [steps], hours)
  for (name, _, _, _) in packed {
    let raw = (0..<(steps * 20)).map { Int16(($0 * 37 % 2000) - 1000) }
    let shape = scalarTime ? [4, 5] : [steps, 4, 5]
    try file.write(name, start: shape.map { _ in 0 }, count: shape, raw)
  }
}

@Suite struct CFConventionTests {
  /// The real GFS subset: 2 m temperature, 10 m wind and MSL pressure, checked against the
  /// raw variables read here with the netCDF wrapper.
  @Test func gfsSubsetIngestsAndMatchesAnIndependentComputation() throws {
    let store = SampleFiles.temporaryDirectory("gfs")
    defer { SampleFiles.remove(store) }
    let path = SampleFiles.grid("cf/gfs_1deg_subset.nc")
    let report = try Ingestor.run([path], options: .init(store: store, model: "gfs", precision: Metric.versionOneSteps))
    #expect(report.convention == .cf)
    let published = try #require(report.published.first)
    #expect(published.path == "\(store)/gfs/d01/2010102612.cube")
    #expect(published.metrics == ["temp", "wind_u", "wind_v", "atm_press"])
    #expect(report.warnings.contains { $0.hasPrefix("no hum:") })
    // A regular lattice: recorded as MAP_PROJ 6, located by the regular locator, nothing to warn about.
    #expect(!report.warnings.contains { $0.contains("locator") })
    let cube = try Cube(path: published.path)
    #expect(cube.header.projection.code == 6)
    if cube.locator.kind != .regular { Issue.record("expected the regular locator, got \(cube.locator.kind)") }

    let file = try NCFile.open(path)
    defer { file.close() }
    let lat = try file.readRaw("lat", start: [0], count: [46])
    let lon = try file.readRaw("lon", start: [0], count: [101])
    let t = try file.readRaw("Temperature_height_above_ground", start: [0, 0, 0, 0], count: [1, 1, 46, 101])
    let u = try file.readRaw("u-component_of_wind_height_above_ground", start: [0, 0, 0, 0], count: [1, 1, 46, 101])
    let v = try file.readRaw("v-component_of_wind_height_above_ground", start: [0, 0, 0, 0], count: [1, 1, 46, 101])
    let p = try file.readRaw("Pressure_reduced_to_MSL_msl", start: [0, 0, 0], count: [1, 46, 101])

    let time = try #require(UTC.parseISO8601("2010-10-26T12:00:00Z"))
    for (j, i) in [(0, 0), (45, 100), (20, 50), (10, 73), (33, 5)] {
      let cell = j * 101 + i
      // East-positive longitudes: 260° is −100°.
      let location = try cube.locate(latitude: lat[j], longitude: lon[i] - 360, method: .nearest)
      #expect(location.i == i && location.j == j)
      #expect(location.longitude == lon[i] - 360)  // reported east-positive, not 0–360
      let value = { (name: String) throws -> Double in
        try #require(try cube.value(try cube.metric(name), at: location, time: time))
      }
      #expect(abs(try value("temp") - (t[cell] - 273.15)) <= 0.01)
      #expect(abs(try value("atm_press") - p[cell] / 100) <= 0.01)
      let speed = (u[cell] * u[cell] + v[cell] * v[cell]).squareRoot()
      #expect(abs(try value("wind_vel") - speed) <= 0.01)
      var direction = 270 - atan2(v[cell], u[cell]) * 180 / .pi
      if direction >= 360 { direction -= 360 }
      let difference = abs(try value("wind_dir") - direction)
      #expect(min(difference, 360 - difference) <= asin(min(1, 0.0071 / max(speed, 0.0071))) * 180 / .pi + 0.05)
    }
  }

  @Test func packedERA5StyleFilesUnpackConvertAndDeriveHumidity() throws {
    let directory = SampleFiles.temporaryDirectory("era5")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/era5.nc"
    try writeERA5Style(path)
    let report = try Ingestor.run([path], options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps))
    let published = try #require(report.published.first)
    #expect(published.steps == 3)
    #expect(published.run == "2026013100")
    #expect(
      published.metrics == [
        "temp", "hum", "dew_point", "rain", "cloud", "wind_u", "wind_v", "atm_press", "apparent_temp", "weather_code",
        "precip_neighbourhood",
      ])

    let file = try NCFile.open(path)
    defer { file.close() }
    let raw = { (name: String) throws -> [Double] in try file.readRaw(name, start: [0, 0, 0], count: [3, 4, 5]) }
    let (t, td, tp, tcc) = (try raw("t2m"), try raw("d2m"), try raw("tp"), try raw("tcc"))
    let cube = try Cube(path: published.path)
    for step in 0..<3 {
      for cell in [0, 7, 19] {
        let location = try cube.locate(
          latitude: [44.0, 43, 42, 41][cell / 5], longitude: [350.0, 351, 352, 353, 354][cell % 5] - 360,
          method: .nearest)
        let at = { (name: String) throws -> Double in
          try #require(try cube.value(try cube.metric(name), at: location, time: cube.time(ofStep: step)))
        }
        let k = step * 20 + cell
        let kelvin = t[k] * 0.001 + 280
        let dew = td[k] * 0.001 + 275
        #expect(abs(try at("temp") - (kelvin - 273.15)) <= 0.01)
        #expect(abs(try at("dew_point") - (dew - 273.15)) <= 0.01)
        let es = { (x: Double) in 6.112 * exp(17.67 * (x - 273.15) / (x - 29.65)) }
        #expect(abs(try at("hum") - 100 * min(es(dew) / es(kelvin), 1)) <= 0.01)
        #expect(abs(try at("rain") - max(tp[k] * 1e-6 + 0.03, 0) * 1000) <= 0.01)
        #expect(abs(try at("cloud") - (tcc[k] * 3e-5 + 0.9) * 100) <= 0.01)
      }
    }
  }

  /// Unevenly spaced latitudes (a Gaussian grid, say) are no MAP_PROJ 6 lattice: the cube
  /// records the projection as unknown, and ingest has nothing to warn about.
  @Test func anUnevenGridIsRecordedWithoutAProjection() throws {
    let directory = SampleFiles.temporaryDirectory("uneven")
    defer { SampleFiles.remove(directory) }
    try writeERA5Style("\(directory)/even.nc")
    try writeERA5Style("\(directory)/uneven.nc", lats: [44, 43, 41.5, 41])
    for (name, code) in [("even", UInt32(6)), ("uneven", 0)] {
      let report = try Ingestor.run(
        ["\(directory)/\(name).nc"], options: .init(store: "\(directory)/\(name)", precision: Metric.versionOneSteps))
      #expect(!report.warnings.contains { $0.contains("locator") })
      #expect(try Cube(path: try #require(report.published.first).path).header.projection.code == code)
    }
  }

  @Test func aScalarTimeIsOneStep() throws {
    let directory = SampleFiles.temporaryDirectory("scalar")
    defer { SampleFiles.remove(directory) }
    try writeERA5Style("\(directory)/one.nc", scalarTime: true)
    let report = try Ingestor.run(
      ["\(directory)/one.nc"], options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps))
    #expect(report.published.first?.steps == 1)
  }

  @Test func filesWithNoKnownConventionOrUnknownUnitsAreRefusedWithWhatWasLookedFor() throws {
    let directory = SampleFiles.temporaryDirectory("cf-errors")
    defer { SampleFiles.remove(directory) }
    let bare = "\(directory)/bare.nc"
    let file = try NCFile.create(bare, format: .netcdf4)
    try file.defineDimension("x", length: 2)
    try file.defineVariable("foo", type: .float, dimensions: ["x"])
    try file.endDefinitions()
    file.close()
    let unknown = #expect(throws: IngestError.self) {
      try Ingestor.run([bare], options: .init(store: directory, precision: Metric.versionOneSteps))
    }
    #expect(unknown?.description.hasPrefix("\(bare): no known convention: looked for WRF") == true)
    #expect(unknown?.description.contains("CF (latitude and longitude coordinate variables") == true)

    let odd = "\(directory)/odd.nc"
    try writeERA5Style(odd, temperatureUnits: "furlongs")
    let units = #expect(throws: IngestError.self) {
      try Ingestor.run([odd], options: .init(store: directory, precision: Metric.versionOneSteps))
    }
    #expect(
      units?.description == "\(odd): t2m: units \"furlongs\" cannot be converted to °C for 2 m air_temperature")

    let wrongConvention = #expect(throws: IngestError.self) {
      try Ingestor.run(
        [SampleFiles.grid("cf/gfs_1deg_subset.nc")],
        options: .init(store: directory, convention: .wrf, precision: Metric.versionOneSteps))
    }
    #expect(wrongConvention?.description.contains("required variable is missing") == true)
  }
}
