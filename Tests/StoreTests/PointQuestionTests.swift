import Foundation
import PointQuery
import Testing
import UTCTime
import _TestSupport

@testable import Store

/// The command line's store (`ForecastStore(path:answering:)`): it opens only the cubes that
/// can answer a point over some times, and answers those times exactly as the whole store.
@Suite struct PointQuestionTests {
  static let latitude = 39.4
  static let longitude = -8.1

  /// Six 18-hour runs of `wrf` six hours apart, two of `other`, and a copy of one `wrf`
  /// cube under a later run's name (equal headers: the listing's order breaks the tie).
  static func makeStore() throws -> (store: String, cubes: Int) {
    let store = SampleFiles.temporaryDirectory("point-question")
    let starts = ["2026-06-20_00", "2026-06-20_06", "2026-06-20_12", "2026-06-20_18", "2026-06-21_00", "2026-06-21_06"]
    for (index, start) in starts.enumerated() {
      try TestStores.publish(TestStores.spec(start: "\(start):00:00", hours: 18, seed: UInt64(index + 1)), into: store)
    }
    for (index, start) in ["2026-06-20_06", "2026-06-20_18"].enumerated() {
      try TestStores.publish(
        TestStores.spec(start: "\(start):00:00", hours: 18, seed: UInt64(index + 11)), into: store, model: "other")
    }
    try FileManager.default.copyItem(
      atPath: "\(store)/wrf/d01/2026062012.cube", toPath: "\(store)/wrf/d01/2026062013.cube")
    return (store, starts.count + 3)
  }

  /// For every hour and half hour of the question's times: the same answering cube and the
  /// same precipitation probability from the same members as the whole store's.
  static func expectSameAnswers(_ question: PointQuestion, store: String, whole: RunCatalog) throws {
    let limited = try ForecastStore(path: store, answering: question)
    let sources = try limited.catalog.sources(
      latitude: question.latitude, longitude: question.longitude, method: question.method)
    let all = try whole.sources(latitude: question.latitude, longitude: question.longitude, method: question.method)
    for time in stride(from: question.times.lowerBound, through: question.times.upperBound, by: 1800) {
      let at = UTC.iso8601(time)
      #expect(sources.source(at: time)?.cube.file.path == all.source(at: time)?.cube.file.path, "\(at)")
      // The answering cube answers every metric the whole store's does: it was opened whole,
      // not for the members' block alone.
      #expect(
        sources.source(at: time)?.cube.absentMetrics == all.source(at: time)?.cube.absentMetrics, "\(at)")
      guard question.probability else { continue }
      let (mine, theirs) = (sources.precipitationProbability(at: time), all.precipitationProbability(at: time))
      #expect(mine?.value == theirs?.value, "\(at)")
      #expect(
        mine?.members.map { sources.sources[$0].cube.file.path }
          == theirs?.members.map { all.sources[$0].cube.file.path }, "\(at)")
    }
  }

  @Test func everyTimeIsAnsweredAsTheWholeStoreAnswersIt() throws {
    let (store, _) = try Self.makeStore()
    defer { SampleFiles.remove(store) }
    let whole = try ForecastStore(path: store).catalog
    let start = try #require(UTC.parseWRF("2026-06-19_18:00:00"))
    for hour in stride(from: 0, through: 60, by: 3) {
      let from = start + Int64(hour) * 3600
      for span in [0, 1800, 5 * 3600, 30 * 3600] {
        for probability in [false, true] {
          let question = PointQuestion(
            latitude: Self.latitude, longitude: Self.longitude, method: .nearest, times: from...(from + Int64(span)),
            probability: probability)
          try Self.expectSameAnswers(question, store: store, whole: whole)
        }
      }
    }
  }

  @Test func aSingleTimeOpensOnlyTheAnsweringCubeAndItsProbabilityMembers() throws {
    let (store, cubes) = try Self.makeStore()
    defer { SampleFiles.remove(store) }
    // Every wrf run from 2026-06-20 06 UTC on covers it, as does the later `other` run.
    let time = try #require(UTC.parseWRF("2026-06-21_08:00:00"))
    let single = try ForecastStore(
      path: store,
      answering: PointQuestion(
        latitude: Self.latitude, longitude: Self.longitude, method: .nearest, times: time...time, probability: false))
    #expect(single.cubesOpened == 1)
    #expect(single.cubes.map(\.run) == ["2026062106"])
    let members = try ForecastStore(
      path: store,
      answering: PointQuestion(
        latitude: Self.latitude, longitude: Self.longitude, method: .nearest, times: time...time, probability: true))
    // The answering run and the two wrf runs before it that cover the time; the older ones
    // (the copy of 12 UTC included, which ends at 06 UTC) and the other model's are left
    // closed.
    #expect(members.cubesOpened == 3)
    #expect(members.cubes.map(\.run) == ["2026062106", "2026062100", "2026062018"])
    #expect(members.cubes.allSatisfy { $0.name == "wrf/d01" })
    #expect(try ForecastStore(path: store).cubesOpened == cubes)
  }

  /// A cube the question does not need is not verified: damaged, it changes nothing. One it
  /// needs, damaged, gives the whole store's error naming it.
  @Test func aDamagedCubeOutsideTheQuestionIsNotVerifiedAndOneInsideIsAnError() throws {
    let (store, _) = try Self.makeStore()
    defer { SampleFiles.remove(store) }
    let old = "\(store)/wrf/d01/2026062000.cube"
    var bytes = try Data(contentsOf: URL(fileURLWithPath: old))
    bytes[bytes.count - 1] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: old))
    let late = try #require(UTC.parseWRF("2026-06-21_08:00:00"))
    let question = { (time: Int64) in
      PointQuestion(
        latitude: Self.latitude, longitude: Self.longitude, method: .nearest, times: time...time, probability: true)
    }
    #expect(try ForecastStore(path: store, answering: question(late)).cubes.first?.run == "2026062106")
    let early = try #require(UTC.parseWRF("2026-06-20_03:00:00"))
    let error = #expect(throws: QueryError.self) { try ForecastStore(path: store, answering: question(early)) }
    #expect(error?.description.hasPrefix("\(old): corrupted") == true, "\(String(describing: error))")
  }
}
