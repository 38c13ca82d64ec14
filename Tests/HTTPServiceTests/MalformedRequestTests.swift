import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// Malformed requests from a seeded generator: each must get a 4xx with a JSON error body,
/// and the server must go on answering good requests. A failure names the request's index
/// and text; the same seed makes the same requests.
@Suite struct MalformedRequestTests {
  static let seed: UInt64 = 20_260_620
  static let count = 1_200

  /// An endpoint's good parameters, the parameters it requires, and bad values for each.
  struct Endpoint {
    let path: String
    let good: [(String, String)]
    let required: [String]
    /// Whether parameters the endpoint does not know are refused (the legacy endpoints
    /// ignore them, so that the app keeps working).
    let refusesUnknown: Bool
  }

  static let endpoints = [
    Endpoint(
      path: "/QuickPrevByDate.php", good: [("lat", "38.1294"), ("lon", "-8.9341"), ("date", "20260621_12")],
      required: ["lat", "lon", "date"], refusesUnknown: false),
    Endpoint(
      path: "/PrevByDateAndMetric.php",
      good: [("lat", "38.1294"), ("lon", "-8.9341"), ("metric", "temp"), ("date", "20260621")],
      required: ["lat", "lon", "metric", "date"], refusesUnknown: false),
    Endpoint(
      path: "/MedianPrevByDays.php",
      good: [("lat", "38.1294"), ("lon", "-8.9341"), ("date", "20260620"), ("days", "3")],
      required: ["lat", "lon", "date", "days"], refusesUnknown: false),
    Endpoint(
      path: "/PrevForNextHoursByMetric.php",
      good: [("lat", "38.1294"), ("lon", "-8.9341"), ("metric", "wind_dir"), ("date", "20260621_12")],
      required: ["lat", "lon", "metric", "date"], refusesUnknown: false),
    Endpoint(
      path: "/v1/forecast",
      good: [
        ("latitude", "38.1294"), ("longitude", "-8.9341"), ("hourly", "temp,rain"), ("daily", "temp_max"),
        ("current", "temp"), ("start_date", "2026-06-20"), ("end_date", "2026-06-22"), ("timezone", "Europe/Lisbon"),
        ("units", "si"), ("temperature_unit", "celsius"), ("wind_speed_unit", "kmh"), ("precipitation_unit", "mm"),
        ("pressure_unit", "hPa"), ("visibility_unit", "km"), ("method", "bilinear"), ("domain", "d01"),
        ("format", "json"),
      ],
      required: ["latitude", "longitude"], refusesUnknown: true),
  ]

  /// Values no parameter of its kind accepts.
  static let badNumbers = [
    "NaN", "nan", "-nan", "inf", "-inf", "+Infinity", "1e999", "-1e400", "1e309", "91", "-90.0001", "360.5", "-180.1",
    "99999999999999999999999", "", "abc", "0x1p3", "0x10", "1,2", "--5", "1e", ".", "-", "+", "38.1.2", "%2038.1",
    "38.1%00", "١٢", "3 8", "38,1294", "1_000",
  ]
  static let badDates = [
    "20131301_25", "20260230", "20260620_24", "2026062", "20260620_1", "2026-06-20", "", "99999999_99", "00000000",
    "20260620_-1", "20260620__1", "2026062O", "20261301", "20260632", "20260620T12", "+2026062", "２０２６０６２０",
  ]
  static let badHours = badDates + ["20260621"]
  static let badDays = ["8", "-1", "1.5", "", "99999999999999999999", "abc", "7e0", "0x3", "+-1", "3 ", "١"]
  static let badMetrics = ["temperature", "TEMP", "", "temp,rain", "wind", "Temp", "temp ", "%00", "rain_sum"]
  static let badForecastValues: [String: [String]] = [
    "latitude": badNumbers.filter { !$0.isEmpty } + ["38.1294,41.1", ","],
    "longitude": badNumbers.filter { !$0.isEmpty } + ["-8.9341,-8.6", ","],
    "hourly": ["temperature", "temp,,rain", ",", "temp,nope", "TEMP"],
    "daily": ["temp_mean", "nope", "temp_max,", "wind_dir_median", "sunrise_max"],
    "current": ["nope", "temp,", "Temp"],
    "timezone": ["Mars/Olympus", "Europe/Lisbon ", "+01:00", "%20"],
    "forecast_days": ["17", "-1", "1.5", "many", "99999999999999999999"],
    "past_days": ["17", "-1", "x"],
    "start_date": ["2026-13-01", "2026-02-30", "20260620", "2026-6-20", "", "2026-06-20T00:00"],
    "end_date": ["2026-06-19", "2026-07-20", "2026-06-31", "tomorrow"],
    "units": ["metric", "SI ", "imperial", ""],
    "temperature_unit": ["rankine", "c", ""],
    "wind_speed_unit": ["knots", "m/s", "bft"],
    "precipitation_unit": ["cm", "in"],
    "pressure_unit": ["bar", "atm"],
    "visibility_unit": ["metres", "nm"],
    "method": ["cubic", "Nearest", ""],
    "format": ["xml", "JSON", ""],
    "domain": ["d99", "", "../d01"],
  ]

  static func badValues(_ name: String, path: String) -> [String] {
    switch name {
    case "lat", "lon": badNumbers
    case "date": path.contains("ByMetric") && path.contains("Next") || path.contains("Quick") ? badHours : badDates
    case "days": badDays
    case "metric": badMetrics
    default: badForecastValues[name] ?? ["~"]
    }
  }

  /// Percent-encodes everything but unreserved characters, as a client would.
  static func encoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
      ?? text
  }

  static func target(_ path: String, _ parameters: [(String, String)]) -> String {
    parameters.isEmpty ? path : path + "?" + parameters.map { "\(encoded($0))=\(encoded($1))" }.joined(separator: "&")
  }

  /// One malformed request: a request line and head as bytes.
  static func malformed(_ random: inout TestRandom) -> [UInt8] {
    func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    func garbage(_ length: Int) -> String {
      String((0..<length).map { _ in Character(UnicodeScalar(UInt8(33 + random.next() % 94))) })
    }
    let endpoint = pick(endpoints)
    var parameters = endpoint.good
    var rawTarget: String?
    switch random.next() % 10 {
    case 0:  // a required parameter missing
      let name = pick(endpoint.required)
      parameters.removeAll { $0.0 == name }
    case 1:  // a parameter given twice, with the same or another value
      let (name, value) = pick(parameters)
      if endpoint.path == "/v1/forecast" {
        // Open-Meteo's API reads a repeat (a list gathers it, a single value takes the last):
        // only a bad last value is malformed there.
        parameters.append((name, pick(badValues(name, path: endpoint.path))))
      } else {
        parameters.insert((name, random.next() % 2 == 0 ? value : pick(badValues(name, path: endpoint.path))), at: 0)
      }
    case 2, 3, 4:  // a bad value
      let index = Int(random.next() % UInt64(parameters.count))
      let name = parameters[index].0
      parameters[index].1 = pick(badValues(name, path: endpoint.path))
    case 5:  // garbage instead of a value; `~` first, so it is never a good value by chance
      let index = Int(random.next() % UInt64(parameters.count))
      parameters[index].1 = "~" + garbage(Int(1 + random.next() % 40))
    case 6:  // malformed percent-encoding or bytes that are not UTF-8, unencoded into the query
      let index = Int(random.next() % UInt64(parameters.count))
      let broken = pick(["%", "%G1", "%F", "%FF", "%C3%28", "%ED%A0%80", "%E2%82", "%%", "%zz"])
      rawTarget =
        target(endpoint.path, Array(parameters.prefix(index))) + (index == 0 ? "?" : "&")
        + "\(parameters[index].0)=\(parameters[index].1)\(broken)"
    case 7:  // an over-long query string, up to the HTTP parser's limit and beyond it
      let length = pick([8_193, 9_000, 20_000, 60_000, 100_000])
      rawTarget = target(endpoint.path, parameters) + "&pad=" + String(repeating: "x", count: length)
    case 8:  // a parameter nwpcube does not know (where that is refused), or a path it does not serve
      if endpoint.refusesUnknown && random.next() % 2 == 0 {
        parameters.append((pick(["forecast_day", "lat", "models", "hourly_metric", garbage(8)]), "1"))
      } else {
        rawTarget = target(
          pick(["/index.html", "/QuickPrevByDate", "/quickprevbydate.php", "/v2/forecast", "/v1/forecasts"]), parameters
        )
      }
    default:  // a /v1/forecast limit: too many locations or days, mismatched lists
      let many = (0..<101).map { _ in "38.5" }.joined(separator: ",")
      rawTarget = pick([
        target(
          "/v1/forecast",
          [("latitude", many), ("longitude", many.replacingOccurrences(of: "38.5", with: "-8.5")), ("hourly", "temp")]),
        target(
          "/v1/forecast",
          [
            ("latitude", "38.1294"), ("longitude", "-8.9341"), ("hourly", "temp"), ("forecast_days", "16"),
            ("past_days", "1"),
          ]),
        target("/v1/forecast", [("latitude", "38.1294,41.1"), ("longitude", "-8.9341"), ("hourly", "temp")]),
        target("/v1/forecast", [("latitude", "38.1294"), ("longitude", "-8.9341")]),
        target(
          "/v1/forecast",
          [
            ("latitude", "38.1294"), ("longitude", "-8.9341"), ("hourly", "temp"), ("start_date", "2026-06-01"),
            ("end_date", "2026-06-30"),
          ]),
        target(
          "/v1/forecast",
          [
            ("latitude", "38.1294"), ("longitude", "-8.9341"), ("daily", "temp_max"), ("start_date", "2026-06-20"),
            ("forecast_days", "2"),
          ]),
      ])
    }
    let line = rawTarget ?? target(endpoint.path, parameters)
    // Now and then the request itself is not HTTP.
    if random.next() % 50 == 0 {
      return Array(
        pick(["GARBAGE\r\n\r\n", "GET \(line)\r\n\r\n", "GET \(line) HTTP/9.9\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n"]).utf8
      )
    }
    return Array("GET \(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
  }

  @Test func everyMalformedRequestGets4xxWithAJSONBodyAndTheServerStaysUp() async throws {
    let client = try await SampleService.server().client
    let good = "/QuickPrevByDate.php?lon=-8.9341&lat=38.1294&date=20260621_12"
    let statuses = try await MalformedRequestRun.send(Self.count, seed: Self.seed, to: client, good: good) {
      Self.malformed(&$0)
    }
    let after = try await client.get(good)
    #expect(after.status == 200 && after.body.hasPrefix(#"{"response":{"temp":"#))
    // Every kind of refusal was exercised.
    #expect(statuses.keys.contains(400) && statuses.keys.contains(404) && statuses.keys.contains(414), "\(statuses)")
  }

  /// Malformed keys on every route of a server that requires keys: an over-long key, an
  /// empty `apikey=`, a key given twice and other broken keys, each refused in its family's
  /// error shape with a message naming `apikey`; the server answers the right key after.
  @Test func everyMalformedKeyGets4xxNamingTheKeyInItsFamilysShape() async throws {
    let client = try await KeyedService.server().client
    let key = KeyedService.key("alice")
    let overLong = String(repeating: "k", count: 129)
    let huge = String(repeating: "k", count: 5_000)
    let missing = "apikey: missing; this server requires an API key: give it as the query parameter apikey"
    let empty = "apikey: empty; this server requires an API key: give it as the query parameter apikey"
    let twice = "apikey: given more than once; give each parameter once"
    let cases: [(key: String, status: Int, message: String)] = [
      ("apikey=\(overLong)", 401, "apikey: not a valid API key; it is 129 characters long, and keys have at most 128"),
      ("apikey=\(huge)", 401, "apikey: not a valid API key; it is 5000 characters long, and keys have at most 128"),
      ("apikey=", 401, empty),
      ("apikey", 401, empty),
      ("apikey=\(key)&apikey=\(key)", 400, twice),
      ("apikey=\(key)&apikey=\(KeyedService.wrongKey)", 400, twice),
      ("apikey=&apikey=\(key)", 400, twice),
      ("api%6Bey=\(key)&apikey=\(key)", 400, twice),
      // A key parameter's name is matched in any case (APIKEY is apikey), but not misspelt.
      ("apikeys=\(key)", 401, missing),
      ("apikey=%20\(key)", 401, "apikey: not a valid API key"),
      ("apikey=\(key)%00", 401, "apikey: not a valid API key"),
      ("apikey=%C3%A9\(key.dropFirst())", 401, "apikey: not a valid API key"),
      // Quoted without its value: a key is a secret, even a malformed one.
      (
        "apikey=\(key)%", 400,
        "the query string has malformed percent-encoding in 'apikey=(redacted)'; encode bytes as %XX with two "
          + "hexadecimal digits, in UTF-8"
      ),
      ("apikey=\(String(repeating: "k", count: 9_000))", 414, "the query string is "),
    ]
    let paths = Self.endpoints.map { Self.target($0.path, $0.good) } + ["/v1/runs", "/openapi.yaml"]
    for base in paths {
      for (keyPart, status, message) in cases {
        let target = base + (base.contains("?") ? "&" : "?") + keyPart
        let answer = try await client.get(target)
        let text = "\(target.prefix(200)) → \(answer.body.prefix(300))"
        #expect(answer.status == status, "\(text)")
        #expect(answer.mediaType == "application/json", "\(text)")
        let said = base.hasPrefix("/v1/") ? answer.openMeteoReason : answer.errorMessage
        #expect(status == 414 ? said?.hasPrefix(message) == true : said == message, "\(text)")
      }
      let good = try await client.get(base + (base.contains("?") ? "&" : "?") + "apikey=\(key)")
      #expect(good.status == 200, "\(base): \(good.body.prefix(300))")
    }
  }
}
