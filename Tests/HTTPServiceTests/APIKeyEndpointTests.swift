import Foundation
import Testing

@testable import HTTPService

/// Servers with `--keys`: every route and every family refuses no key and a wrong key with
/// 401 in its own error shape and answers the right key as a server without keys does; the
/// probes never need a key; the legacy exemption; counting by key name; the rate limit.
@Suite struct APIKeyEndpointTests {
  enum Shape {
    case nwpcube, openMeteo, openWeatherMap

    /// The query parameter the family's clients put the key in.
    var keyParameter: String { self == .openWeatherMap ? "appid" : "apikey" }
  }

  /// One request per route, and one for a path without a route, with the error shape of
  /// its family.
  static let targets: [(target: String, shape: Shape)] =
    MalformedRequestTests.endpoints.filter { !$0.path.hasPrefix("/v1/") }.map {
      (MalformedRequestTests.target($0.path, $0.good), .nwpcube)
    } + [
      ("/v1/forecast?latitude=38.1294&longitude=-8.9341&hourly=temp&daily=temp_max", .openMeteo),
      ("/v1/runs", .openMeteo), ("/v1/search?name=lisboa", .openMeteo), ("/openapi.yaml", .nwpcube),
      ("/v1/alerts?latitude=38.1294&longitude=-8.9341", .openMeteo),
      ("/v1/alerts.cap?latitude=38.1294&longitude=-8.9341", .openMeteo),
      ("/v1/meteogram.svg?latitude=38.1294&longitude=-8.9341&days=1&timezone=Europe/Lisbon", .openMeteo),
      ("/no-such-path?x=1", .nwpcube),
      ("/data/2.5/forecast?lat=38.7167&lon=-9.1333&cnt=2", .openWeatherMap),
      ("/data/2.5/weather?q=Lisboa", .openWeatherMap),
      ("/v1/tiles/temp/2026-06-21T12:00Z/8/121/98.png", .openMeteo), ("/v1/legend/rain.svg", .openMeteo),
      ("/v1/domains", .openMeteo),
    ]

  /// Whether the answer to `target` says how long it took (`generationtime_ms`), so that two
  /// answers differ in that number alone; every other answer must be the same bytes.
  static func carriesItsTime(_ target: String) -> Bool {
    target.hasPrefix("/v1/forecast") || target.hasPrefix("/v1/search")
  }

  static let missing = "apikey: missing; this server requires an API key: give it as the query parameter apikey"
  static let unknown = "apikey: not a valid API key"

  /// `missing` and `unknown` as `shape` says them: OpenWeatherMap's name the key `appid`
  /// and start as OpenWeatherMap's own 401 does.
  static func missing(_ shape: Shape) -> String {
    shape == .openWeatherMap
      ? "Invalid API key. appid: missing; this server requires an API key: give it as the query parameter appid"
      : missing
  }

  static func unknown(_ shape: Shape) -> String {
    shape == .openWeatherMap ? "Invalid API key. appid: not a valid API key" : unknown
  }

  /// The message of an error in `shape`, nil when the body is not one.
  static func message(_ answer: HTTPTestResponse, _ shape: Shape) -> String? {
    switch shape {
    case .openMeteo: answer.openMeteoReason
    case .openWeatherMap: answer.openWeatherMapMessage
    case .nwpcube: answer.errorMessage
    }
  }

  @Test func everyRouteAndFamilyRefusesNoKeyAndWrongKeysAndAnswersTheRightKeyAsAnOpenServerDoes() async throws {
    let keyed = try await KeyedService.server().client
    let open = try await SampleService.server().client
    let alice = KeyedService.key("alice")
    let wrong = [KeyedService.wrongKey, String(alice.dropLast()), alice + "x", KeyedService.key("alice").uppercased()]
    // Every route is here, bar the probes, which need no key, and Dark Sky's, whose key is a
    // path segment (DarkSkyEndpointTests).
    let paths = Self.targets.map { String($0.target.prefix { $0 != "?" }) }
    for route in try RouteTableTests.routedPaths().subtracting(APIFamily.exemptPaths).subtracting([DarkSkyRoute.path]) {
      #expect(paths.contains { RoutePattern.matches($0, template: route) }, "no target for \(route)")
    }
    for (target, shape) in Self.targets {
      let none = try await keyed.get(target)
      #expect(none.status == 401 && none.mediaType == "application/json", "\(target): \(none.body)")
      #expect(Self.message(none, shape) == Self.missing(shape), "\(target): \(none.body)")
      // Every 401 carries the challenge HTTP requires, naming the parameter the key goes in.
      let challenge = #"APIKey realm="nwpcube", parameter="\#(shape.keyParameter)""#
      #expect(none.headers["www-authenticate"] == challenge, "\(target): \(none.headers)")
      for key in wrong {
        let refused = try await keyed.get(KeyedService.target(target, key: key, parameter: shape.keyParameter))
        #expect(refused.status == 401, "\(target) \(key): \(refused.body)")
        #expect(refused.headers["www-authenticate"] == challenge, "\(target) \(key)")
        #expect(Self.message(refused, shape) == Self.unknown(shape), "\(target) \(key): \(refused.body)")
      }
      for name in ["alice", "bob"] {
        let answered = try await keyed.get(
          KeyedService.target(target, key: KeyedService.key(name), parameter: shape.keyParameter))
        let expected = try await open.get(target)
        #expect(answered.status == expected.status, "\(target) \(name): \(answered.body.prefix(300))")
        if !Self.carriesItsTime(target) { #expect(answered.body == expected.body, "\(target) \(name)") }
      }
    }
    // The key given first or in the middle of the query is taken out just as well: the
    // forecast route refuses parameters it does not know, apikey among them.
    let first = try await keyed.get("/v1/forecast?apikey=\(alice)&latitude=38.1294&longitude=-8.9341&hourly=temp")
    #expect(first.status == 200, "\(first.body.prefix(300))")
    let encodedName = try await keyed.get(
      "/v1/forecast?latitude=38.1294&api%6Bey=\(alice)&longitude=-8.9341&hourly=temp")
    #expect(encodedName.status == 200, "\(encodedName.body.prefix(300))")
  }

  @Test func aKeyParametersNameIsMatchedWhateverItsCase() async throws {
    // pyowm sends OpenWeatherMap's appid as APPID.
    let keyed = try await KeyedService.server().client
    let alice = KeyedService.key("alice")
    for (target, shape) in Self.targets where shape == .openWeatherMap || shape == .openMeteo {
      let lower = try await keyed.get(KeyedService.target(target, key: alice, parameter: shape.keyParameter))
      for name in [shape.keyParameter.uppercased(), shape.keyParameter.capitalized] {
        let other = try await keyed.get(KeyedService.target(target, key: alice, parameter: name))
        #expect(other.status == lower.status && other.status != 401, "\(name): \(target): \(other.body.prefix(200))")
        if !Self.carriesItsTime(target) { #expect(other.body == lower.body, "\(name): \(target)") }
      }
    }
  }

  /// Open-Meteo's clients may send the key as the `x-api-key` header, which wins over the
  /// parameter, or in a posted form; a wrong one in either place is refused.
  @Test func anOpenMeteoKeyMayComeAsTheHeaderOrInAPostedForm() async throws {
    let keyed = try await KeyedService.server().client
    let alice = KeyedService.key("alice")
    let query = "latitude=38.1294&longitude=-8.9341&hourly=temperature_2m&start_date=2026-06-21&end_date=2026-06-21"
    let header = try await keyed.get("/v1/forecast?\(query)", headers: ["X-API-Key: \(alice)"])
    #expect(header.status == 200, "\(header.body.prefix(200))")
    let wins = try await keyed.get(
      "/v1/forecast?\(query)&apikey=\(KeyedService.wrongKey)", headers: ["x-api-key: \(alice)"])
    #expect(wins.status == 200, "\(wins.body.prefix(200))")
    let wrong = try await keyed.get(
      "/v1/forecast?\(query)&apikey=\(alice)", headers: ["x-api-key: \(KeyedService.wrongKey)"])
    #expect(wrong.status == 401)
    #expect(wrong.openMeteoReason == "apikey: not a valid API key")
    let posted = try await keyed.post("/v1/forecast", body: "\(query)&apikey=\(alice)")
    #expect(posted.status == 200, "\(posted.body.prefix(200))")
    let postedWrong = try await keyed.post("/v1/forecast?apikey=\(alice)", body: query)
    #expect(postedWrong.status == 401, "a POST reads its body only: \(postedWrong.body.prefix(200))")
  }

  @Test func theProbesNeverNeedAKey() async throws {
    let keyed = try await KeyedService.server().client
    for path in [ServiceRoutes.healthPath, ServiceRoutes.metricsPath] {
      for target in [path, KeyedService.target(path, key: KeyedService.wrongKey), path + "?apikey="] {
        let answer = try await keyed.get(target)
        #expect(answer.status == 200, "\(target): \(answer.body.prefix(200))")
      }
    }
  }

  @Test func theLegacyExemptionAnswersTheAppWithoutAKeyAndGuardsTheRest() async throws {
    let exempt = try await KeyedService.server(exemptLegacy: true).client
    let open = try await SampleService.server().client
    for (target, shape) in Self.targets {
      let answer = try await exempt.get(target)
      if shape == .nwpcube && target.contains(".php") {
        let expected = try await open.get(target)
        #expect(answer.status == 200 && answer.body == expected.body, "\(target): \(answer.body.prefix(200))")
      } else {
        #expect(
          answer.status == 401 && Self.message(answer, shape) == Self.missing(shape), "\(target): \(answer.body)")
      }
    }
  }

  @Test func requestsAreCountedByKeyNameAndNoKeyIsEverWrittenOut() async throws {
    let server = try await KeyedService.start()
    let quick = try #require(Self.targets.first?.target)
    for _ in 0..<2 { _ = try await server.client.get(KeyedService.target(quick, key: KeyedService.key("alice"))) }
    let bad = try await server.client.get(
      KeyedService.target("/v1/forecast?latitude=38.1294&longitude=-8.9341", key: KeyedService.key("bob")))
    #expect(bad.status == 400)
    _ = try await server.client.get(KeyedService.target(quick, key: KeyedService.wrongKey))
    let metrics = try await server.client.get(ServiceRoutes.metricsPath).body
    #expect(metrics.contains(#"nwpcube_http_key_requests_total{key="alice",status="200"} 2"#), "\(metrics)")
    // bob has no name: he is counted under his line.
    #expect(metrics.contains(#"nwpcube_http_key_requests_total{key="line-3",status="400"} 1"#), "\(metrics)")
    #expect(metrics.contains("nwpcube_api_keys 2"), "\(metrics)")
    // The refusals are counted under their route, as every other answer is.
    #expect(metrics.contains(#"nwpcube_http_requests_total{route="/QuickPrevByDate.php",status="401"} 1"#))
    let logged = server.log.recorded.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
    for key in KeyedService.keys.values + [KeyedService.wrongKey] {
      #expect(!metrics.contains(key) && !logged.contains(key), "\(key) written out")
    }
    #expect(logged.contains("apikey=(redacted)"))
    try await server.stop()
  }

  @Test func aKeyOverItsLimitGets429WithRetryAfterInItsFamilysShape() async throws {
    let openMeteoKey = "limited-open-meteo-0123456789abcdefghijk"
    let legacyKey = "limited-legacy-0123456789abcdefghijklmnop"
    let server = try await KeyedService.start(
      "\(openMeteoKey) name=om limit=1/h\n\(legacyKey) limit=1/h name=legacy\n")
    for (target, shape, key) in [
      (Self.targets[4].target, Shape.openMeteo, openMeteoKey), (Self.targets[0].target, .nwpcube, legacyKey),
    ] {
      let first = try await server.client.get(KeyedService.target(target, key: key))
      #expect(first.status == 200, "\(target): \(first.body.prefix(200))")
      let second = try await server.client.get(KeyedService.target(target, key: key))
      #expect(second.status == 429, "\(target): \(second.body)")
      // A whole number of seconds within the hour it takes to earn one request back.
      let wait = try #require(second.headers["retry-after"].flatMap { Int($0) }, "\(second.headers)")
      #expect((1...3_600).contains(wait))
      #expect(
        Self.message(second, shape)
          == "apikey: this key's rate limit of 1 request per hour is reached; retry in \(wait) s", "\(second.body)")
    }
    let metrics = try await server.client.get(ServiceRoutes.metricsPath).body
    #expect(metrics.contains(#"nwpcube_http_key_requests_total{key="om",status="429"} 1"#), "\(metrics)")
    try await server.stop()
  }

  /// A server without keys takes a client's key out of the query too, so that a client that
  /// always sends one (as paying Open-Meteo users do) is answered.
  @Test func aServerWithoutKeysAnswersARequestCarryingAKeyAsOneWithout() async throws {
    let open = try await SampleService.server().client
    for (target, shape) in Self.targets {
      let plain = try await open.get(target)
      let keyed = try await open.get(
        KeyedService.target(target, key: KeyedService.wrongKey, parameter: shape.keyParameter))
      #expect(keyed.status == plain.status, "\(target): \(keyed.body.prefix(300))")
      if !Self.carriesItsTime(target) { #expect(keyed.body == plain.body, "\(target)") }
    }
  }
}
