import Foundation
import Ingest
import PointQuery
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// One store holding a GRIB run and a WRF NetCDF run of the same area and the same start:
/// the real WRF sample (Lambert, 30 km, 2005-09-20 12 UTC) and a GRIB2 field written here
/// over a larger area at 0.5° (about 50 km), 40 K colder than anything WRF has. Inside the
/// WRF domain every API answers from it, the finer; outside it, from the GRIB run; and the
/// answers name the domain.
@Suite(.timeLimit(.minutes(3))) struct MixedGRIBStoreTests {
  /// The run both start: 2005-09-20 12 UTC; the WRF file holds 00–09 UTC of the next day.
  static let runStart: Int64 = 1_127_217_600
  static let now = runStart + 12 * 3600
  /// Inside the WRF domain, and inside the GRIB grid only.
  static let (inner, outer) = ((latitude: 30.1, longitude: 86.9), (latitude: 27.0, longitude: 83.0))

  /// The store and the two cubes.
  static func store(in directory: String) throws -> (store: String, wrf: Cube, grib: Cube) {
    let store = "\(directory)/store"
    let wrf = try Ingestor.run([SampleFiles.allvars], options: .init(store: store, model: "salem"))
    let grid = GRIBTestGrid.regularLatLon(first: (34, 82), last: (26, 92), width: 21, height: 17)
    let points = grid.width * grid.height
    var messages: [[UInt8]] = []
    for hour in stride(from: 12, through: 21, by: 3) {
      let fields: [GRIBTestField] = [
        .temperature(reference: runStart, hours: hour, values: (0..<points).map { 233.15 + Double($0) * 0.01 }),
        .wind("u", reference: runStart, hours: hour, values: Array(repeating: 3, count: points)),
        .wind("v", reference: runStart, hours: hour, values: Array(repeating: 4, count: points)),
        .seaLevelPressure(reference: runStart, hours: hour, values: Array(repeating: 101_000, count: points)),
      ]
      messages += try fields.map { field throws(GRIBWriterError) in try GRIBWriter.message(field, on: grid) }
    }
    let path = "\(directory)/coarse.grib2"
    try GRIBWriter.write(messages, to: path)
    let grib = try Ingestor.run([path], options: .init(store: store, model: "coarse"))
    return (
      store, try Cube(path: try #require(wrf.published.first).path),
      try Cube(path: try #require(grib.published.first).path)
    )
  }

  /// The temperature a cube holds at the nearest cell to `point`, at `time`.
  static func temperature(
    _ cube: Cube, _ point: (latitude: Double, longitude: Double), _ time: Int64
  ) throws
    -> Double
  {
    let location = try cube.locate(latitude: point.latitude, longitude: point.longitude, method: .nearest)
    return try #require(try cube.value(try cube.metric("temp"), at: location, time: time))
  }

  @Test func everyAPIAnswersFromTheFinestDomainAndSaysWhich() async throws {
    let directory = SampleFiles.temporaryDirectory("mixed-grib")
    defer { SampleFiles.remove(directory) }
    let (store, wrf, grib) = try Self.store(in: directory)
    #expect(wrf.header.gridSpacing < grib.header.gridSpacing, "\(wrf.header.gridSpacing) \(grib.header.gridSpacing)")
    let (wrfName, gribName) = ("salem/\(wrf.header.domain)", "coarse/\(grib.header.domain)")
    let now = Self.now
    let server = try await LiveServer.start(ServiceSettings(store: store, clock: { now }))
    defer { Task { try? await server.stop() } }

    // Open-Meteo: the hours 00–09 UTC at each point, and the domain of each hour.
    for (point, cube, model) in [(Self.inner, wrf, "salem"), (Self.outer, grib, "coarse")] {
      let answer = try await server.client.get(
        "/v1/forecast?latitude=\(point.latitude)&longitude=\(point.longitude)&hourly=temperature_2m"
          + "&start_date=2005-09-21&end_date=2005-09-21")
      #expect(answer.status == 200, "\(answer.body)")
      let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
      let sources = try #require(document["sources"] as? [[String: Any]], "\(answer.body)")
      let indices = try #require(document["hourly_sources"] as? [Any])
      let temperatures = try #require((document["hourly"] as? [String: Any])?["temperature_2m"] as? [Any])
      for hour in stride(from: 0, through: 9, by: 3) {
        let source = try #require(indices[hour] as? Int, "hour \(hour): \(answer.body)")
        #expect(sources[source]["model"] as? String == model, "hour \(hour): \(sources[source])")
        #expect(sources[source]["domain"] as? String == cube.header.domain)
        let expected = try Self.temperature(cube, point, Self.now + Int64(hour) * 3600)
        #expect(abs((temperatures[hour] as? Double ?? .nan) - expected) < 0.051, "hour \(hour) at \(point)")
      }
    }

    // Dark Sky's Time Machine: the value and `flags.sources` of the finer domain inside it.
    let time = Self.now + 3 * 3600
    for (point, cube, name) in [(Self.inner, wrf, wrfName), (Self.outer, grib, gribName)] {
      let answer = try await server.client.get(
        "/forecast/k/\(point.latitude),\(point.longitude),\(time)?units=si&exclude=minutely,hourly,daily,alerts")
      #expect(answer.status == 200, "\(answer.body)")
      let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
      let sources = try #require((document["flags"] as? [String: Any])?["sources"] as? [String], "\(answer.body)")
      #expect(sources.allSatisfy { $0.hasPrefix(name + " ") } && !sources.isEmpty, "\(sources)")
      let current = try #require((document["currently"] as? [String: Any])?["temperature"] as? Double)
      #expect(abs(current - (try Self.temperature(cube, point, time))) < 0.051, "\(point)")
    }

    // OpenWeatherMap's current weather (now is 00 UTC): the finer domain's temperature.
    // Its documents have no field that names a source.
    for (point, cube) in [(Self.inner, wrf), (Self.outer, grib)] {
      let answer = try await server.client.get(
        "/data/2.5/weather?lat=\(point.latitude)&lon=\(point.longitude)&units=metric")
      #expect(answer.status == 200, "\(answer.body)")
      let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
      let temperature = try #require((document["main"] as? [String: Any])?["temp"] as? Double, "\(answer.body)")
      #expect(abs(temperature - (try Self.temperature(cube, point, Self.now))) < 0.051, "\(point)")
    }
  }
}
