import Foundation
import HTTPService
import Logging
import ServiceLifecycle
import Synchronization

/// A real server listening on a free loopback port, run in its own `ServiceGroup` as
/// `nwpcube serve` runs it.
final class LiveServer: Sendable {
  let port: Int
  let client: HTTPTestClient
  /// What the server logged.
  let log: LogCapture
  private let group: ServiceGroup
  private let run: Task<Void, any Error>

  private init(port: Int, log: LogCapture, group: ServiceGroup, run: Task<Void, any Error>) {
    self.port = port
    self.client = HTTPTestClient(port: port)
    self.log = log
    self.group = group
    self.run = run
  }

  /// Starts a server for `settings` (its port is replaced by 0, a free one) and returns
  /// once it listens.
  static func start(_ settings: ServiceSettings) async throws -> LiveServer {
    var settings = settings
    settings.host = "127.0.0.1"
    settings.port = 0
    // The suites run at once, all from this address: one client, which the default load
    // limits would refuse. A test of the limits sets its own (LoadSheddingTests).
    if settings.load == LoadLimits() { settings.load = LoadLimits(inFlight: 0) }
    let log = LogCapture()
    let logger = Logger(label: "nwpcube.test") { _ in log.handler() }
    let (ports, listening) = AsyncStream.makeStream(of: Int.self)
    let app = try buildApplication(settings, logger: logger) { port in
      listening.yield(port)
      listening.finish()
    }
    let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
    let run = Task {
      // A server that fails to start ends the stream, so that the caller is not left waiting.
      defer { listening.finish() }
      try await group.run()
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
      let failure = await run.result
      throw HTTPTestError.serverDidNotStart("\(failure)")
    }
    return LiveServer(port: port, log: log, group: group, run: run)
  }

  /// Waits until `condition` holds, asking again every 20 ms: for a run published or pruned
  /// while serving, which the store's refresh service brings in at its next wake. The
  /// deadline only guards against a hang; it is no measure of how soon.
  func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
    // Long: in a full run on two cores the server's tasks may wait behind most of the suite.
    let deadline = ContinuousClock.now + .seconds(1800)
    while try await !condition() {
      guard ContinuousClock.now < deadline else { throw HTTPTestError.neverHappened(what) }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Shuts the server down gracefully and waits for it to stop.
  func stop() async throws {
    await group.triggerGracefulShutdown()
    try await run.value
  }

  /// Starts a graceful shutdown, as SIGTERM does, and returns without waiting: a server
  /// with a drain period keeps answering meanwhile.
  func beginShutdown() async {
    await group.triggerGracefulShutdown()
  }

  /// Cancels the server, which ends a drain at once, and waits for it to stop.
  func cancel() async {
    run.cancel()
    _ = await run.result
  }
}

/// Every entry a server logged, kept so that tests can read it.
final class LogCapture: Sendable {
  struct Entry: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
  }

  private let entries = Mutex<[Entry]>([])

  var recorded: [Entry] { entries.withLock { $0 } }

  func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

  /// A handler writing here. Log handlers are values (metadata set on one logger's copy
  /// must not leak into another's), so the handler is a struct sharing only the entries.
  func handler() -> some LogHandler { Handler(capture: self) }

  private struct Handler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
      capture.append(Entry(level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
    }
  }
}
