import Foundation
import Ingest
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// `snow_depth` through the HTTP service, from a GRIB run written here whose snow depth
/// (sde, 0/1/11) rises 0.1 m an hour: Open-Meteo's hourly and current `snow_depth` in
/// metres, in feet with `precipitation_unit=inch` (as Open-Meteo gives it), and nwpcube's own
/// forecast; and a missing metric's reason in GRIB parameters.
@Suite(.timeLimit(.minutes(3))) struct SnowDepthEndpointTests {
  static let runStart: Int64 = 1_782_000_000 - 1_782_000_000 % 86_400
  static let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (40, 0), width: 6, height: 5)

  /// The depth written for hour `hour` at every point, m.
  static func depth(_ hour: Int) -> Double { 0.3 + 0.1 * Double(hour) }

  @Test func openMeteoServesSnowDepthInMetresOrFeet() async throws {
    let directory = SampleFiles.temporaryDirectory("snow-depth-http")
    defer { SampleFiles.remove(directory) }
    let points = Self.grid.width * Self.grid.height
    var messages: [[UInt8]] = []
    for hour in 0...3 {
      messages.append(
        try GRIBWriter.message(
          GRIBTestField(
            parameter: (0, 1, 11), typeOfLevel: "surface", level: 0, reference: Self.runStart,
            step: .instant(hours: hour), values: Array(repeating: Self.depth(hour), count: points)), on: Self.grid))
    }
    let path = "\(directory)/snow.grib2"
    try GRIBWriter.write(messages, to: path)
    let store = "\(directory)/store"
    _ = try Ingestor.run([path], options: .init(store: store, model: "snowy"))
    let now = Self.runStart + 2 * 3600
    let server = try await LiveServer.start(ServiceSettings(store: store, clock: { now }))
    defer { Task { try? await server.stop() } }
    let day = String(UTC.iso8601(Self.runStart).prefix(10))

    for (units, label, scale) in [("mm", "m", 1.0), ("inch", "ft", 1 / 0.3048)] {
      let answer = try await server.client.get(
        "/v1/forecast?latitude=42&longitude=-5&hourly=snow_depth,temperature_2m&current=snow_depth"
          + "&precipitation_unit=\(units)&start_date=\(day)&end_date=\(day)")
      #expect(answer.status == 200, "\(answer.body)")
      let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
      #expect((document["hourly_units"] as? [String: Any])?["snow_depth"] as? String == label, "\(answer.body)")
      let hourly = try #require((document["hourly"] as? [String: Any])?["snow_depth"] as? [Any], "\(answer.body)")
      for hour in 0...3 {
        let value = try #require(hourly[hour] as? Double, "hour \(hour): \(answer.body)")
        #expect(abs(value - Self.depth(hour) * scale) <= 0.0051 * scale + 0.005, "\(units) hour \(hour): \(value)")
      }
      // The current quarter hour ends at 02:00: the depth written then.
      let current = try #require((document["current"] as? [String: Any])?["snow_depth"] as? Double, "\(answer.body)")
      #expect(abs(current - Self.depth(2) * scale) <= 0.0051 * scale + 0.005, "\(units) current: \(current)")
      // The run has no temperature: the reason names the GRIB parameter.
      let unavailable = try #require(document["unavailable"] as? [String: Any], "\(answer.body)")
      let reason = try #require(unavailable["temp"] as? String, "\(unavailable)")
      #expect(reason.contains("2t (0/0/0 heightAboveGround 2)") && !reason.contains("T2"), "\(reason)")
    }
  }
}
