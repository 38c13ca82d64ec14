import CubeFormat
import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

/// The app metrics where an input is missing, on MM5 and CF input, and the range of every
/// value derived from the bundled files.
@Suite struct AppMetricFallbackTests {
  /// A missing input: a warning naming the variables and the metric, and the metric absent
  /// from the cube (or derived by the documented fallback, with a warning saying so).
  @Test(arguments: [
    (["PBLH", "U", "V"], "no wind_gusts: PBLH, U, V are missing in", [Metric.windGusts]),
    (["PH"], "no wind_gusts: PH is missing in", [.windGusts]),
    (["RAINC", "RAINSH"], "no showers: RAINC and RAINSH are missing in", [.showers]),
    (["SNOWNC"], "no snowfall: SNOWNC is missing in", [.snowfall, .snow]),
    (["T"], "no visibility: T is missing in", [.visibility]),
    (["T"], "weather_code without thunderstorms (no lifted index): T is missing in", [.visibility]),
    (
      ["CLDFRA", "P"], "no cloud_low, cloud_mid, cloud_high: CLDFRA, P are missing in",
      [.cloudLow, .cloudMid, .cloudHigh, .visibility]
    ),
    (["U10", "V10"], "no apparent_temp: U10, V10 are missing in", [.apparentTemp, .windGusts]),
    (
      ["RAINC", "RAINNC", "RAINSH"], "no weather_code: RAINC and RAINNC are missing in",
      [.weatherCode, .rain, .showers]
    ),
  ])
  func aMissingInputIsNamedWithItsMetric(dropping: [String], warning: String, absent: [Metric]) throws {
    let directory = SampleFiles.temporaryDirectory("app-missing")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_without.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: copy, dropping: Set(dropping))
    let report = try Ingestor.run(
      [copy], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    #expect(report.warnings.contains("\(warning) \(copy)"), "\(report.warnings)")
    let cube = try Cube(path: try #require(report.published.first).path)
    for metric in absent {
      #expect(!cube.metric(metric).isAvailable, "\(metric)")
    }
    // Everything not named stays: the other app metrics are still derived.
    for metric in [Metric.apparentTemp, .visibility, .showers, .snowfall, .cloudLow, .windGusts, .weatherCode]
    where !absent.contains(metric) {
      #expect(cube.metric(metric).isAvailable, "\(metric)")
    }
  }

  /// Without hydrometeors, visibility is the humidity (haze and fog) term alone; without
  /// CLDFRA the cloud layers come from each level's humidity; without SWDOWN the apparent
  /// temperature takes no sunshine. Each says so, and the values follow the fallback.
  @Test func fallbacksAreWarnedAndFollowTheirMethod() throws {
    let directory = SampleFiles.temporaryDirectory("app-fallback")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_fallback.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: copy, dropping: ["QCLOUD", "QRAIN", "QICE", "QSNOW", "CLDFRA", "SWDOWN"])
    let report = try Ingestor.run(
      [copy], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    for warning in [
      "visibility from relative humidity only: QCLOUD, QRAIN, QICE, QSNOW are missing in \(copy)",
      "cloud_low, cloud_mid, cloud_high from model-level relative humidity: CLDFRA is missing in \(copy)",
      "apparent_temp without sunshine (Q = 0, as in shade): SWDOWN is missing in \(copy)",
    ] {
      #expect(report.warnings.contains(warning), "\(report.warnings)")
    }
    let cube = try Cube(path: try #require(report.published.first).path)
    let raw = try RawColumns(SampleFiles.allvars)
    var hazy = 0
    var cloudy = 0
    for cell in 0..<raw.cells {
      let location = try cube.locate(
        latitude: raw.fixed("XLAT", cell), longitude: raw.fixed("XLONG", cell), method: .nearest)
      for step in 0..<raw.steps {
        let value = { (metric: Metric) throws -> Double in
          try #require(try cube.value(cube.metric(metric), at: location, time: cube.time(ofStep: step)))
        }
        let rh = (0..<2).map {
          AppReference.levelHumidity(
            q: raw.at("QVAPOR", step, level: $0, cell), p: raw.pressure(step, $0, cell),
            theta: raw.at("T", step, level: $0, cell))
        }.max()!
        let haze = 1000 * Swift.min(24.135, 90 * exp(-2.5 * Swift.min(0.8, Swift.max(0, rh - 0.15))))
        if haze < 24_135 { hazy += 1 }
        #expect(abs(try value(.visibility) - haze) <= 0.51, "visibility cell \(cell) step \(step)")

        let layers: [(Metric, (Double) -> Bool)] = [
          (.cloudLow, { $0 > 80_000 }), (.cloudMid, { $0 > 45_000 && $0 <= 80_000 }), (.cloudHigh, { $0 <= 45_000 }),
        ]
        for (metric, contains) in layers {
          var expected = 0.0
          for level in 0..<raw.levels where contains(raw.pressure(step, level, cell)) {
            let rh = AppReference.levelHumidity(
              q: raw.at("QVAPOR", step, level: level, cell), p: raw.pressure(step, level, cell),
              theta: raw.at("T", step, level: level, cell))
            let fraction = rh <= 0.85 ? 0 : 1 - (Swift.max(1 - Swift.min(rh, 1), 0) / 0.15).squareRoot()
            expected = Swift.max(expected, 100 * fraction)
          }
          if expected > 0 { cloudy += 1 }
          #expect(abs(try value(metric) - expected) <= 0.01, "\(metric) cell \(cell) step \(step)")
        }
        let apparent = AppReference.apparent(
          t: raw.at("T2", step, cell), q: raw.at("Q2", step, cell), p: raw.at("PSFC", step, cell),
          u: raw.at("U10", step, cell), v: raw.at("V10", step, cell), sw: nil)
        #expect(abs(try value(.apparentTemp) - apparent) <= 0.0051, "apparent_temp cell \(cell) step \(step)")
      }
    }
    // Neither check is of the cap or of zeros only.
    #expect(hazy > 0 && cloudy > 0, "hazy \(hazy), cloudy \(cloudy)")
  }

  /// Every value of every app metric derived from the bundled real files is finite, inside
  /// the metric's documented range, and a weather code is one of the table's.
  @Test func everyDerivedValueOfTheBundledFilesIsInRange() throws {
    let directory = SampleFiles.temporaryDirectory("app-ranges")
    defer { SampleFiles.remove(directory) }
    let root = SampleFiles.grid("")
    let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".nc") }.sorted()
    #expect(files.count >= 7, "\(files)")
    let app: Set<Metric> = [
      .apparentTemp, .visibility, .weatherCode, .showers, .snowfall, .cloudLow, .cloudMid, .cloudHigh, .windGusts,
    ]
    var checked: Set<Metric> = []
    for (number, file) in files.enumerated() {
      // Some bundled files are grids only (no fields to derive from): refused, not derived.
      guard
        let report = try? Ingestor.run(
          ["\(root)/\(file)"], options: .init(store: "\(directory)/store\(number)", precision: Metric.versionOneSteps))
      else { continue }
      for published in report.published {
        let cube = try CubeFile(path: published.path)
        for (slot, stored) in cube.header.metrics.enumerated() {
          guard let metric = Metric.named(stored.name), app.contains(metric) else { continue }
          checked.insert(metric)
          for step in 0..<cube.header.stepCount {
            for cell in 0..<cube.header.cells {
              guard let value = stored.decode(cube.word(metric: slot, cell: cell, step: step)) else { continue }
              #expect(value.isFinite && metric.range.contains(value), "\(file) \(metric) \(value)")
              if metric == .weatherCode {
                #expect(WeatherCode(rawValue: Int(value)) != nil, "\(file) code \(value)")
              }
            }
          }
        }
      }
    }
    #expect(checked == app, "\(app.subtracting(checked))")
  }

  /// MM5 has rain_con: showers are its deaccumulated hour (cm → mm), and the apparent
  /// temperature and weather code follow; the model-level metrics are absent, named.
  @Test func mm5GetsShowersApparentTemperatureAndCodes() throws {
    let directory = SampleFiles.temporaryDirectory("app-mm5")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 3
    let path = "\(directory)/mm5_d01.nc"
    try SampleRunGenerator.writeMM5(spec, to: path)
    let report = try Ingestor.run(
      [path], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    let published = try #require(report.published.first)
    for name in ["apparent_temp", "showers", "weather_code"] {
      #expect(published.metrics.contains(name), "\(published.metrics)")
    }
    #expect(report.warnings.contains("no wind_gusts: PBLH, U, V, PH, PHB are missing in \(path)"), "\(report.warnings)")
    let file = try NCFile.open(path)
    defer { file.close() }
    let read = { (name: String) throws -> [Double] in
      let shape = try file.variable(name).shape
      return try file.readRaw(name, start: shape.map { _ in 0 }, count: shape)
    }
    let (rainC, t2, q2, u10, v10, sw) = (
      try read("rain_con"), try read("t2"), try read("q2"), try read("u10"), try read("v10"), try read("swdown")
    )
    let (pstar, pp, lat, lon) = (try read("pstarcrs"), try read("pp"), try read("latitcrs"), try read("longicrs"))
    let ptop = try read("ptop")[0]
    let cube = try Cube(path: published.path)
    let (cells, nk) = (80 * 135, 5)
    let wettest = (0..<cells).max { rainC[3 * cells + $0] < rainC[3 * cells + $1] } ?? 0
    #expect(rainC[3 * cells + wettest] > 0)
    for cell in [0, cells - 1, wettest] {
      let location = try cube.locate(latitude: lat[cell], longitude: lon[cell], method: .nearest)
      for step in 1...3 {
        let k = step * cells + cell
        let at = { (metric: Metric) throws -> Double in
          try #require(try cube.value(cube.metric(metric), at: location, time: cube.time(ofStep: step)))
        }
        #expect(abs(try at(.showers) - Swift.max(rainC[k] - rainC[k - cells], 0) * 10) <= 0.0051)
        let p = pstar[k] + ptop + pp[(step * nk + nk - 1) * cells + cell]
        let apparent = AppReference.apparent(t: t2[k], q: q2[k], p: p, u: u10[k], v: v10[k], sw: sw[k])
        #expect(abs(try at(.apparentTemp) - apparent) <= 0.0051 + 1e-6 * abs(apparent))
      }
    }
  }

  /// CF input with ERA5's names for gusts, visibility, convective precipitation, snowfall
  /// and the cloud layers: each metric is the variable converted, the apparent
  /// temperature follows from temperature, dew point and wind, and the weather code is
  /// never a thunderstorm, which a warning says.
  @Test func cfVariablesFeedTheAppMetrics() throws {
    let directory = SampleFiles.temporaryDirectory("app-cf")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/era5_app.nc"
    let (lats, lons, steps) = ([42.0, 41, 40], [350.0, 351, 352, 353], 3)
    let cells = lats.count * lons.count
    let variables: [(String, String, (Int) -> Double)] = [
      ("t2m", "K", { 270 + Double($0 % 17) }), ("d2m", "K", { 266 + Double($0 % 13) }),
      ("u10", "m s**-1", { Double($0 % 9) - 4 }), ("v10", "m s**-1", { Double($0 % 7) - 3 }),
      ("tp", "m", { Double($0 % 5) * 4e-4 }), ("cp", "m", { Double($0 % 5) * 1e-4 }),
      ("sf", "m of water equivalent", { Double($0 % 3) * 2e-4 }), ("lcc", "(0 - 1)", { Double($0 % 11) / 10 }),
      ("mcc", "(0 - 1)", { Double($0 % 6) / 5 }), ("hcc", "(0 - 1)", { Double($0 % 4) / 3 }),
      ("vis", "m", { 500 + 1000 * Double($0 % 23) }), ("i10fg", "m s**-1", { 3 + Double($0 % 19) }),
    ]
    let file = try NCFile.create(path, format: .netcdf4)
    try file.defineDimension("time", length: nil)
    try file.defineDimension("latitude", length: lats.count)
    try file.defineDimension("longitude", length: lons.count)
    try file.defineVariable("time", type: .double, dimensions: ["time"])
    try file.setAttribute("units", .text("hours since 2026-01-31 00:00:00"), on: "time")
    try file.defineVariable("latitude", type: .float, dimensions: ["latitude"])
    try file.setAttribute("units", .text("degrees_north"), on: "latitude")
    try file.defineVariable("longitude", type: .float, dimensions: ["longitude"])
    try file.setAttribute("units", .text("degrees_east"), on: "longitude")
    for (name, units, _) in variables {
      try file.defineVariable(name, type: .float, dimensions: ["time", "latitude", "longitude"])
      try file.setAttribute("units", .text(units), on: name)
    }
    try file.endDefinitions()
    try file.write("time", start: [0], count: [steps], [0.0, 1, 2])
    try file.write("latitude", start: [0], count: [lats.count], lats)
    try file.write("longitude", start: [0], count: [lons.count], lons)
    for (name, _, value) in variables {
      try file.write(
        name, start: [0, 0, 0], count: [steps, lats.count, lons.count], (0..<(steps * cells)).map(value))
    }
    file.close()

    let report = try Ingestor.run(
      [path], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    let published = try #require(report.published.first)
    for name in [
      "apparent_temp", "visibility", "showers", "snowfall", "cloud_low", "cloud_mid", "cloud_high", "wind_gusts",
      "weather_code",
    ] {
      #expect(published.metrics.contains(name), "\(name) in \(published.metrics)")
    }
    #expect(
      report.warnings.contains(
        "weather_code without thunderstorms (no lifted index or CAPE): model-level temperature and pressure are not read from CF input \(path)"
      ), "\(report.warnings)")
    let cube = try Cube(path: published.path)
    // What the file holds: the values rounded to float.
    let value = { (name: String) in { (k: Int) in Double(Float(variables.first { $0.0 == name }!.2(k))) } }
    for cell in [0, 5, cells - 1] {
      let (j, i) = (cell / lons.count, cell % lons.count)
      let location = try cube.locate(latitude: lats[j], longitude: lons[i] - 360, method: .nearest)
      for step in 0..<steps {
        let k = step * cells + cell
        let at = { (metric: Metric) throws -> Double in
          try #require(try cube.value(cube.metric(metric), at: location, time: cube.time(ofStep: step)))
        }
        let (t, td) = (value("t2m")(k) - 273.15, value("d2m")(k) - 273.15)
        let saturation = { (c: Double) in 6.112 * exp(17.67 * c / (c + 243.5)) }
        let rh = 100 * Swift.min(saturation(td) / saturation(t), 1)
        let (u, v) = (value("u10")(k), value("v10")(k))
        let ws = 0.75 * (u * u + v * v).squareRoot()
        let apparent = t + 0.348 * rh / 100 * 6.105 * exp(17.27 * t / (237.7 + t)) - 0.7 * ws - 4.25
        #expect(abs(try at(.apparentTemp) - apparent) <= 0.0051 + 1e-5 * abs(apparent), "cell \(cell) step \(step)")
        #expect(abs(try at(.visibility) - value("vis")(k)) <= 0.51)
        #expect(abs(try at(.showers) - 1000 * value("cp")(k)) <= 0.0051)
        #expect(abs(try at(.snowfall) - 700 * value("sf")(k)) <= 0.0051)
        #expect(abs(try at(.cloudLow) - 100 * value("lcc")(k)) <= 0.0051)
        #expect(abs(try at(.cloudMid) - 100 * value("mcc")(k)) <= 0.0051)
        #expect(abs(try at(.cloudHigh) - 100 * value("hcc")(k)) <= 0.0051)
        #expect(abs(try at(.windGusts) - value("i10fg")(k)) <= 0.0051)
        // This file has no total cloud: a dry hour's code would be a guess, and is missing.
        let expected = WeatherCode.classifyIfKnown(
          WeatherConditions(
            precipitation: 1000 * value("tp")(k), convective: 1000 * value("cp")(k), snow: 1000 * value("sf")(k),
            temperature: t, visibility: value("vis")(k), cloud: nil))
        let code = try cube.value(cube.metric(.weatherCode), at: location, time: cube.time(ofStep: step))
        #expect(code == expected.map { Double($0.rawValue) }, "cell \(cell) step \(step)")
      }
    }
  }
}
