import Foundation
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

/// `query`, `series` and `forecast` open only the cubes that can answer the point and times
/// asked: on a store of many runs they answer as the whole store's catalog does, and an old
/// run they do not need is never verified.
@Suite struct StoreSelectionCommandTests {
  static let (latitude, longitude) = (39.4, -8.1)

  static func run(_ arguments: [String]) throws -> String {
    let outcome = try CommandLineTool.run(arguments)
    #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
    return outcome.standardOutput
  }

  @Test func answersAgreeWithTheWholeStoreAndIgnoreADamagedRunTheyDoNotNeed() throws {
    let store = SampleFiles.temporaryDirectory("cli-selection")
    defer { SampleFiles.remove(store) }
    let starts = ["2026-06-20_00", "2026-06-20_06", "2026-06-20_12", "2026-06-20_18", "2026-06-21_00"]
    for (index, start) in starts.enumerated() {
      try TestStores.publish(TestStores.spec(start: "\(start):00:00", hours: 18, seed: UInt64(index + 1)), into: store)
    }
    let point = ["--store", store, "--lat", "\(Self.latitude)", "--lon", "\(Self.longitude)"]
    let commands = [
      ["query"] + point + ["--time", "2026-06-21T05:00:00Z"],
      ["query"] + point + ["--time", "2026-06-21T05:00:00Z", "--metrics", "temp"],
      ["series"] + point + ["--from", "2026-06-21T02:00:00Z", "--to", "2026-06-21T10:00:00Z", "--format", "csv"],
      ["forecast"] + point + ["--start-date", "2026-06-21", "--days", "1", "--timezone", "UTC"],
    ]
    let before = try commands.map(Self.run)

    // The whole store's answer, found independently of the command line.
    let catalog = try ForecastStore(path: store).catalog
    let time = try #require(UTC.parseISO8601("2026-06-21T05:00:00Z"))
    let sources = try catalog.sources(latitude: Self.latitude, longitude: Self.longitude, method: .nearest)
    let answering = try #require(sources.source(at: time))
    let temp = try answering.cube.value(answering.cube.metric("temp"), at: answering.location, time: time)
    let members = try #require(sources.precipitationProbability(at: time)).members.map {
      "\(sources.sources[$0].cube.name) \(sources.sources[$0].cube.run)"
    }
    let query = try #require(
      try JSONSerialization.jsonObject(with: Data(before[0].utf8)) as? [String: Any], "\(before[0])")
    #expect(query["run"] as? String == answering.cube.run)
    #expect(query["run"] as? String == "2026062100")
    #expect(query["precipitation_probability_members"] as? [String] == members)
    let values = try #require(query["values"] as? [String: Any])
    let printed = try #require(values["temp"] as? Double)
    #expect(abs(printed - (try #require(temp))) <= 0.05, "\(printed)")

    // The first run ends at 2026-06-20 18 UTC, before any time asked: damaged, it changes
    // no answer, since it is neither opened nor verified. The whole store refuses it.
    let old = "\(store)/wrf/d01/2026062000.cube"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: old))
    bytes[bytes.count - 1] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: old))
    #expect(throws: QueryError.self) { try ForecastStore(path: store) }
    for (command, answer) in zip(commands, before) {
      #expect(try Self.run(command) == answer, "\(command)")
    }
    // Asked for a time the damaged run answers, the command names it as it always did.
    let early = try CommandLineTool.run(["query"] + point + ["--time", "2026-06-20T03:00:00Z"])
    #expect(early.status != 0)
    #expect(early.standardError.contains("\(old): corrupted"), "\(early.standardError)")
  }
}
