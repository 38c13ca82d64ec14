import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// The HTTP APIs over a run whose d02 moves: each hour comes from d02 where its grid holds
/// the point at that hour and the hour before, and from d01 where it has moved away or has
/// just arrived (its leading edge, without rain), and the answer says which.
@Suite struct MovingNestEndpointTests {
  /// 38.6, −9.45: in d02's first and third positions (steps 0–1 and 4–5), not its second
  /// (steps 2–3 and 6–7); step 4 is the first of a return, so d01 answers it.
  static let (latitude, longitude) = (38.6, -9.45)
  static let domains = ["d02", "d02", "d01", "d01", "d01", "d02", "d01", "d01"]

  @Test func openMeteoNamesTheDomainOfEachHourAndLegacyPointsFollowIt() async throws {
    let directory = SampleFiles.temporaryDirectory("moving-endpoint")
    defer { SampleFiles.remove(directory) }
    let (outer, nest) = try MovingGridSpec.nestedRun(into: directory)
    let now = nest.firstTime
    let server = try await LiveServer.start(ServiceSettings(store: directory, clock: { now }))
    defer { Task { try? await server.stop() } }
    let expected = Self.domains.enumerated().map { step, domain in
      (domain == "d02" ? nest : outer).nearestTemperature(
        latitude: Self.latitude, longitude: Self.longitude, step: step)
    }
    let forecast = try await server.client.get(
      "/v1/forecast?latitude=\(Self.latitude)&longitude=\(Self.longitude)&hourly=temperature_2m"
        + "&start_date=2026-06-20&end_date=2026-06-20")
    #expect(forecast.status == 200, "\(forecast.body)")
    let document = try #require(try JSONSerialization.jsonObject(with: Data(forecast.body.utf8)) as? [String: Any])
    let sources = try #require(document["sources"] as? [[String: Any]])
    let indices = try #require(document["hourly_sources"] as? [Any])
    let named = indices.prefix(8).map { index in (index as? Int).map { sources[$0]["domain"] as? String } ?? nil }
    #expect(named == Self.domains, "\(forecast.body)")
    let temps = try #require((document["hourly"] as? [String: Any])?["temperature_2m"] as? [Any])
    for (hour, value) in expected.enumerated() {
      #expect(abs((temps[hour] as? Double ?? .nan) - value) < 0.06, "hour \(hour): \(temps[hour]) vs \(value)")
    }
    // The legacy app's day of temperatures: the same values, hour by hour.
    let legacy = try await server.client.get(
      "/PrevByDateAndMetric.php?lat=\(Self.latitude)&lon=\(Self.longitude)&metric=temp&date=20260620")
    #expect(legacy.status == 200, "\(legacy.body)")
    let response = try #require(
      (try JSONSerialization.jsonObject(with: Data(legacy.body.utf8)) as? [String: Any])?["response"]
        as? [String: Any])
    let points = try #require(response["points"] as? [Any])
    for (hour, value) in expected.enumerated() {
      #expect(abs((points[hour] as? Double ?? .nan) - value) < 0.06, "hour \(hour): \(points[hour]) vs \(value)")
    }
  }
}
