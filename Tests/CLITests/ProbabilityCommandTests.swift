import Foundation
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

/// `precipitation_probability` through the real binary: `query` and `series` average the
/// runs covering the time, and say which.
@Suite struct ProbabilityCommandTests {
  /// Two overlapping runs of 30 × 24 cells 9 km apart whose rain differs between them.
  static func store(_ directory: String) throws -> String {
    let store = "\(directory)/store"
    for (run, start) in ["2026-06-20_00:00:00", "2026-06-20_06:00:00"].enumerated() {
      var spec = TestStores.spec(start: start, hours: 12, seed: UInt64(60 + run))
      (spec.westEast, spec.southNorth, spec.dx) = (30, 24, 9_000)
      try TestStores.publish(spec, into: store) { step, i, j in
        // Rain west of a column that differs by run and moves with the hour.
        i < 8 + 3 * run + step ? 0.5 : 0
      }
    }
    return store
  }

  static func json(_ outcome: CommandLineTool.Outcome) throws -> [String: Any] {
    #expect(outcome.status == 0, "\(outcome.standardError)")
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
  }

  @Test func queryAndSeriesAverageTheRunsAndNameThem() throws {
    let directory = SampleFiles.temporaryDirectory("cli-probability")
    defer { SampleFiles.remove(directory) }
    let store = try Self.store(directory)
    let catalog = try ForecastStore(path: store).catalog
    let (latitude, longitude) = (39.5, -8.4)
    let sources = try catalog.sources(latitude: latitude, longitude: longitude, method: .nearest)
    let time = try #require(UTC.parseISO8601("2026-06-20T09:00:00Z"))
    let probability = try #require(sources.precipitationProbability(at: time))
    let value = try #require(probability.value)
    #expect(probability.members.count == 2)

    let query = try Self.json(
      try CommandLineTool.run([
        "query", "--store", store, "--lat", "\(latitude)", "--lon", "\(longitude)", "--time",
        "2026-06-20T09:00:00Z", "--metrics", "rain,precipitation_probability",
      ]))
    let values = try #require(query["values"] as? [String: Any])
    // Printed to the metric's 0 decimals.
    #expect(values["precipitation_probability"] as? Double == value.rounded())
    #expect(query["precipitation_probability_members"] as? [String] == ["wrf/d01 2026062006", "wrf/d01 2026062000"])
    #expect(query["run"] as? String == "2026062006")

    // Before the second run starts, one run answers: its own neighbourhood share.
    let early = try Self.json(
      try CommandLineTool.run([
        "query", "--store", store, "--lat", "\(latitude)", "--lon", "\(longitude)", "--time",
        "2026-06-20T03:00:00Z", "--metrics", "precipitation_probability,precip_neighbourhood",
      ]))
    let earlyValues = try #require(early["values"] as? [String: Any])
    #expect(early["precipitation_probability_members"] as? [String] == ["wrf/d01 2026062000"])
    let share = try #require(earlyValues["precip_neighbourhood"] as? Double)
    #expect(earlyValues["precipitation_probability"] as? Double == share.rounded())

    // Without the metric, no key about it.
    let plain = try Self.json(
      try CommandLineTool.run([
        "query", "--store", store, "--lat", "\(latitude)", "--lon", "\(longitude)", "--time",
        "2026-06-20T09:00:00Z", "--metrics", "rain",
      ]))
    #expect(plain["precipitation_probability_members"] == nil)

    let series = try Self.json(
      try CommandLineTool.run([
        "series", "--store", store, "--lat", "\(latitude)", "--lon", "\(longitude)", "--from",
        "2026-06-20T07:00:00Z", "--to", "2026-06-20T10:00:00Z", "--metrics", "precipitation_probability",
      ]))
    let column = try #require((series["values"] as? [String: Any])?["precipitation_probability"] as? [Double])
    let members = try #require(series["precipitation_probability_members"] as? [[String]])
    #expect(column.count == 4 && members.count == 4)
    for (index, hour) in (7...10).enumerated() {
      let expected = try #require(sources.precipitationProbability(at: time + Int64(hour - 9) * 3600)?.value)
      #expect(column[index] == expected.rounded(), "hour \(hour)")
      #expect(members[index] == ["wrf/d01 2026062006", "wrf/d01 2026062000"])
    }
  }
}
