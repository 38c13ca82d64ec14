import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import Testing
import _TestSupport

/// A CF file whose variables no discovery can recognise: degrees Fahrenheit, knots, a flux.
private func writeOddFile(_ path: String) throws {
  let file = try NCFile.create(path, format: .netcdf4)
  defer { file.close() }
  try file.defineDimension("time", length: nil)
  try file.defineDimension("lat", length: 3)
  try file.defineDimension("lon", length: 4)
  try file.defineVariable("time", type: .double, dimensions: ["time"])
  try file.setAttribute("units", .text("hours since 2026-03-01 00:00:00"), on: "time")
  try file.defineVariable("lat", type: .float, dimensions: ["lat"])
  try file.defineVariable("lon", type: .float, dimensions: ["lon"])
  for name in ["TAIR2", "WE", "WN", "P"] {
    try file.defineVariable(name, type: .float, dimensions: ["time", "lat", "lon"])
  }
  try file.setAttribute("units", .text("knots"), on: "WE")
  try file.setAttribute("units", .text("knots"), on: "WN")
  try file.endDefinitions()
  try file.write("time", start: [0], count: [2], [0, 1] as [Double])
  try file.write("lat", start: [0], count: [3], [40, 41, 42] as [Double])
  try file.write("lon", start: [0], count: [4], [-9, -8, -7, -6] as [Double])
  try file.write("TAIR2", start: [0, 0, 0], count: [2, 3, 4], (0..<24).map { 50 + Double($0) })
  try file.write("WE", start: [0, 0, 0], count: [2, 3, 4], (0..<24).map { Double($0) })
  try file.write("WN", start: [0, 0, 0], count: [2, 3, 4], (0..<24).map { -Double($0) / 2 })
  try file.write("P", start: [0, 0, 0], count: [2, 3, 4], (0..<24).map { Double($0) * 1e-5 })
}

private func writeMap(_ path: String, _ json: String) throws {
  try json.write(toFile: path, atomically: true, encoding: .utf8)
}

@Suite struct VariableMapTests {
  @Test func aMapNamesVariablesAndUnitsDiscoveryCannotFind() throws {
    let directory = SampleFiles.temporaryDirectory("map")
    defer { SampleFiles.remove(directory) }
    let data = "\(directory)/odd.nc"
    try writeOddFile(data)
    let unmapped = #expect(throws: IngestError.self) {
      try Ingestor.run([data], options: .init(store: directory, convention: .cf, precision: Metric.versionOneSteps))
    }
    #expect(unmapped?.description.contains("none of the CF quantities nwpcube derives metrics from was found") == true)

    let mapPath = "\(directory)/map.json"
    try writeMap(
      mapPath,
      #"{"temp": {"variable": "TAIR2", "units": "degF"}, "wind_u": {"variable": "WE"}, "wind_v": {"variable": "WN"}, "rain": {"variable": "P", "units": "kg m-2 s-1"}}"#
    )
    let map = try VariableMap(path: mapPath)
    let report = try Ingestor.run(
      [data], options: .init(store: "\(directory)/s", map: map, precision: Metric.versionOneSteps))
    let published = try #require(report.published.first)
    #expect(published.metrics == ["temp", "rain", "wind_u", "wind_v", "weather_code", "precip_neighbourhood"])
    let cube = try Cube(path: published.path)
    for step in 0..<2 {
      for cell in [0, 5, 11] {
        let location = try cube.locate(
          latitude: 40 + Double(cell / 4), longitude: -9 + Double(cell % 4), method: .nearest)
        let at = { (name: String) throws -> Double in
          try #require(try cube.value(try cube.metric(name), at: location, time: cube.time(ofStep: step)))
        }
        let k = Double(step * 12 + cell)
        #expect(abs(try at("temp") - (50 + k - 32) * 5 / 9) <= 0.01)
        #expect(abs(try at("wind_u") - k * 1852 / 3600) <= 0.01)
        #expect(abs(try at("wind_v") - (-k / 2) * 1852 / 3600) <= 0.01)
        #expect(abs(try at("rain") - k * 1e-5 * 3600) <= 0.01)
      }
    }
  }

  @Test func badMapsAreRefusedNamingTheMapAndTheEntry() throws {
    let directory = SampleFiles.temporaryDirectory("map-errors")
    defer { SampleFiles.remove(directory) }
    let data = "\(directory)/odd.nc"
    try writeOddFile(data)
    let path = "\(directory)/map.json"
    func failure(_ json: String, convention: Convention = .cf, input: String? = nil) -> String {
      do {
        try writeMap(path, json)
        let map = try VariableMap(path: path)
        _ = try Ingestor.run(
          [input ?? data],
          options: .init(store: directory, convention: convention, map: map, precision: Metric.versionOneSteps))
        return "no error"
      } catch let error as IngestError {
        return error.description
      } catch {
        return "\(error)"
      }
    }
    #expect(failure("[1, 2]").hasPrefix("\(path): not a JSON object"))
    #expect(failure(#"{"tmp": {"variable": "TAIR2"}}"#).hasPrefix("\(path): tmp: not a metric a map can name"))
    #expect(failure(#"{"temp": {"name": "TAIR2"}}"#).hasPrefix("\(path): temp: needs {\"variable\": \"NAME\"}"))
    #expect(failure(#"{"temp": {"variable": "T9"}}"#) == "\(path): temp: maps to T9, which \(data) does not have")
    #expect(
      failure(#"{"temp": {"variable": "TAIR2", "units": "furlongs"}}"#)
        == "\(path): temp: units \"furlongs\" of TAIR2 cannot be converted to °C")
    #expect(
      failure(#"{"rain": {"variable": "P", "units": "parsecs"}}"#).hasPrefix(
        "\(path): rain: units \"parsecs\" of P are neither"))
    #expect(
      failure(#"{"temp": {"variable": "T2"}}"#, convention: .auto, input: SampleFiles.allvars)
        == "\(path): a variable map applies to CF and GRIB files; these were read as wrf")
    let missing = #expect(throws: IngestError.self) { try VariableMap(path: "\(directory)/none.json") }
    #expect(missing?.description.hasPrefix("\(directory)/none.json: cannot read the map file") == true)
  }
}
