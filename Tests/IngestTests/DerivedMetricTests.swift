import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import Testing
import _TestSupport

/// The formulas of DESIGN §4 written out again, independently of the Meteorology module,
/// so that a mistake there cannot hide behind the same mistake here.
private enum Reference {
  static func humidity(t: Double, q: Double, p: Double) -> Double {
    let es = 6.112 * exp(17.67 * (t - 273.15) / (t - 29.65))
    let ws = 0.622 * es / (0.01 * p - 0.378 * es)
    return 100 * Swift.min(Swift.max(q / ws, 0), 1)
  }

  static func dewPoint(q: Double, p: Double) -> Double {
    let e = Swift.max(q * (p / 100) / (0.622 + q), 0.001)
    return (243.5 * log(e) - 440.8) / (19.48 - log(e))
  }

  static func seaLevel(p: Double, h: Double, t: Double) -> Double {
    p * pow(1 - 0.0065 * h / (t + 0.0065 * h), -5.257) / 100
  }

  static func direction(u: Double, v: Double) -> Double {
    var d = 270 - atan2(v, u) * 180 / .pi
    while d >= 360 { d -= 360 }
    while d < 0 { d += 360 }
    return d
  }
}

/// The raw fields of the allvars file, read straight from NetCDF.
private struct RawWRF {
  let width = 10
  let height = 8
  let steps = 4
  let levels = 27
  var fields: [String: [Double]] = [:]

  init(_ path: String) throws {
    let file = try NCFile.open(path)
    defer { file.close() }
    for name in ["T2", "Q2", "PSFC", "U10", "V10", "RAINC", "RAINNC", "RAINSH", "SNOWNC", "SWDOWN", "SNOWH"] {
      fields[name] = try file.readRaw(name, start: [0, 0, 0], count: [steps, height, width])
    }
    for name in ["COSALPHA", "SINALPHA", "HGT", "XLAT", "XLONG"] {
      fields[name] = try file.readRaw(name, start: [0, 0], count: [height, width])
    }
    for name in ["CLDFRA", "QVAPOR", "P", "PB", "T"] {
      fields[name] = try file.readRaw(name, start: [0, 0, 0, 0], count: [steps, levels, height, width])
    }
  }

  func at(_ name: String, _ step: Int, _ cell: Int) -> Double {
    fields[name]![step * width * height + cell]
  }

  func fixed(_ name: String, _ cell: Int) -> Double { fields[name]![cell] }

  func cloud(_ step: Int, _ cell: Int) -> Double {
    let cells = width * height
    return 100 * (0..<levels).map { fields["CLDFRA"]![(step * levels + $0) * cells + cell] }.max()!
  }

  /// The fallback cloud: Sundqvist fractions (RHc 0.85) of every level's humidity, maximum.
  func humidityCloud(_ step: Int, _ cell: Int) -> Double {
    let cells = width * height
    var best = 0.0
    for level in 0..<levels {
      let k = (step * levels + level) * cells + cell
      let p = fields["P"]![k] + fields["PB"]![k]
      let kelvin = (fields["T"]![k] + 300) * pow(p / 100_000, 0.2857)
      let es = 6.112 * exp(17.67 * (kelvin - 273.15) / (kelvin - 29.65))
      let rh = Swift.max(fields["QVAPOR"]![k] / (0.622 * es / (0.01 * p - 0.378 * es)), 0)
      let fraction = rh <= 0.85 ? 0 : 1 - (Swift.max(1 - Swift.min(rh, 1), 0) / 0.15).squareRoot()
      best = Swift.max(best, 100 * fraction)
    }
    return best
  }

  func accumulatedRain(_ step: Int, _ cell: Int) -> Double {
    at("RAINC", step, cell) + at("RAINNC", step, cell) + at("RAINSH", step, cell)
  }
}

@Suite struct DerivedMetricTests {
  /// Every metric at several cells (corners, edges, interior) and every step, against the
  /// formulas applied to the raw variables; the tolerance is the metric's quantization step.
  @Test(arguments: [SampleFiles.allvars, SampleFiles.allvarsCDF2])
  func everyDerivedMetricMatchesAnIndependentComputation(path: String) throws {
    let store = SampleFiles.temporaryDirectory("derive")
    defer { SampleFiles.remove(store) }
    let report = try Ingestor.run([path], options: .init(store: store, precision: Metric.versionOneSteps))
    let cube = try Cube(path: try #require(report.published.first).path)
    let raw = try RawWRF(path)
    #expect(cube.header.stepCount == raw.steps && cube.header.width == raw.width)
    #expect(cube.run == "2005092012")  // SIMULATION_START_DATE, not the first step

    let metric = { (name: String) throws -> QueryMetric in try cube.metric(name) }
    for cell in [0, 9, 70, 79, 34, 45, 12, 57] {
      let location = try cube.locate(
        latitude: raw.fixed("XLAT", cell), longitude: raw.fixed("XLONG", cell), method: .nearest)
      #expect(location.j * raw.width + location.i == cell)
      for step in 0..<raw.steps {
        let time = cube.time(ofStep: step)
        func check(
          _ name: String, _ expected: Double?, tolerance: Double, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
          let value = try cube.value(try metric(name), at: location, time: time)
          guard let expected else {
            #expect(value == nil, "\(name) cell \(cell) step \(step)", sourceLocation: sourceLocation)
            return
          }
          let actual = try #require(
            value, "\(name) cell \(cell) step \(step) is missing", sourceLocation: sourceLocation)
          #expect(
            abs(actual - expected) <= tolerance, "\(name) cell \(cell) step \(step): \(actual) vs \(expected)",
            sourceLocation: sourceLocation)
        }
        let t = raw.at("T2", step, cell)
        let q = raw.at("Q2", step, cell)
        let p = raw.at("PSFC", step, cell)
        try check("temp", t - 273.15, tolerance: 0.01)
        try check("hum", Reference.humidity(t: t, q: q, p: p), tolerance: 0.01)
        try check("dew_point", Reference.dewPoint(q: q, p: p), tolerance: 0.01)
        try check("atm_press", Reference.seaLevel(p: p, h: raw.fixed("HGT", cell), t: t), tolerance: 0.01)
        try check("sfc_press", p / 100, tolerance: 0.02)
        try check("shortwave", raw.at("SWDOWN", step, cell), tolerance: 0.1)
        try check("cloud", raw.cloud(step, cell), tolerance: 0.01)
        // The file starts 12 h into its run (XTIME = 720), so the first step's hourly rain
        // is unknown; later steps are 3-hourly, spread evenly over their hours.
        let rain =
          step == 0 ? nil : Swift.max(raw.accumulatedRain(step, cell) - raw.accumulatedRain(step - 1, cell), 0) / 3
        try check("rain", rain, tolerance: 0.01)
        let snow = step == 0 ? nil : Swift.max(raw.at("SNOWNC", step, cell) - raw.at("SNOWNC", step - 1, cell), 0) / 3
        try check("snow", snow, tolerance: 0.01)
        // Snow on the ground is SNOWH itself (a few tenths of a millimetre in this summer run).
        try check("snow_depth", raw.at("SNOWH", step, cell), tolerance: 0.005)

        let (u, v) = (raw.at("U10", step, cell), raw.at("V10", step, cell))
        let (c, s) = (raw.fixed("COSALPHA", cell), raw.fixed("SINALPHA", cell))
        let east = u * c - v * s
        let north = u * s + v * c
        let speed = (east * east + north * north).squareRoot()
        try check("wind_u", east, tolerance: 0.01)
        try check("wind_v", north, tolerance: 0.01)
        try check("wind_vel", speed, tolerance: 0.01)
        // Direction comes from the quantized u/v: its error bound grows as the speed falls.
        let angular = speed > 0.02 ? asin(Swift.min(1, 0.0071 / speed)) * 180 / .pi + 0.05 : 360
        let direction = try #require(try cube.value(try metric("wind_dir"), at: location, time: time))
        var difference = abs(direction - Reference.direction(u: east, v: north))
        difference = Swift.min(difference, 360 - difference)
        #expect(difference <= angular, "wind_dir cell \(cell) step \(step)")
      }
    }
  }

  /// Without CLDFRA, cloud comes from the relative humidity of every model level.
  @Test func cloudFallsBackToModelLevelHumidityWithoutCLDFRA() throws {
    let directory = SampleFiles.temporaryDirectory("cloud-fallback")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_no_cldfra.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: copy, dropping: ["CLDFRA"])
    let report = try Ingestor.run(
      [copy], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    #expect(report.warnings.contains("cloud from model-level relative humidity: CLDFRA is missing in \(copy)"))
    let cube = try Cube(path: report.published[0].path)
    let raw = try RawWRF(SampleFiles.allvars)
    var cloudy = 0
    for cell in 0..<(raw.width * raw.height) {
      let location = try cube.locate(
        latitude: raw.fixed("XLAT", cell), longitude: raw.fixed("XLONG", cell), method: .nearest)
      for step in 0..<raw.steps {
        let expected = raw.humidityCloud(step, cell)
        if expected > 0 { cloudy += 1 }
        let value = try #require(try cube.value(try cube.metric("cloud"), at: location, time: cube.time(ofStep: step)))
        #expect(abs(value - expected) <= 0.01, "cell \(cell) step \(step)")
      }
    }
    // The check is not of zeros only: some columns of the real file are humid enough.
    #expect(cloudy > 0)
  }

  /// Without COSALPHA/SINALPHA the rotation comes from the Lambert cone; on the real file it
  /// must agree with the model's own COSALPHA/SINALPHA.
  @Test func projectionRotationAgreesWithTheModelsOwnAngles() throws {
    let directory = SampleFiles.temporaryDirectory("rotation")
    defer { SampleFiles.remove(directory) }
    let raw = try RawWRF(SampleFiles.allvars)
    let copy = "\(directory)/wrfout_no_alpha.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: copy, dropping: ["COSALPHA", "SINALPHA"])
    let report = try Ingestor.run(
      [copy], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    let cube = try Cube(path: report.published[0].path)
    for cell in [0, 9, 44, 79] {
      let location = try cube.locate(
        latitude: raw.fixed("XLAT", cell), longitude: raw.fixed("XLONG", cell), method: .nearest)
      for step in 0..<raw.steps {
        let (u, v) = (raw.at("U10", step, cell), raw.at("V10", step, cell))
        let (c, s) = (raw.fixed("COSALPHA", cell), raw.fixed("SINALPHA", cell))
        let east = try #require(try cube.value(try cube.metric("wind_u"), at: location, time: cube.time(ofStep: step)))
        #expect(abs(east - (u * c - v * s)) <= 0.011)
      }
    }
  }
}
