import CubeFormat
import Foundation
import Testing
import UTCTime
import _TestSupport

/// Why `precipitation_probability` is unavailable, through the real binary on real cubes:
/// a cube without rain lacked the model's rain; a cube with rain but without
/// `precip_neighbourhood` was written by an older ingest that skipped it on a large grid.
@Suite struct NeighbourhoodReasonTests {
  static let start: Int64 = UTC.seconds(year: 2026, month: 6, day: 20) ?? 0

  /// Publishes into `store` a 6 × 5 cube near Lisbon at 0.1° of the `metrics` named (temp
  /// and rain are the choices), three hourly steps from 01 UTC of a run started at 00 UTC.
  static func publish(_ metrics: [String], into store: String) throws {
    let (width, height) = (6, 5)
    let all = [
      "temp": CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.1, offset: -100),
      "rain": CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.1, offset: 0),
    ]
    let header = CubeHeader(
      width: width, height: height, stepCount: 3, firstTime: start + 3_600, stepSeconds: 3_600, runStart: start,
      model: "wrf", domain: "d01", gridSpacing: 11_000, projection: CubeProjection(code: 0, parameters: []),
      metrics: metrics.compactMap { all[$0] })
    let directory = "\(store)/wrf/d01"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let cells = 0..<(width * height)
    let writer = try CubeWriter(
      header: header, latitudes: cells.map { Float(38.5 + 0.1 * Double($0 / width)) },
      longitudes: cells.map { Float(-9.5 + 0.1 * Double($0 % width)) }, destination: "\(directory)/2026062000.cube")
    for (metric, name) in metrics.enumerated() {
      for step in 0..<3 {
        let values = cells.map { name == "temp" ? 20 + Double($0 % 7) : 0.1 * Double(($0 + step) % 4) }
        #expect(writer.write(metric: metric, step: step, values: values) == nil)
      }
    }
    _ = try writer.publish()
  }

  /// The reasons `query` and `forecast` give for `precipitation_probability` on the store.
  static func reasons(_ store: String) throws -> (query: String?, forecast: String?) {
    let query = try CommandLineTool.run([
      "query", "--store", store, "--lat", "38.7", "--lon", "-9.3", "--time", "2026-06-20T02:00:00Z", "--metrics",
      "temp,precipitation_probability",
    ])
    #expect(query.status == 0, "\(query.standardError)")
    let answer = try #require(try JSONSerialization.jsonObject(with: Data(query.standardOutput.utf8)) as? [String: Any])
    #expect((answer["values"] as? [String: Any])?["precipitation_probability"] is NSNull)
    let forecast = try CommandLineTool.run([
      "forecast", "--store", store, "--lat", "38.7", "--lon", "-9.3", "--start-date", "2026-06-20", "--days", "1",
      "--hourly", "temp,precipitation_probability",
    ])
    #expect(forecast.status == 0, "\(forecast.standardError)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(forecast.standardOutput.utf8)) as? [String: Any])
    return (
      (answer["unavailable"] as? [String: String])?["precipitation_probability"],
      (document["unavailable"] as? [String: String])?["precipitation_probability"]
    )
  }

  @Test func aCubeWithRainButNoNeighbourhoodSaysAnOlderIngestSkippedIt() throws {
    let directory = SampleFiles.temporaryDirectory("reason-skipped")
    defer { SampleFiles.remove(directory) }
    try Self.publish(["temp", "rain"], into: "\(directory)/store")
    let (query, forecast) = try Self.reasons("\(directory)/store")
    let reason =
      "not in this cube: it has rain, but the ingest that wrote it skipped precip_neighbourhood (earlier versions did on grids above about 500,000 cells); ingesting the run again computes it"
    #expect(query == reason)
    #expect(forecast == "\(reason); lacking in wrf/d01 2026062000")
    #expect(query?.contains("lacked") == false, "not the model output's fault")
  }

  @Test func aCubeWithoutRainSaysTheModelOutputLackedIt() throws {
    let directory = SampleFiles.temporaryDirectory("reason-norain")
    defer { SampleFiles.remove(directory) }
    try Self.publish(["temp"], into: "\(directory)/store")
    let (query, forecast) = try Self.reasons("\(directory)/store")
    let reason =
      "not in this cube: derived from RAINC or RAINNC, which the model output lacked (the ingest warning named the missing ones)"
    #expect(query == reason)
    #expect(forecast == "\(reason); lacking in wrf/d01 2026062000")
  }
}
