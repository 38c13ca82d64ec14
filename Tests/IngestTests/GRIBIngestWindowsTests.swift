import Foundation
import Ingest
import Meteorology
import PointQuery
import Testing
import _TestSupport

/// GRIB runs made with ecCodes' `grib_set` from the GFS sample's messages (2 m temperature,
/// `tp` accumulated, `prate` averaged), one file per step, given shuffled: the hour's rain
/// at each step against amounts computed here by hand from the windows written.
@Suite struct GRIBIngestWindowsTests {
  static let gfs = SampleFiles.grid("grib/gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2")

  /// A file of `messages` (GFS sample message number, `grib_set` keys, constant value or
  /// nil to keep the values) concatenated, in `directory`.
  static func file(
    _ name: String, in directory: String, _ messages: [(number: Int, keys: String, value: Double?)]
  ) throws -> String {
    var bytes = Data()
    for (index, message) in messages.enumerated() {
      let single = "\(directory)/\(name).\(index).one"
      let edited = "\(directory)/\(name).\(index).set"
      _ = try ECCodesTools.run("grib_copy", ["-w", "count=\(message.number)", gfs, single])
      _ = try ECCodesTools.run(
        "grib_set", (message.value.map { ["-d", "\($0)"] } ?? []) + ["-s", message.keys, single, edited])
      bytes += try Data(contentsOf: URL(fileURLWithPath: edited))
    }
    let path = "\(directory)/\(name)"
    try bytes.write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The rain the cube holds at each step, at one cell.
  static func rain(_ paths: [String], store: String, model: String) throws -> [Double] {
    let report = try Ingestor.run(
      paths.shuffled(), options: .init(store: store, model: model, precision: Metric.versionOneSteps))
    let published = try #require(report.published.first)
    let cube = try Cube(path: published.path)
    let location = try cube.locate(latitude: 40, longitude: -100, method: .nearest)
    return try (0..<published.steps).map { step in
      try #require(try cube.value(try cube.metric("rain"), at: location, time: cube.time(ofStep: step)))
    }
  }

  /// GFS resets its accumulation every 6 h (0–3, 0–6, 6–9, 6–12 h): each 3-hourly step's
  /// hour is a third of the window itself or of the difference of two.
  @Test func resetEverySixHoursIsDeaccumulatedByWindows() throws {
    let directory = SampleFiles.temporaryDirectory("grib-reset")
    defer { SampleFiles.remove(directory) }
    let windows: [(Int, Int, Double)] = [(0, 3, 3), (0, 6, 9), (6, 9, 1.5), (6, 12, 6)]
    let paths = try windows.map { start, end, amount in
      try Self.file(
        "f\(end)", in: directory,
        [(1, "stepRange=\(end)", 280), (3, "stepRange=\(start)-\(end)", amount)])
    }
    // 3/3, (9 − 3)/3, 1.5/3, (6 − 1.5)/3 mm in each hour.
    let expected = [1.0, 2, 0.5, 1.5]
    let rain = try Self.rain(paths, store: "\(directory)/store", model: "gfs")
    #expect(rain.count == 4)
    for (value, hand) in zip(rain, expected) { #expect(abs(value - hand) <= 0.0051, "\(rain) vs \(expected)") }
  }

  /// ECMWF accumulates from the run's start, in metres of water (`tp`, paramId 228).
  @Test func accumulationFromTheRunsStartInMetresIsDeaccumulated() throws {
    let directory = SampleFiles.temporaryDirectory("grib-ecmwf")
    defer { SampleFiles.remove(directory) }
    let ecmwf = "centre=ecmf,localTablesVersion=1,parameterNumber=193"
    let windows: [(Int, Double)] = [(3, 0.003), (6, 0.009), (9, 0.0105)]
    let paths = try windows.map { end, metres in
      try Self.file(
        "e\(end)", in: directory, [(1, "stepRange=\(end)", 280), (3, "\(ecmwf),stepRange=0-\(end)", metres)])
    }
    let rain = try Self.rain(paths, store: "\(directory)/store", model: "ifs")
    let expected = [1.0, 2, 0.5]
    #expect(rain.count == 3)
    for (value, hand) in zip(rain, expected) { #expect(abs(value - hand) <= 0.0051, "\(rain) vs \(expected)") }
  }

  /// Average rates (GFS's `prate`, kg m⁻² s⁻¹ over each window) are per second: the hour's
  /// rain is the rate times 3600 s, also when two windows must be combined.
  @Test func averageRatesArePerSecond() throws {
    let directory = SampleFiles.temporaryDirectory("grib-avg")
    defer { SampleFiles.remove(directory) }
    let rate = 1.0 / 3600
    let paths = [
      try Self.file("a3", in: directory, [(1, "stepRange=3", 280), (2, "stepRange=0-3", rate)]),
      // 0–6 h averaging 2/3600: the 3–6 h amount is 6·2 − 3·1 = 9 mm, 3 mm an hour.
      try Self.file("a6", in: directory, [(1, "stepRange=6", 280), (2, "stepRange=0-6", 2 * rate)]),
    ]
    let rain = try Self.rain(paths, store: "\(directory)/store", model: "avg")
    #expect(rain.count == 2)
    #expect(abs(rain[0] - 1) <= 0.0051)
    #expect(abs(rain[1] - 3) <= 0.0051)
  }
}
