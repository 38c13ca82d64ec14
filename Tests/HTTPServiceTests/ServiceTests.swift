import Foundation
import Testing
import _TestSupport

@testable import HTTPService

/// The service around the answers: new runs without a restart, metrics, request logs, 404s
/// and a graceful stop on SIGTERM.
@Suite struct ServiceTests {
  @Test func aRunPublishedWhileServingIsAnsweredFromWithoutARestart() async throws {
    let store = SampleFiles.temporaryDirectory("serve")
    defer { SampleFiles.remove(store) }
    try TestStores.publish(TestStores.spec(start: "2026-03-28_00:00:00", hours: 24, seed: 1), into: store)
    let server = try await LiveServer.start(ServiceSettings(store: store))
    let query = "/v1/forecast?latitude=39.4&longitude=-8.1&hourly=temp&start_date=2026-03-28&end_date=2026-03-28"
    func runs() async throws -> [String] {
      let answer = try await server.client.get("/v1/runs")
      let runs = try #require((answer.json as? [String: Any])?["runs"] as? [[String: Any]], "\(answer.body)")
      return runs.compactMap { $0["run"] as? String }
    }
    func sources() async throws -> [String] {
      let answer = try await server.client.get(query)
      let sources = try #require((answer.json as? [String: Any])?["sources"] as? [[String: Any]], "\(answer.body)")
      return sources.compactMap { $0["run"] as? String }
    }
    func metric(_ name: String) async throws -> String? {
      let text = try await server.client.get("/metrics").body
      return text.split(separator: "\n").first { $0.hasPrefix("\(name) ") }.map { String($0.dropFirst(name.count + 1)) }
    }
    #expect(try await runs() == ["2026032800"])
    #expect(try await sources() == ["2026032800"])
    #expect(try await metric("nwpcube_cubes") == "1.0")
    #expect(try await metric("nwpcube_catalog_generation") == "1.0")

    try TestStores.publish(TestStores.spec(start: "2026-03-28_12:00:00", hours: 24, seed: 2), into: store)
    #expect(try await runs() == ["2026032812", "2026032800"])
    try await server.waitUntil("the new run served") { try await metric("nwpcube_cubes") == "2.0" }
    // Hours 00–11 only the older run covers; from 12 on, the newer one answers.
    #expect(try await sources() == ["2026032800", "2026032812"])
    #expect(try await metric("nwpcube_cubes") == "2.0")
    #expect(try await metric("nwpcube_catalog_generation") == "2.0")
    try await server.stop()
  }

  @Test func metricsCountRequestsByRouteAndStatus() async throws {
    let server = try await LiveServer.start(SampleService.settings)
    _ = try await server.client.get("/healthz")
    _ = try await server.client.get("/healthz")
    _ = try await server.client.get("/QuickPrevByDate.php?lat=38.1294&lon=-8.9341&date=20260621_12")
    _ = try await server.client.get("/QuickPrevByDate.php?lat=38.1294&lon=-8.9341&date=2026")
    _ = try await server.client.get("/no/such/path")
    let answer = try await server.client.get("/metrics")
    #expect(answer.status == 200)
    #expect(answer.mediaType == "text/plain")
    let lines = Set(answer.body.split(separator: "\n").map(String.init))
    for expected in [
      #"nwpcube_http_requests_total{route="/healthz",status="200"} 2"#,
      #"nwpcube_http_requests_total{route="/QuickPrevByDate.php",status="200"} 1"#,
      #"nwpcube_http_requests_total{route="/QuickPrevByDate.php",status="400"} 1"#,
      #"nwpcube_http_requests_total{route="NotFound",status="404"} 1"#,
      #"nwpcube_http_request_duration_seconds_count{route="/healthz"} 2"#,
      "nwpcube_cubes 1.0",
      "nwpcube_newest_run_start_seconds 1781913600.0",
    ] {
      #expect(lines.contains(expected), "\(expected)")
    }
    try await server.stop()
  }

  @Test func eachRequestIsLoggedWithItsMethodPathStatusDurationAndId() async throws {
    let server = try await LiveServer.start(SampleService.settings)
    let answer = try await server.client.get("/MedianPrevByDays.php?lat=38.1294&lon=-8.9341&date=20260620&days=9")
    #expect(answer.status == 400)
    let id = try #require(answer.headers["x-request-id"])
    let entry = try #require(
      server.log.recorded.first { $0.metadata["hb.request.id"] == id && $0.message == "request" })
    #expect(entry.level == .info)
    #expect(entry.metadata["method"] == "GET")
    #expect(entry.metadata["path"] == "/MedianPrevByDays.php")
    #expect(entry.metadata["status"] == "400")
    #expect(entry.metadata["query"] == "lat=38.1294&lon=-8.9341&date=20260620&days=9")
    #expect(entry.metadata["duration_ms"].flatMap(Double.init).map { $0 >= 0 } == true)
    try await server.stop()
  }

  @Test func unknownPathsGet404WithAJSONBody() async throws {
    let client = try await SampleService.server().client
    for target in ["/index.html", "/QuickPrevByDate", "/v2/forecast", "/quickprevbydate.php"] {
      let answer = try await client.get(target)
      #expect(answer.status == 404, "\(target)")
      #expect(answer.errorMessage?.contains("no route for GET") == true, "\(target): \(answer.body)")
    }
  }

  @Test func nwpcubeServeStopsGracefullyOnSIGTERM() async throws {
    let served = try await ServeProcess.start(drainSeconds: 0)
    defer { served.kill() }
    #expect(try await served.client.get("/healthz").status == 200)
    kill(served.process.processIdentifier, SIGTERM)
    #expect(await served.output.first { $0.contains("stopped") } != nil)
    served.process.waitUntilExit()
    #expect(served.process.terminationReason == .exit && served.process.terminationStatus == 0)
  }
}

/// `nwpcube serve` over the sample store as a process of its own, on a free port: what an
/// operator runs, signals included.
struct ServeProcess {
  let process: Process
  /// Its standard output and error, line by line.
  let output: LineReader
  let client: HTTPTestClient

  /// Starts the server over `store` with `--drain drainSeconds` and returns once its log
  /// names the port. With `launcher` (a program and its arguments, such as `setpriv` with
  /// the privileges to drop) the server is started through it.
  static func start(
    drainSeconds: Int, store: String = SampleService.store, launcher: [String] = [], options: [String] = []
  ) async throws -> ServeProcess {
    let process = Process()
    let serve = ["serve", "--store", store, "--port", "0", "--drain", String(drainSeconds)] + options
    if let program = launcher.first {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = launcher.dropFirst() + [CommandLineTool.executable] + serve
    } else {
      process.executableURL = URL(fileURLWithPath: CommandLineTool.executable)
      process.arguments = serve
    }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = LineReader(pipe.fileHandleForReading)
    // The log names the port it picked: "… listening on 127.0.0.1:PORT".
    guard let listening = await output.first(where: { $0.contains("listening on 127.0.0.1:") }),
      let port = Int(listening.split(separator: ":").last ?? "")
    else {
      Foundation.kill(process.processIdentifier, SIGKILL)
      throw HTTPTestError.serverDidNotStart("nwpcube serve never logged its port")
    }
    return ServeProcess(process: process, output: output, client: HTTPTestClient(port: port))
  }

  /// SIGKILL, when it still runs: whatever a test did, no server outlives it.
  func kill() {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
  }
}

/// Lines of a child's output, read on a thread of their own so that waiting for them
/// never blocks the threads Swift concurrency runs tests (and servers) on.
final class LineReader: Sendable {
  private let lines: AsyncStream<String>

  init(_ handle: FileHandle) {
    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    self.lines = lines
    Thread.detachNewThread {
      var pending = ""
      while true {
        let data = handle.availableData
        guard !data.isEmpty else { break }
        pending += String(decoding: data, as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
          continuation.yield(String(pending[..<newline]))
          pending = String(pending[pending.index(after: newline)...])
        }
      }
      continuation.finish()
    }
  }

  /// The next line for which `matches` holds, nil when the output ends first.
  func first(where matches: (String) -> Bool) async -> String? {
    for await line in lines where matches(line) { return line }
    return nil
  }
}
