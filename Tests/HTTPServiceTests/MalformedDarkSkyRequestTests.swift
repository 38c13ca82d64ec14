import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// Malformed Dark Sky requests from a seeded generator: bad locations in the path, bad
/// query values, repeated or badly encoded parameters, over-long queries and paths of the
/// wrong shape. Each must get a 4xx with a body in Dark Sky's shape `{"code": …, "error":
/// "…"}`, and the server must go on answering good requests. A failure names the request's
/// index and text; the same seed makes the same requests.
@Suite struct MalformedDarkSkyRequestTests {
  static let seed: UInt64 = 20_261_124
  static let count = 600
  static let good = "/forecast/k/38.1294,-8.9341"
  static let goodQuery: [(String, String)] = [
    ("exclude", "minutely,alerts"), ("extend", "hourly"), ("units", "si"), ("lang", "en"),
  ]

  /// Locations the route refuses (400), or whose point or time no run answers (400/404).
  static let badLocations = [
    "abc", "91,0", "-91,0", "0,181", "0,-181", "1,2,3,4", ",", ",,", "38.1", "38.1,", ",-8.9", "nan,0", "0,inf",
    "1e999,0", "0x1p3,0", "38.1,-8.9,", "38.1,-8.9,abc", "38.1,-8.9,2026-13-01T00:00:00",
    "38.1,-8.9,2026-06-21T25:00:00", "38.1,-8.9,2026-06-21T12:00:00+25:00", "38.1,-8.9,2026-06-21T12:00",
    "38.1,-8.9,2026-06-21 12:00:00", "38.1,-8.9,99999999999999999999", "38.1,-8.9,2026-01-01T00:00:00Z",
    "38.1,-8.9,0", "38.1,-8.9,-1", "38.1;-8.9", "38.1 -8.9", "38,1294,-8,9341", "38.1,-8.9,1782043200,1",
    "60,40", "-45,120", "١٢,٣", "38.1,-8.9,2026-06-21T12:00:00+0100", "38.1,-8.9,+1782043200",
  ]
  static let badValues: [String: [String]] = [
    "exclude": ["weekly", "hourly,weekly", "HOURLY", "hourly;daily", " hourly", "currently,,x"],
    "extend": ["daily", "HOURLY", "", "1", "hourly,hourly"],
    "units": ["metric", "SI", "", "UK2", "imperial", "us "],
    "lang": ["fr", "EN", "", "pt-PT", "en_US"],
  ]

  static func path(_ location: String) -> String {
    "/forecast/k/"
      + (location.addingPercentEncoding(
        withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~,:+"))) ?? location)
  }

  /// One malformed request's target.
  static func malformed(_ random: inout TestRandom) -> String {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    func garbage(_ length: Int) -> String {
      String((0..<length).map { _ in Character(UnicodeScalar(UInt8(33 + random.next() % 94))) })
    }
    var parameters = Array(goodQuery.prefix(Int(random.next() % 5)))
    switch random.next() % 8 {
    case 0, 1:  // a bad location
      return MalformedRequestTests.target(path(pick(badLocations)), parameters)
    case 2:  // garbage as the location (never a pair of numbers: `~` first)
      return MalformedRequestTests.target(path("~" + garbage(Int(1 + random.next() % 30))), parameters)
    case 3:  // a bad value, or garbage, for a parameter
      let name = pick(["exclude", "extend", "units", "lang"])
      parameters.removeAll { $0.0 == name }
      let value = random.next() % 3 == 0 ? "~" + garbage(Int(1 + random.next() % 20)) : pick(badValues[name] ?? [])
      parameters.insert((name, value), at: Int(random.next() % UInt64(parameters.count + 1)))
      return MalformedRequestTests.target(good, parameters)
    case 4:  // a parameter given twice
      let (name, value) = pick(goodQuery)
      return MalformedRequestTests.target(good, parameters + [(name, value), (name, value)])
    case 5:  // malformed percent-encoding or bytes that are not UTF-8, in the query or the location
      let broken = pick(["%", "%G1", "%F", "%FF", "%C3%28", "%ED%A0%80", "%E2%82", "%%", "%zz"])
      return random.next() % 2 == 0
        ? MalformedRequestTests.target(good, parameters) + (parameters.isEmpty ? "?" : "&") + "units=si\(broken)"
        : "/forecast/k/38.1\(broken),-8.9"
    case 6:  // an over-long query string
      let length = pick([8_193, 9_000, 20_000, 60_000])
      return MalformedRequestTests.target(good, parameters) + (parameters.isEmpty ? "?" : "&") + "pad="
        + String(repeating: "x", count: length)
    default:
      // A path of the wrong shape under /forecast/ (a trailing slash alone is the route's, as
      // the router has it).
      return pick([
        "/forecast/", "/forecast/k", "/forecast/k/", "/forecast/k/38.1,-8.9/extra",
        "/forecast/k/38.1,-8.9/1782043200", "/forecast/k/l/38.1,-8.9",
      ])
    }
  }

  @Test func everyMalformedDarkSkyRequestGets4xxInDarkSkysShapeAndTheServerStaysUp() async throws {
    let client = try await SampleService.server().client
    var random = TestRandom(seed: Self.seed)
    var statuses: [Int: Int] = [:]
    for index in 0..<Self.count {
      let target = Self.malformed(&random)
      let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
      let answer = try await client.send(request)
      statuses[answer.status, default: 0] += 1
      let text = String(target.prefix(200))
      #expect((400..<500).contains(answer.status), "request \(index) (seed \(Self.seed)): \(text) → \(answer.status)")
      #expect(answer.mediaType == "application/json", "request \(index): \(text)")
      #expect(answer.darkSkyError?.isEmpty == false, "request \(index): \(text) → \(answer.body.prefix(300))")
      if index % 100 == 99 {
        let check = try await client.get(Self.good)
        #expect(check.status == 200, "a good request after \(index + 1) malformed ones")
      }
    }
    let after = try await client.get(Self.good)
    #expect(after.status == 200 && after.body.hasPrefix(#"{"latitude":38.1294,"longitude":-8.9341,"#))
    #expect(statuses.keys.contains(400) && statuses.keys.contains(404) && statuses.keys.contains(414), "\(statuses)")
  }
}
