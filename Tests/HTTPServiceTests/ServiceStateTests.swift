import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// The server's states as a load balancer and an operator see them: start-up over a store
/// with a bad cube or none, `/healthz` ready, degraded and unavailable, 503 on the query
/// routes when no cube can answer, HEAD, and 405 for other methods.
@Suite struct ServiceStateTests {
  static let query = "/v1/forecast?latitude=39.4&longitude=-8.1&hourly=temp&start_date=2026-03-28&end_date=2026-03-28"
  static let legacy = "/QuickPrevByDate.php?lat=39.4&lon=-8.1&date=20260328_06"

  /// Replaces `cube` by a damaged copy the way a publisher replaces a cube, by renaming a
  /// complete file over it: `damage` changes the copy's bytes.
  static func replace(_ cube: String, damage: (inout Data) -> Void) throws {
    var bytes = try Data(contentsOf: URL(fileURLWithPath: cube))
    damage(&bytes)
    let staged = "\(cube).staged"
    try bytes.write(to: URL(fileURLWithPath: staged))
    #expect(rename(staged, cube) == 0)
  }

  static func health(_ server: LiveServer) async throws -> (status: Int, json: [String: Any]) {
    let answer = try await server.client.get("/healthz")
    let json = try #require(answer.json as? [String: Any], "\(answer.body)")
    return (answer.status, json)
  }

  @Test func aCorruptCubeAtStartUpIsSkippedWithALoggedErrorAndHealthSaysDegraded() async throws {
    let store = SampleFiles.temporaryDirectory("serve-corrupt")
    defer { SampleFiles.remove(store) }
    try TestStores.publish(TestStores.spec(start: "2026-03-28_00:00:00", hours: 24, seed: 1), into: store)
    let bad = try TestStores.publish(TestStores.spec(start: "2026-03-28_06:00:00", hours: 24, seed: 2), into: store)
    // The last byte is the last step of the last metric's last cell: its block's checksum fails.
    try Self.replace(bad) { $0[$0.count - 1] ^= 0x01 }
    let server = try await LiveServer.start(ServiceSettings(store: store))
    let skipped = server.log.recorded.filter { $0.level == .error && $0.message == "cube skipped" }
    #expect(skipped.count == 1)
    let problem = try #require(skipped.first?.metadata["problem"])
    #expect(problem.hasPrefix("\(bad): corrupted") && problem.contains("checksum"), "\(problem)")

    let (status, json) = try await Self.health(server)
    #expect(status == 200)
    #expect(json["status"] as? String == "degraded")
    #expect(json["cubes"] as? Int == 1)
    // Relative to the store, whose path stays private.
    let problems = try #require(json["problems"] as? [String])
    #expect(problems.count == 1 && problems[0].hasPrefix("wrf/d01/2026032806.cube: corrupted"), "\(problems)")
    // Counted once, as a file the store left out; one run answers.
    let metrics = Set(try await server.client.get("/metrics").body.split(separator: "\n").map(String.init))
    #expect(metrics.contains("nwpcube_store_rejected_cubes_total 1"), "\(metrics.sorted())")
    #expect(metrics.contains("nwpcube_runs 1.0"), "\(metrics.sorted())")
    // The good run answers every hour, the bad run's hours included.
    let answer = try await server.client.get(Self.query)
    #expect(answer.status == 200, "\(answer.body)")
    let sources = (answer.json as? [String: Any])?["sources"] as? [[String: Any]]
    #expect(sources?.compactMap { $0["run"] as? String } == ["2026032800"])
    try await server.stop()
  }

  @Test func anEmptyStoreStartsUnavailableAndIsReadyOnceARunIsPublished() async throws {
    let store = SampleFiles.temporaryDirectory("serve-empty")
    defer { SampleFiles.remove(store) }
    let server = try await LiveServer.start(ServiceSettings(store: store))
    #expect(server.log.recorded.contains { $0.level == .warning && $0.message.contains("no readable cube") })
    let (status, json) = try await Self.health(server)
    #expect(status == 503)
    #expect(json["status"] as? String == "unavailable")
    #expect(json["cubes"] as? Int == 0)
    #expect((json["problems"] as? [String])?.isEmpty == true)
    for target in [Self.query, Self.legacy] {
      let answer = try await server.client.get(target)
      #expect(answer.status == 503, "\(target)")
      #expect(
        answer.errorMessage?.hasPrefix("the store has no readable cube: it holds no run yet") == true, "\(answer.body)")
      #expect(answer.errorMessage?.contains(store) == false)
    }

    try TestStores.publish(TestStores.spec(start: "2026-03-28_00:00:00", hours: 24, seed: 1), into: store)
    try await server.waitUntil("the run served") { try await Self.health(server).status == 200 }
    let (after, ready) = try await Self.health(server)
    #expect(after == 200)
    #expect(ready["status"] as? String == "ready")
    #expect(ready["cubes"] as? Int == 1)
    #expect(try await server.client.get(Self.query).status == 200)
    #expect(server.log.recorded.contains { $0.level == .info && $0.message == "store ready" })
    try await server.stop()
  }

  /// The documented 503, not "outside the domains": the point is fine, the store is not.
  @Test func aStoreWhoseOnlyCubeBecomesUnreadableAnswers503() async throws {
    let store = SampleFiles.temporaryDirectory("serve-unreadable")
    defer { SampleFiles.remove(store) }
    let cube = try TestStores.publish(TestStores.spec(start: "2026-03-28_00:00:00", hours: 24, seed: 1), into: store)
    let server = try await LiveServer.start(ServiceSettings(store: store))
    #expect(try await Self.health(server).json["status"] as? String == "ready")
    #expect(try await server.client.get(Self.query).status == 200)

    try Self.replace(cube) { $0.removeLast(17) }
    try await server.waitUntil("the cube left out") { try await Self.health(server).status == 503 }
    for target in [Self.query, Self.legacy] {
      let answer = try await server.client.get(target)
      #expect(answer.status == 503, "\(target): \(answer.body)")
      #expect(
        answer.errorMessage
          == "the store has no readable cube: its only cube cannot be opened; /healthz names the problems",
        "\(answer.body)")
    }
    let (status, json) = try await Self.health(server)
    #expect(status == 503)
    #expect(json["status"] as? String == "unavailable")
    let problems = try #require(json["problems"] as? [String])
    #expect(problems.count == 1 && problems[0].hasPrefix("wrf/d01/2026032800.cube: truncated"), "\(problems)")
    #expect(
      server.log.recorded.contains { $0.message == "cube skipped" && $0.metadata["problem"]?.hasPrefix(cube) == true })
    try await server.stop()
  }

  /// A store directory that does not exist is a mistake in the configuration, not a state
  /// the store can leave: the server refuses to start, naming it.
  @Test func aMissingStoreDirectoryIsAnErrorAtStartUp() async throws {
    let missing = SampleFiles.temporaryDirectory("serve-missing") + "/nothing-here"
    defer { SampleFiles.remove(missing) }
    let error = await #expect(throws: (any Error).self) { try await LiveServer.start(ServiceSettings(store: missing)) }
    #expect("\(error.map { "\($0)" } ?? "")".contains("\(missing): cannot read the store directory"))
  }

  /// What a response's head says, and what came after it.
  struct Head {
    let status: Int
    let headers: [String: String]
    let rest: [UInt8]

    init(_ bytes: [UInt8]) throws {
      let separator = Array("\r\n\r\n".utf8)
      let end = try #require(bytes.indices.first { bytes[$0...].starts(with: separator) }, "no head")
      let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
      status = try #require(Int(lines[0].split(separator: " ")[1]))
      var headers: [String: String] = [:]
      for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      self.headers = headers
      rest = Array(bytes[(end + separator.count)...])
    }
  }

  @Test func headAnswersLikeGetWithoutTheBody() async throws {
    let client = try await SampleService.server().client
    let targets = [
      "/healthz", "/v1/runs", "/openapi.yaml", "/", "/static/app.js",
      "/QuickPrevByDate.php?lat=38.1294&lon=-8.9341&date=20260621_12",
      "/QuickPrevByDate.php?lat=38.1294&lon=8.9341&date=20260621_12",  // 404: outside the domain
      "/QuickPrevByDate.php?lat=38.1294&lon=-8.9341&date=2026",  // 400
    ]
    for target in targets {
      let get = try Head(try await client.raw("GET", target))
      let head = try Head(try await client.raw("HEAD", target))
      #expect(head.status == get.status, "\(target)")
      #expect(head.rest.isEmpty, "\(target): HEAD sent \(head.rest.count) body bytes")
      #expect(!get.rest.isEmpty, "\(target)")
      for field in ["content-type", "content-length"] {
        #expect(head.headers[field] == get.headers[field], "\(target) \(field)")
      }
      #expect(head.headers["content-length"] == String(get.rest.count), "\(target)")
    }
    // Without a route, the message names the method, one letter longer for HEAD.
    let missing = try Head(try await client.raw("GET", "/no/such/path"))
    let headMissing = try Head(try await client.raw("HEAD", "/no/such/path"))
    #expect(missing.status == 404 && headMissing.status == 404 && headMissing.rest.isEmpty)
    #expect(headMissing.headers["content-length"] == String(missing.rest.count + 1))
    // On one connection: had the HEAD answer carried a body, the GET's status line would not
    // follow its head directly.
    let both = try await client.exchange(
      Array(
        "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
    let first = try Head(both)
    #expect(first.status == 200)
    let second = try Head(first.rest)
    #expect(second.status == 200)
    #expect(String(decoding: second.rest, as: UTF8.self).hasPrefix(#"{"status":"ready""#))
  }

  @Test func otherMethodsOnARoutedPathGet405WithAllow() async throws {
    let client = try await SampleService.server().client
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"] {
      for path in [
        "/healthz", "/v1/forecast", "/QuickPrevByDate.php", "/", "/v1/tiles/temp/2026-06-21T12:00Z/8/121/98.png",
        "/v1/legend/temp.svg",
      ] {
        let answer = try await client.send(
          Array("\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        // Open-Meteo's route takes a form by POST too; a POST without one is refused by it.
        let postable = path == "/v1/forecast"
        if postable && method == "POST" {
          #expect(answer.status == 415, "\(answer.body)")
          continue
        }
        #expect(answer.status == 405, "\(method) \(path)")
        #expect(answer.headers["allow"] == (postable ? "GET, HEAD, POST" : "GET, HEAD"), "\(method) \(path)")
        #expect(
          answer.errorMessage
            == "method \(method) is not allowed on \(path); use \(postable ? "GET, HEAD or POST" : "GET or HEAD")",
          "\(answer.body)")
      }
    }
    let unknown = try await client.send(
      Array("POST /no/such/path HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
    #expect(unknown.status == 404)
    #expect(unknown.errorMessage?.hasPrefix("no route for POST /no/such/path") == true, "\(unknown.body)")
  }
}
