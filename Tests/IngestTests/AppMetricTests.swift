import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import Testing
import _TestSupport

/// The app metrics' methods written out again, independently of Meteorology and Ingest,
/// so that a mistake there cannot hide behind the same mistake here.
enum AppReference {
  static func humidity(t: Double, q: Double, p: Double) -> Double {
    let es = 6.112 * exp(17.67 * (t - 273.15) / (t - 29.65))
    return 100 * Swift.min(Swift.max(q / (0.622 * es / (0.01 * p - 0.378 * es)), 0), 1)
  }

  /// Open-Meteo's BoM apparent temperature: 2 m wind as 0.75 of the 10 m wind, body
  /// radiation 0.1·(SW − 550) when positive.
  static func apparent(t: Double, q: Double, p: Double, u: Double, v: Double, sw: Double?) -> Double {
    let ta = t - 273.15
    let e = humidity(t: t, q: q, p: p) / 100 * 6.105 * exp(17.27 * ta / (237.7 + ta))
    let ws = 0.75 * (u * u + v * v).squareRoot()
    let radiation = Swift.max(0, ((sw ?? 550) - 550) / 10)
    return ta + 0.348 * e - 0.7 * ws + 0.7 * radiation / (ws + 10) - 4.25
  }

  /// Relative humidity (0–1, unclamped) of a model level from its mixing ratio, full
  /// pressure and perturbation potential temperature.
  static func levelHumidity(q: Double, p: Double, theta: Double) -> Double {
    let kelvin = (theta + 300) * pow(p / 1e5, 0.2857)
    let es = 6.112 * exp(17.67 * (kelvin - 273.15) / (kelvin - 29.65))
    return Swift.max(q / (0.622 * es / (0.01 * p - 0.378 * es)), 0)
  }

  /// CALVIS at the lowest level, then the lower of it and CALVIS_GSD's humidity term.
  static func visibility(
    qc: Double, qr: Double, qi: Double, qs: Double, qv: Double, p: Double, theta: Double, rh: Double
  ) -> Double {
    let kelvin = (theta + 300) * pow(p / 1e5, 0.2857)
    let rho = p / (287.04 * kelvin * (1 + 0.608 * qv))
    let perDryKilogram = (1 + qv) / rho + (qc + qr) / 1000 + (qi + qs) / 917
    let c = { (q: Double) in Swift.max(0, 1000 * q / perDryKilogram) }
    let beta =
      144.7 * pow(c(qc), 0.88) + 2.24 * pow(c(qr), 0.75) + 327.8 * c(qi) + 10.36 * pow(c(qs), 0.7776) + 1e-10
    let hydrometeors = Swift.min(24.135, 3.912023005428146 / beta)
    let haze = 90 * exp(-2.5 * Swift.min(0.8, Swift.max(0, rh - 0.15)))
    return 1000 * Swift.min(hydrometeors, haze, 24.135)
  }

  static func gust(surface: Double, top: Double, pblh: Double) -> Double {
    surface + (top - surface) * (1 - Swift.min(0.5, pblh / 2000))
  }

  /// A surface parcel's temperature at 500 hPa: dry to Bolton's condensation level, then
  /// the pseudo-adiabat by the midpoint rule in small steps of ln p.
  static func parcel500(t: Double, q: Double, p: Double) -> Double {
    let e = Swift.max(q * p / 100 / (0.622 + q), 0.001)
    let tl = Swift.min(t, 2840 / (3.5 * log(t) - log(e) - 4.805) + 55)
    let pl = p * pow(tl / t, 1 / 0.2857)
    if pl <= 50_000 { return t * pow(50_000 / p, 0.2857) }
    func rate(_ t: Double, _ x: Double) -> Double {
      let pressure = exp(x)
      let es = 611.2 * exp(17.67 * (t - 273.15) / (t - 29.65))
      let rs = 0.622 * es / Swift.max(pressure - es, 1)
      return (287.04 * t + 2.501e6 * rs) / (1005.7 + 0.622 * 2.501e6 * 2.501e6 * rs / (287.04 * t * t))
    }
    let n = 2000
    let h = (log(50_000) - log(pl)) / Double(n)
    var (kelvin, x) = (tl, log(pl))
    for _ in 0..<n {
      let middle = kelvin + h / 2 * rate(kelvin, x)
      kelvin += h * rate(middle, x + h / 2)
      x += h
    }
    return kelvin
  }
}

/// The raw fields of the allvars file, read straight from NetCDF, with the new metrics
/// re-derived from them.
struct RawColumns {
  let width = 10
  let height = 8
  let steps = 4
  let levels = 27
  var fields: [String: [Double]] = [:]

  init(_ path: String) throws {
    let file = try NCFile.open(path)
    defer { file.close() }
    for variable in file.variables.values where variable.dimensions.first == "Time" && variable.type == .float {
      fields[variable.name] = try file.readRaw(
        variable.name, start: variable.shape.map { _ in 0 }, count: variable.shape)
    }
    for name in ["XLAT", "XLONG"] {
      fields[name] = try file.readRaw(name, start: [0, 0], count: [height, width])
    }
  }

  var cells: Int { width * height }

  func at(_ name: String, _ step: Int, _ cell: Int) -> Double {
    fields[name]![step * cells + cell]
  }

  /// A mass-grid 3-D field at a level.
  func at(_ name: String, _ step: Int, level: Int, _ cell: Int) -> Double {
    let levels = fields[name]!.count / (steps * cells)
    return fields[name]![(step * levels + level) * cells + cell]
  }

  func pressure(_ step: Int, _ level: Int, _ cell: Int) -> Double {
    at("P", step, level: level, cell) + at("PB", step, level: level, cell)
  }

  func fixed(_ name: String, _ cell: Int) -> Double { fields[name]![cell] }

  /// The hour's amount of an accumulation (the file's steps are 3-hourly), nil at the
  /// first step, which starts 12 h into the run.
  func hourly(_ names: [String], _ step: Int, _ cell: Int) -> Double? {
    guard step > 0 else { return nil }
    let now = names.reduce(0) { $0 + at($1, step, cell) }
    let before = names.reduce(0) { $0 + at($1, step - 1, cell) }
    return Swift.max(now - before, 0) / 3
  }

  func apparent(_ step: Int, _ cell: Int) -> Double {
    AppReference.apparent(
      t: at("T2", step, cell), q: at("Q2", step, cell), p: at("PSFC", step, cell), u: at("U10", step, cell),
      v: at("V10", step, cell), sw: at("SWDOWN", step, cell))
  }

  func visibility(_ step: Int, _ cell: Int) -> Double {
    let rh = (0..<2).map {
      AppReference.levelHumidity(
        q: at("QVAPOR", step, level: $0, cell), p: pressure(step, $0, cell), theta: at("T", step, level: $0, cell))
    }.max()!
    return AppReference.visibility(
      qc: at("QCLOUD", step, level: 0, cell), qr: at("QRAIN", step, level: 0, cell),
      qi: at("QICE", step, level: 0, cell), qs: at("QSNOW", step, level: 0, cell),
      qv: at("QVAPOR", step, level: 0, cell), p: pressure(step, 0, cell), theta: at("T", step, level: 0, cell),
      rh: rh)
  }

  /// 100 × the largest CLDFRA among the levels whose pressure is in `layer`.
  func cloud(_ step: Int, _ cell: Int, _ layer: (Double) -> Bool) -> Double {
    100
      * (0..<levels).filter { layer(pressure(step, $0, cell)) }.map { at("CLDFRA", step, level: $0, cell) }.reduce(
        0, Swift.max)
  }

  func gust(_ step: Int, _ cell: Int) -> Double {
    let (j, i) = (cell / width, cell % width)
    let height = { (k: Int) in
      let index = ((step * (self.levels + 1) + k) * self.height + j) * self.width + i
      return (self.fields["PH"]![index] + self.fields["PHB"]![index]) / 9.81
    }
    let pblh = at("PBLH", step, cell)
    // The layer whose interfaces enclose PBLH above the ground.
    var k = 0
    while k < levels - 1, height(k + 1) - height(0) <= pblh { k += 1 }
    let u = fields["U"]!
    let v = fields["V"]!
    let uIndex = ((step * levels + k) * self.height + j) * (width + 1) + i
    let vIndex = ((step * levels + k) * (self.height + 1) + j) * width + i
    let east = (u[uIndex] + u[uIndex + 1]) / 2
    let north = (v[vIndex] + v[vIndex + width]) / 2
    let (u10, v10) = (at("U10", step, cell), at("V10", step, cell))
    return AppReference.gust(
      surface: (u10 * u10 + v10 * v10).squareRoot(), top: (east * east + north * north).squareRoot(), pblh: pblh)
  }

  func liftedIndex(_ step: Int, _ cell: Int) -> Double? {
    for k in 0..<(levels - 1) {
      let (lower, upper) = (pressure(step, k, cell), pressure(step, k + 1, cell))
      guard lower >= 50_000, upper <= 50_000, lower > upper else { continue }
      let kelvin = { (level: Int) in
        (self.at("T", step, level: level, cell) + 300) * pow(self.pressure(step, level, cell) / 1e5, 0.2857)
      }
      let w = (log(lower) - log(50_000)) / (log(lower) - log(upper))
      let environment = kelvin(k) + w * (kelvin(k + 1) - kelvin(k))
      return environment
        - AppReference.parcel500(t: at("T2", step, cell), q: at("Q2", step, cell), p: at("PSFC", step, cell))
    }
    return nil
  }
}

@Suite struct AppMetricTests {
  /// Every new metric at several cells and every step against the methods applied to the
  /// raw variables; the tolerance is half the quantization step plus float rounding.
  @Test(arguments: [SampleFiles.allvars, SampleFiles.allvarsCDF2])
  func everyAppMetricMatchesAnIndependentComputation(path: String) throws {
    let store = SampleFiles.temporaryDirectory("app-metrics")
    defer { SampleFiles.remove(store) }
    let report = try Ingestor.run([path], options: .init(store: store))
    let cube = try Cube(path: try #require(report.published.first).path)
    let raw = try RawColumns(path)
    #expect(report.warnings.allSatisfy { !$0.contains("thunderstorm") && !$0.contains("wind_gusts") })
    for cell in [0, 9, 70, 79, 34, 45, 12, 57] {
      let location = try cube.locate(
        latitude: raw.fixed("XLAT", cell), longitude: raw.fixed("XLONG", cell), method: .nearest)
      #expect(location.j * raw.width + location.i == cell)
      for step in 0..<raw.steps {
        let time = cube.time(ofStep: step)
        func check(
          _ metric: Metric, _ expected: Double?, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
          let value = try cube.value(cube.metric(metric), at: location, time: time)
          guard let expected else {
            #expect(value == nil, "\(metric) cell \(cell) step \(step)", sourceLocation: sourceLocation)
            return
          }
          let actual = try #require(value, "\(metric) cell \(cell) step \(step) is missing")
          let tolerance = try #require(metric.step) / 2 + 1e-6 * Swift.max(1, abs(expected))
          #expect(
            abs(actual - expected) <= tolerance, "\(metric) cell \(cell) step \(step): \(actual) vs \(expected)",
            sourceLocation: sourceLocation)
        }
        try check(.apparentTemp, raw.apparent(step, cell))
        let visibility = raw.visibility(step, cell)
        try check(.visibility, visibility)
        let showers = raw.hourly(["RAINC", "RAINSH"], step, cell)
        try check(.showers, showers)
        let snow = raw.hourly(["SNOWNC"], step, cell)
        try check(.snowfall, snow.map { $0 * 0.7 })
        try check(.cloudLow, raw.cloud(step, cell) { $0 > 80_000 })
        try check(.cloudMid, raw.cloud(step, cell) { $0 > 45_000 && $0 <= 80_000 })
        try check(.cloudHigh, raw.cloud(step, cell) { $0 <= 45_000 })
        try check(.windGusts, raw.gust(step, cell))

        let lifted = try #require(raw.liftedIndex(step, cell), "the file's levels reach 500 hPa")
        let code = try cube.value(cube.metric(.weatherCode), at: location, time: time)
        guard let total = raw.hourly(["RAINC", "RAINNC", "RAINSH"], step, cell) else {
          #expect(code == nil, "weather_code cell \(cell) step \(step)")
          continue
        }
        let expected = WeatherCode.classifyIfKnown(
          WeatherConditions(
            precipitation: total, convective: showers, snow: snow, temperature: raw.at("T2", step, cell) - 273.15,
            visibility: visibility, cloud: raw.cloud(step, cell) { _ in true },
            // Computed where the hour has precipitation: every thunderstorm code has some.
            liftedIndex: total > 0 ? lifted : nil,
            hail: raw.hourly(["HAILNC"], step, cell)))
        #expect(code != nil && code == expected.map { Double($0.rawValue) }, "weather_code cell \(cell) step \(step)")
      }
    }
  }

  /// The lifted index that feeds the weather code, at every cell and step of the real file,
  /// against a parcel integrated by another method (midpoint rule, 2000 steps).
  @Test func liftedIndexMatchesAnIndependentParcel() throws {
    let raw = try RawColumns(SampleFiles.allvars)
    var values: [Double] = []
    for step in 0..<raw.steps {
      for cell in 0..<raw.cells {
        let expected = try #require(raw.liftedIndex(step, cell))
        let environment = try #require(
          LiftedIndex.environmentTemperature(
            levels: raw.levels, pressure: { raw.pressure(step, $0, cell) },
            temperature: {
              (raw.at("T", step, level: $0, cell) + 300) * pow(raw.pressure(step, $0, cell) / 1e5, 0.2857)
            }))
        let actual = LiftedIndex.index(
          surfaceKelvin: raw.at("T2", step, cell), mixingRatio: raw.at("Q2", step, cell),
          pascal: raw.at("PSFC", step, cell), environmentKelvin: environment)
        #expect(abs(actual - expected) <= 0.01, "cell \(cell) step \(step): \(actual) vs \(expected)")
        values.append(actual)
      }
    }
    // The file's columns are not all alike: the comparison covers a spread of indices.
    #expect((values.max() ?? 0) - (values.min() ?? 0) > 2, "\(values.min() ?? 0)…\(values.max() ?? 0)")
  }
}
