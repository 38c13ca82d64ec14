import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// Malformed requests to `/data/2.5/forecast` and `/data/2.5/weather` from a seeded
/// generator: each must get a 4xx with OpenWeatherMap's error body, `{"cod": "400",
/// "message": "…"}`, and the server must go on answering good requests.
@Suite struct MalformedOpenWeatherMapRequestTests {
  static let seed: UInt64 = 20_261_124
  static let count = 600

  static let paths = ["/data/2.5/forecast", "/data/2.5/weather"]
  static let places: [[(String, String)]] = [
    [("lat", "38.7167"), ("lon", "-9.1333")], [("q", "Lisboa")], [("q", "lisboa,PT")], [("id", "2267057")],
  ]
  static let options: [(String, String)] = [("units", "metric"), ("lang", "en"), ("mode", "json")]

  /// Values no parameter of its kind accepts.
  static let badValues: [String: [String]] = [
    "lat": MalformedRequestTests.badNumbers + ["91", "-91", "38,7"],
    "lon": MalformedRequestTests.badNumbers + ["181", "-180.5", "200"],
    "q": [
      "", ",", ",PT", "Lisboa,", "Lisboa,PRT", "Lisboa,P1", "Lisboa,PT,x", "Atlantis", "Lisb", " ",
      String(repeating: "x", count: 101), "Lisboa,ES", "%00",
    ],
    "id": ["", "abc", "-1", "0", "1.5", "99999999999999999999", "2267057.0", "1", "2147483648", " 2267057"],
    "cnt": ["0", "41", "-1", "abc", "", "1.5", "99999999999999999999"],
    "units": ["kelvin", "Metric", "si", "", "imperial "],
    "lang": ["de", "pt", "", "english", "en-US"],
    "mode": ["xml", "html", "", "JSON"],
  ]

  /// One malformed request: a request line and head as bytes.
  static func malformed(_ random: inout TestRandom) -> [UInt8] {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    func garbage(_ length: Int) -> String {
      String((0..<length).map { _ in Character(UnicodeScalar(UInt8(33 + random.next() % 94))) })
    }
    let path = pick(paths)
    let forecast = path.hasSuffix("forecast")
    var parameters = pick(places) + options + (forecast ? [("cnt", "8")] : [])
    var rawTarget: String?
    switch random.next() % 10 {
    case 0:  // no place, or half of one
      parameters.removeAll { ["lat", "lon", "q", "id"].contains($0.0) && (random.next() % 3 != 0 || $0.0 != "lon") }
      if !parameters.contains(where: { $0.0 == "lon" }), random.next() % 2 == 0 { parameters.append(("lat", "38.7")) }
    case 1:  // a parameter given twice, with the same or another value
      let (name, value) = pick(parameters)
      parameters.insert((name, random.next() % 2 == 0 ? value : pick(badValues[name] ?? ["~"])), at: 0)
    case 2, 3, 4:  // a bad value
      let index = Int(random.next() % UInt64(parameters.count))
      let name = parameters[index].0
      parameters[index].1 = pick(badValues[name] ?? ["~"])
    case 5:  // two ways of naming the place
      let others = places.filter { $0.first?.0 != parameters.first?.0 }
      parameters += pick(others)
    case 6:  // malformed percent-encoding or bytes that are not UTF-8, unencoded into the query
      let index = Int(random.next() % UInt64(parameters.count))
      let broken = pick(["%", "%G1", "%F", "%FF", "%C3%28", "%ED%A0%80", "%E2%82", "%%", "%zz"])
      rawTarget =
        MalformedRequestTests.target(path, Array(parameters.prefix(index))) + (index == 0 ? "?" : "&")
        + "\(parameters[index].0)=\(parameters[index].1)\(broken)"
    case 7:  // an over-long query string, up to the HTTP parser's limit and beyond it
      let length = pick([8_193, 9_000, 20_000, 60_000])
      rawTarget = MalformedRequestTests.target(path, parameters) + "&pad=" + String(repeating: "x", count: length)
    case 8:  // a parameter OpenWeatherMap's routes do not take (cnt on /weather), or garbage for one
      if random.next() % 2 == 0 {
        parameters.append(
          (pick(forecast ? ["exclude", "zip", "latitude", garbage(6)] : ["cnt", "exclude", "zip"]), "1"))
      } else {
        let index = Int(random.next() % UInt64(parameters.count))
        parameters[index].1 = "~" + garbage(Int(1 + random.next() % 40))
      }
    default:  // a point outside every domain, or paths near the routes
      if random.next() % 2 == 0 {
        rawTarget = MalformedRequestTests.target(
          path, [("lat", pick(["60", "-45", "0"])), ("lon", pick(["20", "100"]))])
      } else {
        rawTarget = MalformedRequestTests.target(
          pick(["/data/2.5/forecast/daily", "/data/2.5/onecall", "/data/2.5/Weather", "/data/2.5/"]), parameters)
      }
    }
    let line = rawTarget ?? MalformedRequestTests.target(path, parameters)
    if random.next() % 50 == 0 {
      return Array(pick(["GET \(line)\r\n\r\n", "GET \(line) HTTP/9.9\r\n\r\n"]).utf8)
    }
    return Array("GET \(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  }

  @Test func everyMalformedRequestGets4xxInOpenWeatherMapsShapeAndTheServerStaysUp() async throws {
    let client = try await OpenWeatherMapService.server().client
    let good = "/data/2.5/forecast?q=Lisboa&cnt=2"
    let statuses = try await MalformedRequestRun.send(
      Self.count, seed: Self.seed, to: client, good: good, make: { Self.malformed(&$0) }
    ) { answer, text in
      // A request the HTTP parser refuses never reaches a path, and gets nwpcube's own shape.
      text.contains(" HTTP/1.1\r\n")
        ? answer.openWeatherMapMessage : answer.openWeatherMapMessage ?? answer.errorMessage
    }
    let after = try await client.get(good)
    #expect(after.status == 200 && after.body.hasPrefix(#"{"cod":"200","message":0,"cnt":2,"#))
    #expect(statuses.keys.contains(400) && statuses.keys.contains(404) && statuses.keys.contains(414), "\(statuses)")
  }
}
