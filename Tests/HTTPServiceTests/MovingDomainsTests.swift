import Foundation
import HTTPService
import Testing
import UTCTime
import _TestSupport

/// `GET /v1/domains` over a store with a moving nest (`MovingStore`): the nest's extent at
/// the time asked for, and every position with its times.
@Suite struct MovingDomainsTests {
  static func domains(_ query: String = "") async throws -> [[String: Any]] {
    let answer = try await MovingService.server().client.get("/v1/domains" + query)
    #expect(answer.status == 200, "\(query): \(answer.body)")
    let object = try #require(answer.json as? [String: Any])
    return try #require(object["domains"] as? [[String: Any]])
  }

  /// The extent of a grid's cell centres, as the route rounds it.
  static func extent(_ grid: MovingStore.Grid) -> [String: Double] {
    func rounded(_ value: Float?) -> Double { (Double(value ?? .nan) * 10_000).rounded() / 10_000 }
    return [
      "south": rounded(grid.latitudes.min()), "north": rounded(grid.latitudes.max()),
      "west": rounded(grid.longitudes.min()), "east": rounded(grid.longitudes.max()),
    ]
  }

  static func expectExtent(_ domain: [String: Any], _ grid: MovingStore.Grid, _ what: String) {
    for (key, value) in extent(grid) {
      #expect(
        abs((domain[key] as? Double ?? .nan) - value) < 1e-9,
        "\(what) \(key): \(domain[key] ?? "none") against \(value)")
    }
  }

  static func nest(_ domains: [[String: Any]]) throws -> [String: Any] {
    try #require(domains.first { $0["model_domain"] as? String == "wrf/d02" })
  }

  @Test func theNestIsWhereItIsAtTheTimeAsked() async throws {
    for step in 0..<MovingStore.steps {
      // Whole steps, and half an hour later (the step holding the time).
      for minutes in [0, 30] {
        let time = MovingStore.firstTime + Int64(step * 3_600 + minutes * 60)
        let text = String(UTC.iso8601(time).prefix(16)) + "Z"
        let domains = try await Self.domains("?time=\(text)")
        let nest = try Self.nest(domains)
        Self.expectExtent(nest, MovingStore.nest(position: MovingStore.stepPositions[step]), "d02 at \(text)")
        #expect(nest["time"] as? String == UTC.iso8601(MovingStore.firstTime + Int64(step) * 3_600))
        let parent = try #require(domains.first { $0["model_domain"] as? String == "wrf/d01" })
        Self.expectExtent(parent, MovingStore.parent, "d01 at \(text)")
        #expect(parent["positions"] == nil, "a grid that does not move lists no positions")
      }
    }
  }

  @Test func everyPositionIsListedWithItsTimes() async throws {
    let nest = try Self.nest(try await Self.domains())
    let positions = try #require(nest["positions"] as? [[String: Any]])
    #expect(positions.count == MovingStore.shifts.count)
    for (index, position) in positions.enumerated() {
      Self.expectExtent(position, MovingStore.nest(position: index), "position \(index)")
      let times = MovingStore.stepPositions.indices.filter { MovingStore.stepPositions[$0] == index }.map {
        UTC.iso8601(MovingStore.firstTime + Int64($0) * 3_600)
      }
      #expect(position["times"] as? [String] == times, "position \(index)")
    }
  }

  /// Without `time`, now; outside the run, its nearest end.
  @Test func theTimeDefaultsToNowAndIsClampedIntoTheRun() async throws {
    Self.expectExtent(try Self.nest(try await Self.domains()), MovingStore.nest(position: 3), "now")
    Self.expectExtent(
      try Self.nest(try await Self.domains("?time=2026-06-19T12:00Z")), MovingStore.nest(position: 0), "before")
    Self.expectExtent(
      try Self.nest(try await Self.domains("?time=2026-07-01T00:00Z")), MovingStore.nest(position: 3), "after")
  }

  @Test func aBadTimeIsRefusedNamingTheParameter() async throws {
    for query in ["?time=yesterday", "?time=2026-06-20", "?when=2026-06-20T00:00Z"] {
      let answer = try await MovingService.server().client.get("/v1/domains" + query)
      #expect(answer.status == 400, "\(query)")
      #expect(answer.body.contains(query.contains("when") ? "when" : "time"), "\(query): \(answer.body)")
    }
  }
}
