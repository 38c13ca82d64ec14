import Foundation
import Ingest
import Meteorology
import PointQuery
import Testing
import UTCTime
import _TestSupport

/// The GRIB parameters beyond the basic ones, in runs written in the test with ecCodes'
/// samples: CAPE as the instability where the lifted index is unknown, NCEP's categorical
/// precipitation types, and snow depth from its depth or its water equivalent. Each cell's
/// expected value is worked out here from the documented rule (docs/weather-codes.md,
/// docs/inputs.md), not read from the code.
@Suite(.timeLimit(.minutes(2))) struct GRIBParameterTests {
  static let reference = GRIBRunTests.reference
  static let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (40, 0), width: 6, height: 5)
  static let points = 30

  /// A field of parameter `d/c/n` at the surface, valid at `hours`.
  static func surface(_ parameter: (Int, Int, Int), hours: Int, values: [Double]) -> GRIBTestField {
    GRIBTestField(
      parameter: parameter, typeOfLevel: "surface", level: 0, reference: reference, step: .instant(hours: hours),
      values: values)
  }

  /// A one-hour run (steps 0 and 1 h) of 2 m temperature `celsius`, the hour's
  /// precipitation `total` of which `convective` is convective (mm, accumulated 0–1 h), and
  /// `extra` fields at 1 h, ingested into a store under `directory`.
  static func ingest(
    _ directory: String, celsius: [Double], total: [Double], convective: [Double]?, extra: [GRIBTestField]
  ) throws -> (cube: Cube, warnings: [String]) {
    var messages: [[UInt8]] = []
    for hour in 0...1 {
      let kelvin = celsius.map { $0 + 273.15 }
      messages.append(try GRIBWriter.message(.temperature(reference: reference, hours: hour, values: kelvin), on: grid))
    }
    messages.append(
      try GRIBWriter.message(.precipitation(reference: reference, from: 0, to: 1, values: total), on: grid))
    if let convective {
      // NCEP's acpcp (0/1/10), accumulated.
      let field = GRIBTestField(
        parameter: (0, 1, 10), typeOfLevel: "surface", level: 0, reference: reference,
        step: .accumulation(from: 0, to: 1), values: convective)
      messages.append(try GRIBWriter.message(field, on: grid))
    }
    for field in extra { messages.append(try GRIBWriter.message(field, on: grid)) }
    let path = "\(directory)/run.grib2"
    try GRIBWriter.write(GRIBOracle.shuffled(messages, seed: 11), to: path)
    let report = try Ingestor.run([path], options: .init(store: "\(directory)/store"))
    return (try Cube(path: try #require(report.published.first).path), report.warnings)
  }

  /// The stored value of `name` at point `k` one hour into the run.
  static func value(_ name: String, _ k: Int, in cube: Cube) throws -> Double? {
    let (latitudes, longitudes) = try GRIBWriter.coordinates(of: grid)
    let location = try cube.locate(latitude: latitudes[k], longitude: longitudes[k], method: .nearest)
    return try cube.value(try cube.metric(name), at: location, time: reference + 3600)
  }

  /// CAPE (0/7/6 surface) without a lifted index: 5 mm of convective rain in the hour is a
  /// thunderstorm (95) where CAPE is at least 1,000 J/kg, and moderate rain showers (81)
  /// below; and the run is not warned of a weather code without thunderstorms.
  @Test func capeMakesThunderstormsWhereTheRunHasNoLiftedIndex() throws {
    let directory = SampleFiles.temporaryDirectory("grib-cape")
    defer { SampleFiles.remove(directory) }
    let cape = (0..<Self.points).map { Double($0) * 70 }  // 0 … 2,030 J/kg
    let rain = Array(repeating: 5.0, count: Self.points)
    let (cube, warnings) = try Self.ingest(
      directory, celsius: Array(repeating: 20, count: Self.points), total: rain, convective: rain,
      extra: [Self.surface((0, 7, 6), hours: 1, values: cape)])
    #expect(!warnings.contains { $0.contains("without thunderstorms") }, "\(warnings)")
    for k in 0..<Self.points {
      let expected: Double = cape[k] >= 1000 ? 95 : 81
      #expect(try Self.value("weather_code", k, in: cube) == expected, "point \(k), CAPE \(cape[k])")
    }
  }

  /// Where the run has both, a known lifted index decides: +3 K is stable, so CAPE of
  /// 3,000 J/kg makes no thunderstorm; −3 K is unstable whatever CAPE says.
  @Test func theLiftedIndexOutranksCAPE() throws {
    let directory = SampleFiles.temporaryDirectory("grib-cape-li")
    defer { SampleFiles.remove(directory) }
    let liftedIndex = (0..<Self.points).map { $0 % 2 == 0 ? 3.0 : -3.0 }
    let cape = (0..<Self.points).map { $0 % 3 == 0 ? 3000.0 : 0 }
    let rain = Array(repeating: 5.0, count: Self.points)
    let (cube, _) = try Self.ingest(
      directory, celsius: Array(repeating: 20, count: Self.points), total: rain, convective: rain,
      extra: [
        Self.surface((0, 7, 6), hours: 1, values: cape),
        Self.surface((0, 7, 10), hours: 1, values: liftedIndex),
      ])
    for k in 0..<Self.points {
      let expected: Double = liftedIndex[k] <= -2 ? 95 : 81
      #expect(try Self.value("weather_code", k, in: cube) == expected, "point \(k)")
    }
  }

  /// NCEP's categorical types (0/1/192–195, centre kwbc) at 2 °C with non-convective
  /// precipitation: freezing rain wins over every other flag, then snow, then ice pellets,
  /// then rain; ice pellets and snow take the snow codes, rain is never freezing, and a cell
  /// with no flag keeps the temperature's rule (liquid at 2 °C).
  @Test func categoricalTypesDecideThePrecipitationTypeInNCEPsTieOrder() throws {
    let directory = SampleFiles.temporaryDirectory("grib-ptype")
    defer { SampleFiles.remove(directory) }
    // Flags of point k: its bits, rain 1, freezing rain 2, ice pellets 4, snow 8.
    let flags = (0..<Self.points).map { $0 % 16 }
    let amounts = (0..<Self.points).map { $0 < 16 ? 2.0 : 0.5 }
    func flag(_ bit: Int) -> [Double] { flags.map { $0 & bit != 0 ? 1 : 0 } }
    let (cube, _) = try Self.ingest(
      directory, celsius: Array(repeating: 2, count: Self.points), total: amounts, convective: nil,
      extra: [
        Self.surface((0, 1, 192), hours: 1, values: flag(1)),
        Self.surface((0, 1, 193), hours: 1, values: flag(2)),
        Self.surface((0, 1, 194), hours: 1, values: flag(4)),
        Self.surface((0, 1, 195), hours: 1, values: flag(8)),
      ])
    for k in 0..<Self.points {
      let p = amounts[k]
      // docs/weather-codes.md: freezing 56 < 0.25 ≤ 57 < 1.0 ≤ 66 < 2.5 ≤ 67; snow
      // 71 < 1.0 ≤ 73 < 5.0 ≤ 75; drizzle 53 for 0.25–0.5, rain 61 for 1.0–2.5.
      let expected: Double
      if flags[k] & 2 != 0 {
        expected = p < 1 ? 57 : 66
      } else if flags[k] & (8 | 4) != 0 {
        expected = p < 1 ? 71 : 73
      } else {
        expected = p < 1 ? 55 : 61
      }
      #expect(try Self.value("weather_code", k, in: cube) == expected, "point \(k), flags \(flags[k]), \(p) mm")
    }
  }

  /// Snow depth from NCEP's sde (0/1/11, m) as written; from the water equivalent (0/1/60,
  /// kg m⁻²) over the snow density (0/1/61, kg m⁻³); and, without the density, over
  /// 250 kg/m³, with a warning naming rsn.
  @Test func snowDepthFromItsDepthOrItsWaterEquivalent() throws {
    let depth = (0..<Self.points).map { Double($0) * 0.07 }
    let water = (0..<Self.points).map { Double($0) * 9 }
    let density = (0..<Self.points).map { 100 + Double($0) * 10 }
    let cases: [(String, [GRIBTestField], (Int) -> Double)] = [
      ("depth", [Self.surface((0, 1, 11), hours: 1, values: depth)], { depth[$0] }),
      (
        "water and density",
        [
          Self.surface((0, 1, 60), hours: 1, values: water), Self.surface((0, 1, 61), hours: 1, values: density),
        ],
        { water[$0] / density[$0] }
      ),
      ("water alone", [Self.surface((0, 1, 60), hours: 1, values: water)], { water[$0] / 250 }),
    ]
    for (name, fields, expected) in cases {
      let directory = SampleFiles.temporaryDirectory("grib-snow-depth")
      defer { SampleFiles.remove(directory) }
      let (cube, warnings) = try Self.ingest(
        directory, celsius: Array(repeating: -2, count: Self.points), total: Array(repeating: 0, count: Self.points),
        convective: nil, extra: fields)
      let assumed = warnings.contains {
        $0.hasPrefix("snow_depth from the snow water equivalent at 250 kg/m³: rsn (0/1/61 surface) not found in ")
      }
      #expect(assumed == (name == "water alone"), "\(name): \(warnings)")
      let step = (Metric.snowDepth.step ?? 0.01) / 2 + 1e-9
      for k in 0..<Self.points {
        let value = try #require(try Self.value("snow_depth", k, in: cube), "\(name) point \(k)")
        #expect(abs(value - expected(k)) <= step, "\(name) point \(k): \(value), expected \(expected(k))")
      }
    }
  }

  /// A GRIB cube explains a metric it lacks in GRIB parameters, never WRF variables: the
  /// library's reason and `nwpcube query`'s `unavailable` name 2t for temp, 10u/10v for the
  /// wind and sde or sd for snow depth.
  @Test func reasonsForMissingMetricsNameGRIBParameters() throws {
    let directory = SampleFiles.temporaryDirectory("grib-reasons")
    defer { SampleFiles.remove(directory) }
    let pressure = (0..<Self.points).map { 101_000 + Double($0) * 10 }
    let messages = try (0...1).map { hour in
      try GRIBWriter.message(.seaLevelPressure(reference: Self.reference, hours: hour, values: pressure), on: Self.grid)
    }
    let path = "\(directory)/msl.grib2"
    try GRIBWriter.write(messages, to: path)
    let report = try Ingestor.run([path], options: .init(store: "\(directory)/store", model: "test"))
    let published = try #require(report.published.first)
    let cube = try Cube(path: published.path)
    #expect(cube.inputConvention == .grib)
    let temp = cube.absenceReason(.temp)
    #expect(
      temp
        == "not in this cube: derived from 2t (0/0/0 heightAboveGround 2), which the GRIB input lacked (the ingest warning named the missing ones)"
    )
    #expect(cube.absenceReason(.windVel).contains("10u/10v (0/2/2 and 0/2/3 heightAboveGround 10)"))
    #expect(cube.absenceReason(.snowDepth).contains("sde (0/1/11 surface), or sd/sdwe"))
    for metric in Metric.allCases where !cube.availableMetrics.contains(where: { $0.metric == metric }) {
      let reason = cube.absenceReason(metric)
      for wrfName in ["T2", "Q2", "PSFC", "U10", "V10", "RAINC", "SNOWNC", "SNOWH", "CLDFRA", "SWDOWN", "PBLH"] {
        #expect(!reason.contains(wrfName), "\(metric.name): \(reason)")
      }
    }

    let outcome = try CommandLineTool.run([
      "query", "--store", "\(directory)/store", "--lat", "42", "--lon", "-5", "--time",
      UTC.iso8601(Self.reference + 3600), "--metrics", "temp,atm_press",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardOutput.contains("\"temp\":\"\(temp)\""), "\(outcome.standardOutput)")
  }
}
