import Foundation
import Platform
import Testing

@testable import HTTPService

/// SIGHUP reloads the keys file of a live server in this process: a good file's keys are in
/// force at once, a faulty file is logged and the keys in force stay.
@Suite(.serialized) struct APIKeyReloadTests {
  static let first = "first-key-0123456789abcdefghijklmnopqr"
  static let second = "second-key-0123456789abcdefghijklmnopq"

  /// Polls `body` until it is true; the limit only keeps a broken handler from hanging the
  /// run, it is no claim about speed.
  static func eventually(_ body: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      if try await body() { return true }
      try await Task.sleep(for: .milliseconds(20))
    }
    return false
  }

  @Test func sighupPutsTheRewrittenFilesKeysInForceAndKeepsTheOldOnesWhenTheFileIsFaulty() async throws {
    let path = try KeyedService.file("\(Self.first) name=first\n")
    var settings = SampleService.settings
    settings.keys = try APIKeySettings(file: path)
    let server = try await LiveServer.start(settings)
    let runs = "/v1/runs"
    func status(_ key: String) async throws -> Int {
      try await server.client.get(KeyedService.target(runs, key: key)).status
    }
    #expect(try await status(Self.first) == 200)
    #expect(try await status(Self.second) == 401)

    try "# rotated\n\(Self.second) name=second\n".write(toFile: path, atomically: true, encoding: .utf8)
    try Posix.kill(Posix.processID, .hangUp)
    #expect(try await Self.eventually { try await status(Self.second) == 200 }, "the new key never took effect")
    #expect(try await status(Self.first) == 401)
    let metrics = try await server.client.get(ServiceRoutes.metricsPath).body
    #expect(metrics.contains("nwpcube_api_keys 1"), "\(metrics)")
    #expect(server.log.recorded.contains { $0.message == "API keys reloaded" && $0.metadata["keys"] == "1" })

    try "\(Self.first) name=first limit=often\n".write(toFile: path, atomically: true, encoding: .utf8)
    try Posix.kill(Posix.processID, .hangUp)
    let failed = try await Self.eventually {
      server.log.recorded.contains { $0.message == "API keys not reloaded; the keys in force stay" }
    }
    #expect(failed, "the faulty file was never reported")
    let entry = server.log.recorded.first { $0.message == "API keys not reloaded; the keys in force stay" }
    #expect(entry?.level == .error)
    #expect(
      entry?.metadata["error"]
        == "keys file \(path), line 1: limit 'often' is not N/s, N/min or N/h (e.g. limit=60/min)")
    #expect(try await status(Self.second) == 200)
    #expect(try await status(Self.first) == 401)
    let after = try await server.client.get(ServiceRoutes.metricsPath).body
    #expect(after.contains(#"nwpcube_api_key_reloads_total{result="failed"}"#), "\(after)")
    #expect(!after.contains(#"nwpcube_api_key_reloads_total{result="failed"} 0"#), "\(after)")
    try await server.stop()
  }
}
