import Foundation
import Testing

@testable import HTTPService

/// The load limits of a real server, driven into their full state through the limiter the
/// server uses: a request beyond the global cap gets 503, beyond its client's cap 429, both
/// with `Retry-After` and in its API's error shape; the probes are never shed; permits come
/// back whatever the request's end; sheds are logged and counted; with keys, the client is
/// the key.
@Suite struct LoadSheddingTests {
  /// A server over the sample store whose limiter, of `limits`, the test holds.
  static func start(
    _ limits: LoadLimits, keys: String? = nil
  ) async throws -> (server: LiveServer, limiter: LoadLimiter) {
    var settings = SampleService.settings
    let limiter = LoadLimiter(limits)
    settings.limiter = limiter
    if let keys { settings.keys = try APIKeySettings(file: try KeyedService.file(keys)) }
    return (try await LiveServer.start(settings), limiter)
  }

  /// The test client's address, as the server sees it.
  static let loopback = LoadLimiter.Client.address("127.0.0.1")

  /// One request of each API family, answered 200 by a server with room, and how its error
  /// body is read.
  static let families: [(target: String, message: @Sendable (HTTPTestResponse) -> String?)] = [
    ("/v1/forecast?latitude=38.1294&longitude=-8.9341&hourly=temp", { $0.openMeteoReason }),
    ("/forecast/any/38.7167,-9.1333?units=si", { $0.darkSkyError }),
    ("/data/2.5/weather?lat=38.7167&lon=-9.1333&units=metric", { $0.openWeatherMapMessage }),
    ("/QuickPrevByDate.php?lon=-8.9341&lat=38.1294&date=20260621_12", { $0.legacyErrorMessage }),
  ]

  /// The value of the sample `name` (with its labels) in the server's `/metrics`.
  static func metric(_ server: LiveServer, _ name: String) async throws -> String? {
    let text = try await server.client.get("/metrics").body
    return text.split(separator: "\n").first { $0.hasPrefix("\(name) ") }.map { String($0.dropFirst(name.count + 1)) }
  }

  /// Takes `count` permits of `client` from `limiter`, as requests in flight would.
  static func hold(_ count: Int, of client: LoadLimiter.Client, in limiter: LoadLimiter) {
    for _ in 0..<count { #expect(limiter.admit(client) == .admitted) }
  }

  @Test func theLimiterAdmitsUpToEachCapAndTellsWhichCapRefused() {
    let limiter = LoadLimiter(LoadLimits(inFlight: 3, perClient: 2))
    let (a, b, c) = (LoadLimiter.Client.address("192.0.2.1"), LoadLimiter.Client.key("alice"), Self.loopback)
    #expect(limiter.admit(a) == .admitted)
    #expect(limiter.admit(a) == .admitted)
    #expect(limiter.admit(a) == .clientBusy)
    #expect(limiter.admit(b) == .admitted)
    // Full: a newcomer is refused for the server's sake, a (still) busy client for its own.
    #expect(limiter.admit(c) == .overloaded)
    #expect(limiter.admit(a) == .clientBusy)
    #expect(limiter.inFlight == 3)
    limiter.release(a)
    #expect(limiter.admit(c) == .admitted)
    for client in [a, b, c] { limiter.release(client) }
    #expect(limiter.inFlight == 0)
    #expect([a, b, c].allSatisfy { limiter.inFlight(of: $0) == 0 })
  }

  @Test func zeroSetsNoCapAndThePerClientCapDefaultsToHalfTheGlobalOne() {
    #expect(LoadLimits(inFlight: 64).perClient == 32)
    #expect(LoadLimits(inFlight: 1).perClient == 1)
    #expect(LoadLimits(inFlight: 0).perClient == 0)
    #expect(LoadLimits().inFlight == LoadLimits.inFlightPerCore * ProcessInfo.processInfo.activeProcessorCount)
    let limiter = LoadLimiter(LoadLimits(inFlight: 0, perClient: 0))
    for _ in 0..<1_000 { #expect(limiter.admit(Self.loopback) == .admitted) }
  }

  @Test func theServerEnforcesTheLimitsOfItsSettings() async throws {
    var settings = SampleService.settings
    settings.load = LoadLimits(inFlight: 7, perClient: 3)
    let server = try await LiveServer.start(settings)
    #expect(try await Self.metric(server, #"nwpcube_requests_in_flight_limit{scope="global"}"#) == "7.0")
    #expect(try await Self.metric(server, #"nwpcube_requests_in_flight_limit{scope="client"}"#) == "3.0")
    try await server.stop()
  }

  @Test func aRequestBeyondTheGlobalCapGets503WithRetryAfterInItsAPIsErrorShape() async throws {
    let (server, limiter) = try await Self.start(LoadLimits(inFlight: 4, perClient: 0, retryAfter: 3))
    for (target, _) in Self.families {
      #expect(try await server.client.get(target).status == 200, "\(target) with room")
    }
    Self.hold(4, of: .address("192.0.2.1"), in: limiter)
    for (target, message) in Self.families {
      let answer = try await server.client.get(target)
      #expect(answer.status == 503, "\(target): \(answer.body)")
      #expect(answer.headers["retry-after"] == "3", "\(target)")
      #expect(answer.mediaType == "application/json")
      #expect(
        message(answer) == "the server is answering its limit of 4 requests at once; retry in 3 s",
        "\(target): \(answer.body)")
    }
    limiter.release(.address("192.0.2.1"))
    #expect(try await server.client.get(Self.families[0].target).status == 200)
    try await server.stop()
  }

  @Test func aRequestBeyondItsClientsCapGets429WithRetryAfterInItsAPIsErrorShape() async throws {
    let (server, limiter) = try await Self.start(LoadLimits(inFlight: 100, perClient: 2))
    // Another client's requests leave this one's room alone.
    Self.hold(2, of: .address("192.0.2.1"), in: limiter)
    #expect(try await server.client.get(Self.families[0].target).status == 200)
    Self.hold(2, of: Self.loopback, in: limiter)
    for (target, message) in Self.families {
      let answer = try await server.client.get(target)
      #expect(answer.status == 429, "\(target): \(answer.body)")
      #expect(answer.headers["retry-after"] == "1", "\(target)")
      #expect(
        message(answer)
          == "the client 127.0.0.1 already has 2 requests in flight, the most one client may have at once; "
          + "retry in 1 s", "\(target): \(answer.body)")
    }
    try await server.stop()
  }

  @Test func healthzAndMetricsAnswerWhileEveryCapIsFull() async throws {
    let (server, limiter) = try await Self.start(LoadLimits(inFlight: 1, perClient: 1))
    Self.hold(1, of: Self.loopback, in: limiter)
    #expect(try await server.client.get(Self.families[0].target).status == 429)
    for target in ["/healthz", "/metrics"] {
      #expect(try await server.client.get(target).status == 200, "\(target)")
    }
    // Answering them took no permit: the one held is all there is.
    #expect(limiter.inFlight == 1)
    try await server.stop()
  }

  @Test func aShedOnAKeptAliveConnectionLeavesItUsableForTheNextRequest() async throws {
    let (server, limiter) = try await Self.start(LoadLimits(inFlight: 1, perClient: 0))
    Self.hold(1, of: .address("192.0.2.1"), in: limiter)
    let requests =
      "GET \(Self.families[0].target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
      + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    let received = String(decoding: try await server.client.exchange(Array(requests.utf8)), as: UTF8.self)
    // A body ends without a line break: the next status line follows it on the same line.
    let statuses = received.matches(of: /HTTP\/1\.1 (\d{3})/).map { String($0.output.1) }
    #expect(statuses == ["503", "200"], "\(received)")
    try await server.stop()
  }

  @Test func permitsComeBackAfterAnswersErrorsAndClosedConnections() async throws {
    let (server, limiter) = try await Self.start(LoadLimits(inFlight: 2, perClient: 2))
    let targets = [
      Self.families[0].target, "/v1/forecast?latitude=95&longitude=0&hourly=temp", "/no/such/path",
      "/QuickPrevByDate.php?lon=-8.9341&lat=38.1294&date=2026", "/forecast/any/1,2,3,4",
    ]
    // Each of these, taken in turn, needs the permit the one before it held: with a leak the
    // cap of 2 is reached after two.
    for _ in 0..<3 {
      for target in targets {
        let answer = try await server.client.get(target)
        #expect(answer.status != 429 && answer.status != 503, "\(target): \(answer.status) \(answer.body)")
      }
    }
    #expect(limiter.inFlight == 0)
    // Clients that hang up before the answer: their permits come back when the route ends.
    for _ in 0..<4 {
      try await server.client.sendAndHangUp(
        Array("GET \(Self.families[1].target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
    }
    try await server.waitUntil("every permit back") { limiter.inFlight == 0 }
    #expect(try await server.client.get(Self.families[0].target).status == 200)
    try await server.stop()
  }

  @Test func shedRequestsAreCountedInMetricsAndLogged() async throws {
    let (server, limiter) = try await Self.start(LoadLimits(inFlight: 3, perClient: 1))
    #expect(try await Self.metric(server, #"nwpcube_requests_shed_total{reason="global"}"#) == "0")
    #expect(try await Self.metric(server, #"nwpcube_requests_in_flight_limit{scope="global"}"#) == "3.0")
    #expect(try await Self.metric(server, #"nwpcube_requests_in_flight_limit{scope="client"}"#) == "1.0")
    Self.hold(1, of: Self.loopback, in: limiter)
    for _ in 0..<2 { _ = try await server.client.get(Self.families[3].target) }
    limiter.release(Self.loopback)
    for address in ["192.0.2.1", "192.0.2.2", "192.0.2.3"] { Self.hold(1, of: .address(address), in: limiter) }
    for _ in 0..<3 { _ = try await server.client.get(Self.families[0].target) }
    #expect(try await Self.metric(server, #"nwpcube_requests_shed_total{reason="client"}"#) == "2")
    #expect(try await Self.metric(server, #"nwpcube_requests_shed_total{reason="global"}"#) == "3")
    // Counted under their routes too, by the status they got.
    #expect(
      try await Self.metric(server, #"nwpcube_http_requests_total{route="/QuickPrevByDate.php",status="429"}"#) == "2")
    #expect(try await Self.metric(server, #"nwpcube_http_requests_total{route="/v1/forecast",status="503"}"#) == "3")
    let logged = server.log.recorded.filter { $0.message == "request" && $0.metadata["path"] == "/v1/forecast" }
    #expect(logged.filter { $0.metadata["status"] == "503" }.count == 3)
    try await server.stop()
  }

  @Test func withKeysTheClientIsTheKeyAndAShedTakesNoToken() async throws {
    let alice = KeyedService.key("alice")
    // Alice may make one request an hour: the one after her sheds is answered only if no shed
    // spent it.
    let (server, limiter) = try await Self.start(
      LoadLimits(inFlight: 100, perClient: 1),
      keys: "\(alice)  name=alice  limit=1/h\n\(KeyedService.key("bob"))\n")
    let forecast = Self.families[0].target
    Self.hold(1, of: .key("alice"), in: limiter)
    let refused = try await server.client.get(KeyedService.target(forecast, key: alice))
    #expect(refused.status == 429)
    #expect(refused.headers["retry-after"] == "1")
    #expect(
      refused.openMeteoReason
        == "the API key 'alice' already has 1 requests in flight, the most one client may have at once; retry in 1 s")
    #expect(!refused.body.contains(alice))
    // Dark Sky's key is a path segment; OpenWeatherMap's is appid.
    #expect(try await server.client.get("/forecast/\(alice)/38.7167,-9.1333?units=si").status == 429)
    // The same key percent-encoded in the path is the same client.
    let escaped = alice.utf8.map { String(format: "%%%02X", $0) }.joined()
    #expect(try await server.client.get("/forecast/\(escaped)/38.7167,-9.1333?units=si").status == 429)
    let owm = try await server.client.get(
      KeyedService.target(Self.families[2].target, key: alice, parameter: "appid"))
    #expect(owm.status == 429 && owm.openWeatherMapMessage != nil, "\(owm.body)")
    // Another key from the same address has room; so has the address itself without a key,
    // whose 401 is the key middleware's.
    let bob = try await server.client.get(KeyedService.target(forecast, key: KeyedService.key("bob")))
    #expect(bob.status == 200, "\(bob.body)")
    #expect(try await server.client.get(forecast).status == 401)
    #expect(try await server.client.get(KeyedService.target(forecast, key: KeyedService.wrongKey)).status == 401)
    limiter.release(.key("alice"))
    #expect(try await server.client.get(KeyedService.target(forecast, key: alice)).status == 200)
    let limited = try await server.client.get(KeyedService.target(forecast, key: alice))
    #expect(limited.status == 429 && limited.openMeteoReason?.contains("rate limit of 1 request per hour") == true)
    try await server.stop()
  }

  @Test func behindATrustedProxyTheClientIsTheAddressItForwarded() async throws {
    let (server, limiter) = try await Self.start(
      LoadLimits(inFlight: 100, perClient: 1, trustedProxies: ["127.0.0.1"]))
    func get(forwardedFor: String?) async throws -> Int {
      let header = forwardedFor.map { "X-Forwarded-For: \($0)\r\n" } ?? ""
      let request = "GET \(Self.families[3].target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(header)Connection: close\r\n\r\n"
      return try await server.client.send(Array(request.utf8)).status
    }
    Self.hold(1, of: .address("203.0.113.7"), in: limiter)
    // The proxy's own entry is the last; an earlier one is the client's say, and forged here.
    #expect(try await get(forwardedFor: "198.51.100.1, 203.0.113.7") == 429)
    #expect(try await get(forwardedFor: "203.0.113.7, 198.51.100.1") == 200)
    #expect(try await get(forwardedFor: nil) == 200)
    Self.hold(1, of: Self.loopback, in: limiter)
    #expect(try await get(forwardedFor: nil) == 429)
    #expect(try await get(forwardedFor: "198.51.100.1") == 200)
    try await server.stop()
  }

  @Test func anUntrustedPeersForwardedForIsIgnored() async throws {
    let (server, limiter) = try await Self.start(LoadLimits(inFlight: 100, perClient: 1))
    Self.hold(1, of: Self.loopback, in: limiter)
    let request =
      "GET \(Self.families[3].target) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 198.51.100.1\r\n"
      + "Connection: close\r\n\r\n"
    #expect(try await server.client.send(Array(request.utf8)).status == 429)
    try await server.stop()
  }
}
