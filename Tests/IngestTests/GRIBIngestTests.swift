import Foundation
import Ingest
import Meteorology
import PointQuery
import Testing
import UTCTime
import _TestSupport

/// `grib_get_data`'s points of message `count` of `path`, longitudes in −180…180.
func gribGetData(_ path: String, count: Int) throws -> [(latitude: Double, longitude: Double, value: Double)] {
  try ECCodesTools.data(of: path, message: count).map {
    ($0.latitude, $0.longitude > 180 ? $0.longitude - 360 : $0.longitude, $0.value)
  }
}

@Suite struct GRIBIngestTests {
  static let nam = SampleFiles.grid("grib/nam.t00z.awp21100.tm00.grib2")
  static let gfs = SampleFiles.grid("grib/gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2")

  /// NCEP's NAM (Lambert, grid-relative winds): temperature, earth-relative wind and
  /// pressures at points spread over the grid equal grib_get_data's values at the same
  /// cell, the wind turned to the earth by NCEP's formula for the Lambert cone
  /// (θ = n·(λ − LoV), n = sin 25°, u_e = u cos θ + v sin θ, v_e = −u sin θ + v cos θ).
  @Test func namSampleIngestsAndAnswersWhatGribGetDataReads() throws {
    let store = SampleFiles.temporaryDirectory("grib-nam")
    defer { SampleFiles.remove(store) }
    let report = try Ingestor.run([Self.nam], options: .init(store: store, precision: Metric.versionOneSteps))
    #expect(report.convention == .grib)
    let published = try #require(report.published.first)
    #expect(published.path == "\(store)/ncep/lcc93x65/2018091700.cube")
    #expect(published.steps == 1)
    for metric in [
      "temp", "hum", "dew_point", "rain", "wind_u", "wind_v", "atm_press", "sfc_press", "wind_gusts", "weather_code",
    ] {
      #expect(published.metrics.contains(metric), "\(metric) missing from \(published.metrics)")
    }
    // Lambert on a sphere, counting cells as the projection does: the analytic locator.
    #expect(!report.warnings.contains { $0.contains("locator") }, "\(report.warnings)")
    let cube = try Cube(path: published.path)
    #expect(cube.header.projection.code == 1)

    let t = try gribGetData(Self.nam, count: 125)
    let rh = try gribGetData(Self.nam, count: 126)
    let u = try gribGetData(Self.nam, count: 127)
    let v = try gribGetData(Self.nam, count: 128)
    let prmsl = try gribGetData(Self.nam, count: 1)
    let sp = try gribGetData(Self.nam, count: 123)
    #expect(t.count == 93 * 65)
    let time = cube.time(ofStep: 0)
    let cone = sin(25 * Double.pi / 180)
    var generator = SplitMix(seed: 2026)
    for _ in 0..<200 {
      let cell = Int(generator.next() % UInt64(t.count))
      let location = try cube.locate(latitude: t[cell].latitude, longitude: t[cell].longitude, method: .nearest)
      #expect(location.j * 93 + location.i == cell)
      let value = { (name: String) throws -> Double in
        try #require(try cube.value(try cube.metric(name), at: location, time: time))
      }
      #expect(abs(try value("temp") - (t[cell].value - 273.15)) <= 0.0051)
      #expect(abs(try value("hum") - min(rh[cell].value, 100)) <= 0.0051)
      // NAM gives no dew point: from 2t and 2r, the dew point's saturation pressure is RH
      // of the temperature's (Bolton's es = 6.112 exp(17.67 T / (T + 243.5)), T in °C).
      let es = { (celsius: Double) in 6.112 * exp(17.67 * celsius / (celsius + 243.5)) }
      let ratio = es(try value("dew_point")) / es(t[cell].value - 273.15)
      #expect(abs(ratio - min(rh[cell].value, 100) / 100) <= 0.002, "cell \(cell): \(ratio), RH \(rh[cell].value)")
      #expect(abs(try value("atm_press") - prmsl[cell].value / 100) <= 0.0051)
      // Version 1 stores surface pressure at 0.02 hPa.
      #expect(abs(try value("sfc_press") - sp[cell].value / 100) <= 0.0101)
      var difference = t[cell].longitude - 265
      difference -= 360 * (difference / 360).rounded()
      let theta = cone * difference * .pi / 180
      let east = u[cell].value * cos(theta) + v[cell].value * sin(theta)
      let north = -u[cell].value * sin(theta) + v[cell].value * cos(theta)
      #expect(abs(try value("wind_u") - east) <= 0.0051)
      #expect(abs(try value("wind_v") - north) <= 0.0051)
    }
  }

  /// GFS's 2.5° file at 120 h (one step): the temperature, and the rain as the 114–120 h
  /// accumulation spread evenly over its six hours; a regular grid gets the regular locator.
  @Test func gfsSingleStepSpreadsItsSixHourWindowEvenly() throws {
    let store = SampleFiles.temporaryDirectory("grib-gfs")
    defer { SampleFiles.remove(store) }
    let report = try Ingestor.run(
      [Self.gfs], options: .init(store: store, convention: .grib, precision: Metric.versionOneSteps))
    let published = try #require(report.published.first)
    #expect(published.path == "\(store)/ncep/ll144x73/2011011012.cube")
    let cube = try Cube(path: published.path)
    #expect(cube.header.projection.code == 6)
    if cube.locator.kind != .regular { Issue.record("expected the regular locator, got \(cube.locator.kind)") }
    let t = try gribGetData(Self.gfs, count: 1)
    let tp = try gribGetData(Self.gfs, count: 3)
    let time = cube.time(ofStep: 0)
    #expect(time == (UTC.parseISO8601("2011-01-15T12:00:00Z") ?? 0))
    for cell in [0, 144 * 36 + 10, 144 * 72 + 143, 5000, 7777] {
      let location = try cube.locate(latitude: t[cell].latitude, longitude: t[cell].longitude, method: .nearest)
      #expect(location.j * 144 + location.i == cell)
      let value = { (name: String) throws -> Double in
        try #require(try cube.value(try cube.metric(name), at: location, time: time))
      }
      #expect(abs(try value("temp") - (t[cell].value - 273.15)) <= 0.0051)
      #expect(abs(try value("rain") - max(tp[cell].value, 0) / 6) <= 0.0051)
    }
  }

  /// A file with sea-level pressure only: that metric, and a warning naming the GRIB
  /// parameter each other metric needed.
  @Test func missingParametersAreWarningsNamingTheGRIBParameter() throws {
    let store = SampleFiles.temporaryDirectory("grib-msl")
    defer { SampleFiles.remove(store) }
    let report = try Ingestor.run(
      [SampleFiles.grid("grib/regular_ll_msl.grib")], options: .init(store: store, model: "test"))
    let published = try #require(report.published.first)
    #expect(published.metrics.contains("atm_press"))
    #expect(!published.metrics.contains("temp"))
    #expect(report.warnings.contains { $0.hasPrefix("no temp: 2t (0/0/0 heightAboveGround 2) not found in ") })
    #expect(report.warnings.contains { $0.hasPrefix("no wind: 10u/10v (0/2/2 and 0/2/3 heightAboveGround 10)") })
  }

  /// Grid-relative winds on a rotated grid (ecCodes' rotated_ll template, south pole at
  /// 0°, 0°) turn to the earth: a wind of 1 m/s along the grid's rows blows along the
  /// direction from the cell before to the cell after it, measured here from
  /// grib_get_data's coordinates (a centred difference on the local tangent plane).
  @Test func rotatedGridsGridRelativeWindsTurnAlongTheRows() throws {
    let directory = SampleFiles.temporaryDirectory("grib-rotated")
    defer { SampleFiles.remove(directory) }
    let template = SampleFiles.grid("grib/rotated_ll_sfc_grib2.tmpl")
    let level = "typeOfFirstFixedSurface=103,scaleFactorOfFirstFixedSurface=0,scaledValueOfFirstFixedSurface=10"
    let (u, v) = ("\(directory)/u.grib2", "\(directory)/v.grib2")
    for (path, number, value) in [(u, 2, "1"), (v, 3, "0")] {
      _ = try ECCodesTools.run(
        "grib_set",
        [
          "-d", value, "-s",
          "discipline=0,parameterCategory=2,parameterNumber=\(number),\(level),resolutionAndComponentFlags=8",
          template, path,
        ])
    }
    let report = try Ingestor.run(
      [u, v], options: .init(store: "\(directory)/store", model: "rotated", precision: Metric.versionOneSteps))
    let published = try #require(report.published.first)
    let cube = try Cube(path: published.path)
    let points = try gribGetData(u, count: 1)
    let (width, height) = (16, 31)
    #expect(points.count == width * height)
    for j in stride(from: 1, to: height - 1, by: 5) {
      for i in 1..<(width - 1) {
        let (before, cell, after) = (points[j * width + i - 1], points[j * width + i], points[j * width + i + 1])
        var longitude = after.longitude - before.longitude
        longitude -= 360 * (longitude / 360).rounded()
        let east = longitude * cos(cell.latitude * .pi / 180)
        let north = after.latitude - before.latitude
        let length = (east * east + north * north).squareRoot()
        let location = try cube.locate(latitude: cell.latitude, longitude: cell.longitude, method: .nearest)
        #expect(location.j * width + location.i == j * width + i)
        let value = { (name: String) throws -> Double in
          try #require(try cube.value(try cube.metric(name), at: location, time: cube.time(ofStep: 0)))
        }
        #expect(abs(try value("wind_u") - east / length) <= 0.02, "cell \(i), \(j)")
        #expect(abs(try value("wind_v") - north / length) <= 0.02, "cell \(i), \(j)")
      }
    }
  }

  /// `--map` names a GRIB parameter for a metric: NAM's sea-level pressure from the Eta
  /// reduction (`mslet`, NCEP's 0/3/192) instead of `prmsl`, equal to grib_get_data's.
  @Test func mapNamesTheGRIBParameterAMetricIsTakenFrom() throws {
    let directory = SampleFiles.temporaryDirectory("grib-map")
    defer { SampleFiles.remove(directory) }
    let map = "\(directory)/map.json"
    try Data(#"{"atm_press": {"variable": "0/3/192:meanSea"}}"#.utf8).write(to: URL(fileURLWithPath: map))
    let report = try Ingestor.run(
      [Self.nam],
      options: .init(
        store: "\(directory)/store", map: try VariableMap(path: map), precision: Metric.versionOneSteps))
    let cube = try Cube(path: try #require(report.published.first).path)
    let mslet = try gribGetData(Self.nam, count: 121)
    let prmsl = try gribGetData(Self.nam, count: 1)
    var differing = 0
    for cell in stride(from: 0, to: mslet.count, by: 97) {
      let location = try cube.locate(latitude: mslet[cell].latitude, longitude: mslet[cell].longitude, method: .nearest)
      let value = try #require(try cube.value(try cube.metric("atm_press"), at: location, time: cube.time(ofStep: 0)))
      #expect(abs(value - mslet[cell].value / 100) <= 0.0051)
      if abs(value - prmsl[cell].value / 100) > 0.0051 { differing += 1 }
    }
    // The map made a difference: the two reductions differ at most cells.
    #expect(differing > 10)
  }

  @Test func aMapEntryThatNamesNoGRIBParameterIsAnError() throws {
    let directory = SampleFiles.temporaryDirectory("grib-map-bad")
    defer { SampleFiles.remove(directory) }
    let map = "\(directory)/map.json"
    try Data(#"{"temp": {"variable": "0/0"}}"#.utf8).write(to: URL(fileURLWithPath: map))
    #expect {
      try Ingestor.run(
        [Self.nam], options: .init(store: "\(directory)/store", map: try VariableMap(path: map)))
    } throws: { error in
      "\(error)".hasPrefix(
        "\(map): temp: \"0/0\" names no GRIB parameter: give a shortName or discipline/category/number")
    }
    try Data(#"{"temp": {"variable": "0/0/99:heightAboveGround:2"}}"#.utf8).write(to: URL(fileURLWithPath: map))
    #expect {
      try Ingestor.run(
        [Self.nam], options: .init(store: "\(directory)/store", map: try VariableMap(path: map)))
    } throws: { error in
      "\(error)" == "\(map): temp: no message in \(Self.nam) is 0/0/99:heightAboveGround:2"
    }
  }
}

/// A small deterministic generator for reproducible sample points.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
