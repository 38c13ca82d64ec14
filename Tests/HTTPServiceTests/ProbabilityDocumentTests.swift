import Forecast
import Foundation
import Meteorology
import NwpcubeFace
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

/// The forecast document names the runs each `precipitation_probability` averaged, by
/// their indices in `sources`, and adds nothing when the probability is not asked for.
@Suite struct ProbabilityDocumentTests {
  @Test func theDocumentListsEachHoursMembersAmongItsSources() throws {
    let store = SampleFiles.temporaryDirectory("probability-document")
    defer { SampleFiles.remove(store) }
    try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 12, seed: 1), into: store)
    try TestStores.publish(TestStores.spec(start: "2026-06-20_06:00:00", hours: 12, seed: 2), into: store)
    let forecaster = Forecaster(catalog: try ForecastStore(path: store).catalog)
    let request = ForecastRequest(latitude: 39.5, longitude: -8.0)
    let start = try #require(UTC.parseISO8601("2026-06-20T04:00:00Z"))
    let instants = (0..<4).map { start + Int64($0) * 3600 }  // 04:00 … 07:00
    let metrics: [Metric] = [.temp, .precipitationProbability]
    let hourly = try forecaster.hourly(request, metrics: metrics, instants: instants)
    let current = try forecaster.current(request, metrics: metrics, at: instants[3])
    let text = ForecastDocument(request: request, current: current, hourly: hourly).json()
    let json = try #require(try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let sources = try #require(json["sources"] as? [[String: Any]]).map { $0["run"] as? String ?? "" }
    let members = try #require(json["hourly_precipitation_probability_sources"] as? [[Int]])
    // 04:00 and 05:00: the first run alone; 06:00 ends the hour before the second run's
    // start, so the first alone again; 07:00: the second, then the first.
    #expect(
      members.map { $0.map { sources[$0] } } == [
        ["2026062000"], ["2026062000"], ["2026062000"], ["2026062006", "2026062000"],
      ])
    let hourlySources = try #require(json["hourly_sources"] as? [Int]).map { sources[$0] }
    #expect(hourlySources == ["2026062000", "2026062000", "2026062006", "2026062006"])
    let currentMembers = try #require(json["current_precipitation_probability_sources"] as? [Int])
    #expect(currentMembers.map { sources[$0] } == ["2026062006", "2026062000"])

    let plain = ForecastDocument(
      request: request, hourly: try forecaster.hourly(request, metrics: [.temp], instants: instants)
    ).json()
    #expect(!plain.contains("precipitation_probability"))
  }
}
