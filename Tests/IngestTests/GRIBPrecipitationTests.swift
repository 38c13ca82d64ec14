import Foundation
import Ingest
import Meteorology
import PointQuery
import Testing
import _TestSupport

/// Precipitation in GRIB runs written in the test: accumulations from the run's start
/// (ECMWF), accumulations reset every 6 hours (GFS), and average rates, each become the
/// hour's amount, which equals the hourly amounts the test chose and wrote in that form.
@Suite(.timeLimit(.minutes(2))) struct GRIBPrecipitationTests {
  static let reference = GRIBRunTests.reference
  static let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (40, 0), width: 6, height: 5)
  static let hours = 12

  /// The rain of hour `hour` (the hour ending then) at point `k`, mm: multiples of 0.3 mm,
  /// 0 to 3 mm, different from hour to hour and point to point.
  static func rain(_ k: Int, _ hour: Int) -> Double { Double((k * 7 + hour * 3) % 11) * 0.3 }

  /// How a run writes its precipitation.
  enum Form: String, CaseIterable, Sendable {
    /// Accumulated from the run's start: 0–1, 0–2 … 0–12 h.
    case fromStart
    /// Accumulated from the last multiple of 6 h: 0–1 … 0–6, 6–7 … 6–12 h.
    case resetEvery6Hours
    /// The average rate over each hour, kg m⁻² s⁻¹.
    case averageRate

    /// The message for hour `hour` of a run whose points' hourly amounts are `amounts(k, h)`.
    func field(hour: Int, points: Int) -> GRIBTestField {
      let start = self == .resetEvery6Hours ? (hour - 1) / 6 * 6 : 0
      switch self {
      case .fromStart, .resetEvery6Hours:
        let values = (0..<points).map { k in ((start + 1)...hour).reduce(0) { $0 + rain(k, $1) } }
        return .precipitation(reference: reference, from: start, to: hour, values: values)
      case .averageRate:
        let values = (0..<points).map { k in rain(k, hour) / 3600 }
        return .precipitationRate(reference: reference, from: hour - 1, to: hour, values: values)
      }
    }
  }

  /// A 12-hour run in one file, its messages shuffled: temperature at every hour and the
  /// precipitation in `form`; every point's rain at every hour is the amount chosen.
  @Test(arguments: Form.allCases)
  func precipitationBecomesTheHoursAmount(_ form: Form) throws {
    try check(form, centre: "kwbc")
  }

  /// WMO's total precipitation (0/1/8, kg m⁻²) from a centre whose ecCodes tables have no
  /// name for it (ECMWF's and DWD's: `shortName` and `units` are "unknown"): its unit is
  /// the WMO table's whatever the centre.
  @Test func totalPrecipitationFromACentreEcCodesDoesNotNameIsStillMillimetres() throws {
    try check(.fromStart, centre: "ecmf")
  }

  func check(_ form: Form, centre: String) throws {
    let directory = SampleFiles.temporaryDirectory("grib-rain")
    defer { SampleFiles.remove(directory) }
    let points = Self.grid.width * Self.grid.height
    var messages: [[UInt8]] = []
    for hour in 0...Self.hours {
      let temperature = (0..<points).map { 280 + Double($0) * 0.1 }
      var field = GRIBTestField.temperature(reference: Self.reference, hours: hour, values: temperature)
      field.centre = centre
      messages.append(try GRIBWriter.message(field, on: Self.grid))
      if hour > 0 {
        var field = form.field(hour: hour, points: points)
        field.centre = centre
        messages.append(try GRIBWriter.message(field, on: Self.grid))
      }
    }
    messages = GRIBOracle.shuffled(messages, seed: 7)
    let path = "\(directory)/run.grib2"
    try GRIBWriter.write(messages, to: path)
    let report = try Ingestor.run([path], options: .init(store: "\(directory)/store"))
    let cube = try Cube(path: try #require(report.published.first).path)
    let rain = try cube.metric("rain")
    let (latitudes, longitudes) = try GRIBWriter.coordinates(of: Self.grid)
    let tolerance = (Metric.rain.step ?? 0.1) / 2 + 1e-3
    var wrong: [String] = []
    for k in 0..<points {
      let location = try cube.locate(
        latitude: latitudes[k], longitude: longitudes[k], method: .nearest)
      for hour in 1...Self.hours {
        let value = try cube.value(rain, at: location, time: Self.reference + Int64(hour) * 3600)
        if let value, abs(value - Self.rain(k, hour)) <= tolerance { continue }
        wrong.append(
          "point \(k) hour \(hour): \(value.map { "\($0)" } ?? "missing"), written \(Self.rain(k, hour))"
        )
      }
    }
    #expect(wrong.isEmpty, "\(form), centre \(centre): \(wrong.count) wrong: \(wrong.prefix(5))")
  }
}
