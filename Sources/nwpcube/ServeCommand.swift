import ArgumentParser
import HTTPService
import Logging
import Places
import ServiceLifecycle
import Warnings

struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve forecasts over HTTP: the legacy app's endpoints, /v1/forecast, /v1/alerts, /v1/runs and metrics.",
    discussion: """
      Answers from the newest runs of the store, and picks up runs published or pruned \
      later without a restart. Starts whatever the store holds: a cube that cannot be \
      opened is left out with an error in the log, and an empty or wholly unreadable store \
      answers 503 (and /healthz "unavailable") until a readable run is published. SIGTERM or SIGINT stop it gracefully: \
      for --drain seconds /healthz answers 503 ("draining") while every route still \
      answers, so that a load balancer takes the replica out first; then it stops accepting \
      connections and lets requests in flight finish. Each request is logged as one line \
      with its method, path, status, duration and request id. The API is described by \
      GET /openapi.yaml.

      With --keys FILE every route but /healthz and /metrics requires an API key (the \
      apikey query parameter), and the file is read again on SIGHUP; docs/keys.md \
      describes the file.

      With --alerts FILE, GET /v1/alerts and /v1/alerts.cap publish the warnings a \
      point's forecast triggers under the file's thresholds; a faulty file stops the \
      server before it listens, naming the line and the rule. docs/alerts.md describes it.
      """
  )

  @Option(help: "The store directory (STORE/<model>/<domain>/<run>.cube).")
  var store: String

  @Option(help: "The address to listen on (0.0.0.0 for every interface).")
  var host: String = "127.0.0.1"

  @Option(help: "The port to listen on (0 picks a free one, which the log names).")
  var port: Int = 8080

  @Option(
    help: ArgumentHelp(
      "A GeoNames cities*.txt gazetteer for GET /v1/search (e.g. SampleGrids/places/cities1000_PT_ES.txt).",
      discussion: "Read and indexed once at start-up; without it /v1/search answers 404.",
      valueName: "file"))
  var places: String?

  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
  var logLevel: String = "info"

  @Option(
    help: ArgumentHelp(
      "A keys file: one API key a line, with an optional name= and limit= (docs/keys.md); every route but /healthz and /metrics then requires a key. Reloaded on SIGHUP.",
      valueName: "file"))
  var keys: String?

  @Option(
    help: ArgumentHelp(
      "An alerts file: the thresholds /v1/alerts and /v1/alerts.cap publish warnings for (docs/alerts.md); without it they answer 404.",
      valueName: "file"))
  var alerts: String?

  @Option(help: "CAP's sender of /v1/alerts.cap, an e-mail-like id (default nwpcube@<host name>).")
  var alertsSender: String?

  @Flag(help: "With --keys, answer the legacy app's *.php endpoints without a key (the app sends none).")
  var keysExemptLegacy = false

  @Option(
    help: ArgumentHelp(
      "Dark Sky outlooks kept for repeated points: hourly, daily and warnings of one point and hour, about 40 KB each; 0 keeps none.",
      valueName: "count"))
  var darkskyOutlooks: Int = ServiceSettings(store: "").darkSkyOutlooks

  @Option(
    help: ArgumentHelp(
      "MiB of recent answers (/v1/forecast, Dark Sky, OpenWeatherMap, the legacy endpoints) sent again to the same request while the store and the time they depend on are unchanged; 0 keeps none.",
      valueName: "MiB"))
  var answerCache: Int = ServiceSettings(store: "").answerCacheBytes >> 20

  @Option(
    help: ArgumentHelp(
      "Requests in flight at once over all clients; more are refused with 503 and Retry-After. 0 sets no cap.",
      discussion:
        "Default: \(LoadLimits.inFlightPerCore) per core (here \(LoadLimits.defaultInFlight)), where one core's throughput stops growing (docs/operations.md).",
      valueName: "count"))
  var maxRequests: Int = LoadLimits.defaultInFlight

  @Option(
    help: ArgumentHelp(
      "Requests in flight at once from one client (an address, or an API key with --keys); more are refused with 429 and Retry-After. 0 sets no cap.",
      discussion: "Default: half of --max-requests.",
      valueName: "count"))
  var maxClientRequests: Int?

  @Option(
    help: ArgumentHelp(
      "The address of a proxy (a load balancer) whose X-Forwarded-For names the client, for --max-client-requests; repeat for several.",
      valueName: "address"))
  var trustedProxy: [String] = []

  @Option(
    help: ArgumentHelp(
      "Seconds a graceful shutdown (SIGTERM, SIGINT) drains: /healthz answers 503 while every route still answers, then the server stops listening. A second signal ends the drain early.",
      discussion:
        "Longer than the load balancer needs to see a failed check (HAProxy's inter × fall; docs/deploy.md). 0 stops at once.",
      valueName: "seconds"))
  var drain: Double = 5

  @Option(
    help: ArgumentHelp(
      "MiB per second the background verifier reads the served cubes' not-yet-verified blocks at; 0 turns it off (each block is still verified when a request first reads it).",
      discussion:
        "Start-up reads only the cubes' headers and record; this checks every block once, in the background, and withdraws a cube with a damaged block (docs/operations.md).",
      valueName: "MiB/s"))
  var verifyRate: Int = ServiceSettings.defaultVerifyBytesPerSecond >> 20

  func validate() throws {
    guard keys != nil || !keysExemptLegacy else {
      throw ValidationError("--keys-exempt-legacy exempts the legacy endpoints from --keys FILE, which is not given")
    }
    if let alertsSender, let problem = CAPDocument.senderProblem(alertsSender) {
      throw ValidationError("--alerts-sender '\(alertsSender.prefix(80))' \(problem)")
    }
    guard alerts != nil || alertsSender == nil else {
      throw ValidationError("--alerts-sender names the sender of the warnings of --alerts FILE, which is not given")
    }
    guard drain.isFinite, (0...3_600).contains(drain) else {
      throw ValidationError("--drain \(drain) is not a number of seconds in 0…3600")
    }
    guard (0...1_048_576).contains(verifyRate) else {
      throw ValidationError(
        "--verify-rate \(verifyRate) is not a number of MiB per second in 0…1048576 (0 turns it off)")
    }
    guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port in 0…65535") }
    guard (0...65_536).contains(answerCache) else {
      throw ValidationError("--answer-cache \(answerCache) is not a number of MiB in 0…65536 (0 turns it off)")
    }
    guard (0...1_000_000).contains(darkskyOutlooks) else {
      throw ValidationError("--darksky-outlooks \(darkskyOutlooks) is not a count in 0…1000000")
    }
    for (flag, value) in [("--max-requests", maxRequests), ("--max-client-requests", maxClientRequests ?? 0)]
    where !(0...1_000_000).contains(value) {
      throw ValidationError("\(flag) \(value) is not a count of requests in 0…1000000 (0 sets no cap)")
    }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError(
        "--log-level '\(logLevel)' is not a level; use trace, debug, info, notice, warning, error or critical")
    }
  }

  func run() async throws {
    LoggingSystem.bootstrap(StreamLogHandler.standardOutput)
    var logger = Logger(label: "nwpcube.serve")
    logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
    var settings = ServiceSettings(store: store, host: host, port: port)
    settings.darkSkyOutlooks = darkskyOutlooks
    settings.answerCacheBytes = answerCache << 20
    settings.verifyBytesPerSecond = verifyRate << 20
    settings.load = LoadLimits(
      inFlight: maxRequests, perClient: maxClientRequests, trustedProxies: Set(trustedProxy))
    settings.drainPeriod = .milliseconds(Int64((drain * 1_000).rounded()))
    settings.secondSignalEndsDrain = true
    settings.leasesCubes = true
    if let keys {
      do throws(KeyFileError) {
        settings.keys = try APIKeySettings(file: keys, exemptLegacy: keysExemptLegacy)
      } catch {
        throw ValidationError("--keys: \(error)")
      }
      logger.info(
        "API keys required",
        metadata: ["file": "\(keys)", "keys": "\(settings.keys?.count ?? 0)", "legacy_exempt": "\(keysExemptLegacy)"])
    }
    if let alerts {
      do throws(AlertsFileError) {
        settings.alerts = try WarningRules(path: alerts)
      } catch {
        throw ValidationError("--alerts: \(error)")
      }
      if let alertsSender { settings.alertsSender = alertsSender }
      logger.info(
        "warnings published",
        metadata: [
          "file": "\(alerts)", "rules": "\(settings.alerts?.rules.count ?? 0)", "sender": "\(settings.alertsSender)",
        ])
    }
    settings.places = try places.map { path throws(GazetteerError) in try Gazetteer(contentsOf: path) }
    let app = try buildApplication(settings, logger: logger)
    let services = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    if let places, let gazetteer = settings.places {
      logger.info("places indexed", metadata: ["file": "\(places)", "places": "\(gazetteer.places.count)"])
    }
    logger.info(
      "serving",
      metadata: [
        "store": "\(store)", "max_requests": "\(settings.load.inFlight)",
        "max_client_requests": "\(settings.load.perClient)",
      ])
    try await services.run()
    logger.info("stopped")
  }
}
