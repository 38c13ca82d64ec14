import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

@Suite struct MM5ConventionTests {
  /// The generated MM5 sample: detected as MM5, and every metric equal to a computation from
  /// the raw MM5 variables done here (cm → mm, p* + ptop + lowest pp, cone rotation).
  @Test func mm5SampleIngestsAndMatchesAnIndependentComputation() throws {
    let directory = SampleFiles.temporaryDirectory("mm5")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 6
    let path = "\(directory)/mm5_d01.nc"
    try SampleRunGenerator.writeMM5(spec, to: path)
    let report = try Ingestor.run(
      [path], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    #expect(report.convention == .mm5)
    let published = try #require(report.published.first)
    #expect(published.path == "\(directory)/store/mm5/d01/2026062000.cube")
    #expect(
      published.metrics == [
        "temp", "hum", "dew_point", "rain", "wind_u", "wind_v", "atm_press", "sfc_press", "shortwave",
        "apparent_temp", "showers", "weather_code", "precip_neighbourhood",
      ])
    // map_proj_code 1 and its scalars describe the grid: points go through the projection.
    #expect(!report.warnings.contains { $0.contains("locator") }, "\(report.warnings)")
    #expect(isAnalytic(try Cube(path: published.path)))

    let file = try NCFile.open(path)
    defer { file.close() }
    let (ni, nj, nk) = (80, 135, 5)
    let read = { (name: String) throws -> [Double] in
      let shape = try file.variable(name).shape
      return try file.readRaw(name, start: shape.map { _ in 0 }, count: shape)
    }
    let (t2, rainC, rainN, pstar, pp, u10, v10) = (
      try read("t2"), try read("rain_con"), try read("rain_non"), try read("pstarcrs"), try read("pp"),
      try read("u10"), try read("v10")
    )
    let (lat, lon) = (try read("latitcrs"), try read("longicrs"))
    let ptop = try read("ptop")[0]
    let cone = try read("conefac")[0]
    let stdlon = try read("stdlon")[0]
    let cube = try Cube(path: published.path)
    let cells = ni * nj
    let wettest = (0..<cells).max {
      rainC[6 * cells + $0] + rainN[6 * cells + $0] < rainC[6 * cells + $1] + rainN[6 * cells + $1]
    }!
    for cell in [0, cells - 1, 40 * nj + 60, wettest] {
      let location = try cube.locate(latitude: lat[cell], longitude: lon[cell], method: .nearest)
      #expect(location.j * nj + location.i == cell)
      for step in 0...6 {
        let at = { (name: String) throws -> Double in
          try #require(try cube.value(try cube.metric(name), at: location, time: cube.time(ofStep: step)))
        }
        let k = step * cells + cell
        #expect(abs(try at("temp") - (t2[k] - 273.15)) <= 0.01)
        let surface = pstar[k] + ptop + pp[(step * nk + nk - 1) * cells + cell]
        #expect(abs(try at("sfc_press") - surface / 100) <= 0.02)
        let rain = step == 0 ? 0 : max((rainC[k] + rainN[k]) - (rainC[k - cells] + rainN[k - cells]), 0) * 10
        #expect(abs(try at("rain") - rain) <= 0.01, "rain cell \(cell) step \(step)")
        let alpha = -cone * (lon[cell] - stdlon) * .pi / 180
        #expect(abs(try at("wind_u") - (u10[k] * cos(alpha) - v10[k] * sin(alpha))) <= 0.011)
        #expect(abs(try at("wind_v") - (u10[k] * sin(alpha) + v10[k] * cos(alpha))) <= 0.011)
      }
    }
    #expect(rainC[6 * cells + wettest] + rainN[6 * cells + wettest] > 0.1)  // some rain is checked
  }

  @Test func theMM5SampleCarriesTheSameWeatherAsTheWRFSample() throws {
    let directory = SampleFiles.temporaryDirectory("mm5-wrf")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 3
    try SampleRunGenerator.writeMM5(spec, to: "\(directory)/mm5.nc")
    let wrfFiles = try SampleRunGenerator.write(spec, to: "\(directory)/wrf")
    let mm5 = try Cube(
      path: try Ingestor.run(
        ["\(directory)/mm5.nc"], options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps)
      ).published[0].path)
    let wrf = try Cube(
      path: try Ingestor.run(wrfFiles, options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps))
        .published[0].path)
    let grid = wrf.locator.grid
    for cell in stride(from: 0, to: grid.count, by: 997) {
      let (lat, lon) = (Double(grid.latitudes[cell]), Double(grid.longitudes[cell]))
      for name in ["temp", "rain", "atm_press", "wind_vel"] {
        let a = try mm5.value(
          try mm5.metric(name), at: try mm5.locate(latitude: lat, longitude: lon, method: .nearest), time: mm5.lastTime)
        let b = try wrf.value(
          try wrf.metric(name), at: try wrf.locate(latitude: lat, longitude: lon, method: .nearest), time: wrf.lastTime)
        #expect(abs((a ?? .nan) - (b ?? .nan)) <= 0.02, "\(name) at cell \(cell)")
      }
    }
  }

  @Test func aFileWithoutTheRequiredMM5VariablesIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("mm5-bad")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/mm5_no_t2.nc"
    var spec = SampleRunSpec.portugal9km
    spec.hours = 1
    try SampleRunGenerator.writeMM5(spec, to: "\(directory)/full.nc")
    try WRFFixture.copy("\(directory)/full.nc", to: path, dropping: ["t2"])
    let error = #expect(throws: IngestError.self) {
      try Ingestor.run([path], options: .init(store: directory, precision: Metric.versionOneSteps))
    }
    #expect(error?.description == "\(path): t2: required MM5 variable is missing")
  }
}
