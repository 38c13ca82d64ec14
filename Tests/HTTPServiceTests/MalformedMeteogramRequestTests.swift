import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// Malformed requests to `/v1/meteogram.svg` from a seeded generator: each gets a 4xx with
/// Open-Meteo's error body (`{"error": true, "reason": "…"}`, as every `/v1/` path), and
/// the server goes on answering; and one of each kind with the message it must carry.
@Suite struct MalformedMeteogramRequestTests {
  static let seed: UInt64 = 20_261_125
  static let count = 400
  static let good: [(String, String)] = [
    ("latitude", "38.1294"), ("longitude", "-8.9341"), ("days", "3"), ("timezone", "Europe/Lisbon"),
    ("units", "metric"), ("format", "svg"),
  ]
  static let badValues: [String: [String]] = [
    "latitude": MalformedRequestTests.badNumbers.filter { !$0.isEmpty } + ["38.1294,41.1"],
    "longitude": MalformedRequestTests.badNumbers.filter { !$0.isEmpty } + ["-8.9341,-8.6"],
    "days": ["0", "8", "99", "-1", "1.5", "", "three", "99999999999999999999", "3 "],
    "timezone": ["Mars/Olympus", "Europe/Lisbon ", "+01:00", "", "%20"],
    "units": ["si", "Metric", "", "us", "imperial ", "kelvin"],
    "format": ["jpeg", "SVG", "", "png ", "pdf", "gif"],
    "start_date": ["2026-13-01", "yesterday", "", "2026-06-21T00:00", "21/06/2026"],
  ]

  static func malformed(_ random: inout TestRandom) -> [UInt8] {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    func garbage(_ length: Int) -> String {
      String((0..<length).map { _ in Character(UnicodeScalar(UInt8(33 + random.next() % 94))) })
    }
    let path = MeteogramRoute.path
    var parameters = good
    var rawTarget: String?
    let index = Int(random.next() % UInt64(parameters.count))
    switch random.next() % 9 {
    case 0:  // a coordinate missing, or both
      let names = random.next() % 3 == 0 ? ["latitude", "longitude"] : [pick(["latitude", "longitude"])]
      parameters.removeAll { names.contains($0.0) }
    case 1:  // a parameter given twice
      parameters.insert(parameters[index], at: 0)
    case 2, 3:  // a bad value
      parameters[index].1 = pick(badValues[parameters[index].0] ?? ["~"])
    case 4:  // garbage; `~` first, so it is never a good value by chance
      parameters[index].1 = "~" + garbage(Int(1 + random.next() % 40))
    case 5:  // malformed percent-encoding or bytes that are not UTF-8
      let broken = pick(MalformedRequestRun.brokenEncodings)
      rawTarget = MalformedRequestRun.target(path, parameters, breaking: index, with: broken)
    case 6:  // an over-long query string
      rawTarget = MalformedRequestRun.target(path, parameters, padding: pick(MalformedRequestRun.overlongPadding))
    case 7:  // a parameter the route does not take
      parameters.append((pick(["hourly", "lat", "lon", "forecast_days", "domain", garbage(8)]), "1"))
    default:  // a point outside every domain
      parameters[0].1 = pick(["0", "-45", "89.9", "60"])
      parameters[1].1 = pick(["0", "120", "-170", "359.9"])
    }
    let line = rawTarget ?? MalformedRequestTests.target(path, parameters)
    return Array("GET \(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  }

  @Test func everyMalformedMeteogramRequestGets4xxInOpenMeteosShapeAndTheServerStaysUp() async throws {
    let client = try await SampleService.server().client
    let good = MalformedRequestTests.target(MeteogramRoute.path, Self.good)
    let statuses = try await MalformedRequestRun.send(
      Self.count, seed: Self.seed, to: client, good: good, make: { Self.malformed(&$0) },
      message: { answer, _ in answer.openMeteoReason })
    #expect(statuses.keys.contains(400) && statuses.keys.contains(404) && statuses.keys.contains(414), "\(statuses)")
  }

  /// One request of each kind, with the status and the words its message must hold: the
  /// parameter at fault and what it accepts.
  @Test(arguments: [
    ("latitude=91&longitude=-8.9341", 400, ["latitude", "−90…90"]),
    ("latitude=abc&longitude=-8.9341", 400, ["latitude", "not a decimal number"]),
    ("longitude=-8.9341", 400, ["latitude", "missing"]),
    ("latitude=38.1294&longitude=nan", 400, ["longitude", "not a decimal number"]),
    ("latitude=38.1294&longitude=-8.9341&days=0", 400, ["days", "out of range", "1…7"]),
    ("latitude=38.1294&longitude=-8.9341&days=99", 400, ["days", "out of range", "1…7"]),
    ("latitude=38.1294&longitude=-8.9341&timezone=Mars/Olympus", 400, ["timezone", "Mars/Olympus"]),
    ("latitude=38.1294&longitude=-8.9341&units=si", 400, ["units", "metric or imperial"]),
    ("latitude=38.1294&longitude=-8.9341&format=jpeg", 400, ["format", "svg or png"]),
    ("latitude=38.1294&longitude=-8.9341&start_date=2026-13-01", 400, ["start_date", "yyyy-MM-dd"]),
    ("latitude=38.1294&longitude=-8.9341&hourly=temp", 400, ["hourly", "unknown parameter"]),
    ("latitude=60&longitude=40", 404, ["outside"]),
  ])
  func eachBadParameterIsNamedInItsError(query: String, status: Int, words: [String]) async throws {
    let client = try await SampleService.server().client
    let answer = try await client.get("\(MeteogramRoute.path)?\(query)")
    #expect(answer.status == status, "\(query) → \(answer.status) \(answer.body.prefix(300))")
    #expect(answer.mediaType == "application/json")
    let reason = try #require(answer.openMeteoReason, "\(query) → \(answer.body.prefix(300))")
    for word in words {
      #expect(reason.contains(word), "\(query): '\(reason)' does not say \(word)")
    }
  }
}
