import Forecast
import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// A meteogram of a place the moving nest leaves (`MovingStore`): its series go on from the
/// parent without a gap, and the caption names both domains.
@Suite struct MovingMeteogramTests {
  /// Inside the nest's first position (steps 0 and 1) only: its later positions start
  /// east of 9.4° W.
  static let latitude = 38.7
  static let longitude = -9.46

  @Test func aPlaceTheNestLeavesHasAContinuousSeriesFromBothDomains() async throws {
    let client = try await MovingService.server().client
    let answer = try await client.get(
      "/v1/meteogram.svg?latitude=\(Self.latitude)&longitude=\(Self.longitude)&days=1&timezone=UTC"
        + "&start_date=2026-06-20")
    #expect(answer.status == 200, "\(answer.body.prefix(300))")
    let svg = try #require(XMLTree.parse(answer.body), "the meteogram is not well-formed XML")
    // Brute force: the nearest mass point of the nest's first position at steps 0 and 1,
    // of the parent from step 2 on, and the temperature there.
    var hours: [LocalHour] = []
    var values: [Double?] = []
    for step in 0..<MovingStore.steps {
      let inNest = MovingStore.stepPositions[step] == 0
      let grid = inNest ? MovingStore.nest(position: 0) : MovingStore.parent
      let cell = BruteForce.nearest(
        latitude: Self.latitude, longitude: Self.longitude, latitudes: grid.latitudes, longitudes: grid.longitudes
      ).index
      let value =
        MovingStore.temperature(
          latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]), step: step)
        + (inNest ? MovingStore.nestOffset : 0)
      hours.append(LocalHour(instant: MovingStore.firstTime + Int64(step) * 3_600, utcOffset: 0))
      values.append(value)
    }
    #expect(MovingStore.stepPositions[2] != 0 && MovingStore.nest(position: 1).west > Self.longitude + 0.05)
    // One point per hour of the run, every one at its domain's value (stored to 0.01 °C).
    try MeteogramEndpointTests.expectLine(
      svg, series: "temperature", axisID: "axis-temperature", hours: hours, values: values, tolerance: 0.006)
    let caption = try #require(svg.root.descendants.first { $0.attributes["id"] == "caption" }?.text)
    #expect(caption.contains("wrf/d02") && caption.contains("wrf/d01"), "\(caption)")
  }
}
