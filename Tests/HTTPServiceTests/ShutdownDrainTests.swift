import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// A replica leaving a load balancer's rotation: on a graceful shutdown `/healthz` turns 503
/// (`draining`, with the reason) while every route still answers and new connections are
/// still accepted, for the drain period, before the server stops listening.
@Suite struct ShutdownDrainTests {
  static let legacy = "/QuickPrevByDate.php?lat=38.1294&lon=-8.9341&date=20260621_12"

  static func health(_ client: HTTPTestClient) async throws -> (status: Int, json: [String: Any]) {
    let answer = try await client.get("/healthz")
    let json = try #require(answer.json as? [String: Any], "\(answer.body)")
    return (answer.status, json)
  }

  @Test func aShutdownDrainsWith503OnHealthzWhileEveryOtherRouteStillAnswers() async throws {
    var settings = SampleService.settings
    // Far longer than the test: the drain must still be on when it looks, and cancelling
    // ends it.
    settings.drainPeriod = .seconds(600)
    let server = try await LiveServer.start(settings)
    let before = try await Self.health(server.client)
    #expect(before.status == 200)
    #expect(before.json["status"] as? String == "ready")
    #expect(before.json["reason"] == nil)

    await server.beginShutdown()
    try await server.waitUntil("/healthz draining") { try await Self.health(server.client).status == 503 }
    let (status, json) = try await Self.health(server.client)
    #expect(status == 503)
    #expect(json["status"] as? String == "draining")
    #expect(json["reason"] as? String == "shutting down: it answers requests already routed to it, then stops")
    // The store still answers: the replica is out of rotation, not broken.
    #expect(json["cubes"] as? Int == 1)
    #expect(server.log.recorded.contains { $0.message.hasPrefix("draining: /healthz answers 503") })
    // Each request of the test client opens a new connection: the listener is still open.
    let answer = try await server.client.get(Self.legacy)
    #expect(answer.status == 200, "\(answer.body)")
    #expect(try await server.client.get("/metrics").status == 200)

    await server.cancel()
    await #expect(throws: (any Error).self) { try await server.client.get("/healthz") }
  }

  @Test func aStoreWithoutARunIsNotReadyAndSaysWhy() async throws {
    let store = SampleFiles.temporaryDirectory("drain-empty")
    defer { SampleFiles.remove(store) }
    let server = try await LiveServer.start(ServiceSettings(store: store))
    let (status, json) = try await Self.health(server.client)
    #expect(status == 503)
    #expect(json["status"] as? String == "unavailable")
    #expect(json["reason"] as? String == "the store holds no run yet")
    try TestStores.publish(TestStores.spec(start: "2026-03-28_00:00:00", hours: 24, seed: 1), into: store)
    try await server.waitUntil("the run served") { try await Self.health(server.client).status == 200 }
    let ready = try await Self.health(server.client)
    #expect(ready.json["status"] as? String == "ready")
    #expect(ready.json["reason"] == nil)
    try await server.stop()
  }

  @Test func nwpcubeServeDrainsOnSIGTERMBeforeItStops() async throws {
    let served = try await ServeProcess.start(drainSeconds: 600)
    defer { served.kill() }
    let (process, reader, client) = (served.process, served.output, served.client)
    #expect(try await Self.health(client).status == 200)

    kill(process.processIdentifier, SIGTERM)
    let draining = try #require(await reader.first { $0.contains("draining") })
    #expect(draining.contains("/healthz answers 503") && draining.contains("period=600.0 seconds"), "\(draining)")
    let (status, json) = try await Self.health(client)
    #expect(status == 503)
    #expect(json["status"] as? String == "draining")
    #expect(try await client.get(Self.legacy).status == 200)
    // Still draining after the requests: only the period or another signal ends it. A
    // second SIGTERM does, long before the 600 s, and the server stops as it would have.
    #expect(process.isRunning)
    kill(process.processIdentifier, SIGTERM)
    let cut = try #require(await reader.first { $0.contains("drain cut short") })
    #expect(cut.contains("SIGTERM"), "\(cut)")
    #expect(await reader.first { $0.contains("stopped") } != nil)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  @Test func aDrainThatIsNotANumberOfSecondsIsRefused() throws {
    try expectServeRefuses("--drain", ["-1", "nan", "3601"]) { value in
      "--drain \(Double(value) ?? 0) is not a number of seconds in 0…3600"
    }
  }

  @Test func aVerifyRateOutsideItsRangeIsRefused() throws {
    try expectServeRefuses("--verify-rate", ["-1", "1048577"]) { value in
      "--verify-rate \(value) is not a number of MiB per second in 0…1048576 (0 turns it off)"
    }
  }
}
