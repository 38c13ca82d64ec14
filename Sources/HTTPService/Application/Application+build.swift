import CubeFormat
import FaceKit
import Forecast
import Hummingbird
import HummingbirdCore
import Logging
import Meteogram
import NIOCore
import PointQuery
import ServiceLifecycle
import Store
import Warnings

/// The HTTP service over the store in `settings`: the legacy app's endpoints,
/// `/v1/forecast`, `/v1/search`, `/v1/alerts`, `/v1/meteogram.svg`, `/v1/runs`, `/healthz`,
/// `/metrics`, `/openapi.yaml` and the web page at `/`, with request logs, metrics and JSON
/// errors on every route.
///
/// Run the result in a `ServiceGroup`. Its graceful shutdown first drains for
/// `settings.drainPeriod` (`/healthz` answers 503 `draining` while every route still
/// answers; `ShutdownDrain`), then stops accepting connections and lets requests in flight
/// finish. The store is rescanned as runs are published and pruned, off the request path
/// (`StoreRefreshService`), so the service answers from the newest runs without a restart.
///
/// The service starts whatever the store holds, as it keeps running whatever happens to the
/// store: a cube that cannot be opened is left out with an error in the log, and an empty or
/// wholly unreadable store answers 503 (and `/healthz` says `unavailable`) until a readable
/// run is published.
///
/// - Parameters:
///   - logger: Where request logs and server events go.
///   - onServerRunning: Called with the port once the server listens (useful with port 0).
/// - Throws: `QueryError.unreadableStore` when the store's directory cannot be read.
public func buildApplication(
  _ settings: ServiceSettings, logger: Logger,
  onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) throws(QueryError) -> some Service {
  let health = ServiceHealth(store: settings.store, logger: logger)
  if settings.leasesCubes {
    // Before the first scan maps a cube. Without it the server still runs, unprotected, and
    // says so. A mapped cube that shrinks under a read then ends the process at once.
    CubeLeases.exitOnBusError()
    do {
      try CubeLeases.shared.start()
    } catch {
      logger.warning("cubes are served without leases", metadata: ["reason": "\(error.reason)"])
    }
  }
  let store = try ForecastStore(serving: settings.store, onScan: health.observe)
  let metrics = ServiceMetrics()
  // HEAD is answered as GET is; the encoder drops the body and keeps its length.
  let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
  // Outermost first: the log and the metrics see the status the error middleware chose.
  router.add(middleware: RequestLogMiddleware())
  router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
  let keys = settings.keys.map { APIKeyStore($0.file) }
  if let keys { metrics.startKeyMetrics(count: keys.count) }
  // Each connection's pipeline asks the gate as each request arrives (LoadGateHandler says
  // why there); it logs and counts its sheds as the middlewares do the rest. A key is looked
  // up, not spent: a shed takes no rate-limit token.
  let limiter = settings.limiter ?? LoadLimiter(settings.load)
  metrics.startLoadMetrics(limiter.limits)
  let gate = LoadGate(
    limiter: limiter, keys: keys, exemptLegacy: settings.keys?.exemptLegacy ?? false, metrics: metrics,
    routed: Set(routedPaths), maximumQueryBytes: settings.limits.queryBytes, logger: logger)
  // Inside the log and the metrics, which see its refusals; outside the error middleware, so
  // that it counts each key's requests by the status they got.
  router.add(
    middleware: APIKeyMiddleware(
      keys: keys, exemptLegacy: settings.keys?.exemptLegacy ?? false, metrics: metrics, routed: Set(routedPaths),
      maximumQueryBytes: settings.limits.queryBytes))
  router.add(middleware: JSONErrorMiddleware())
  router.add(middleware: MethodMiddleware(routed: Set(routedPaths)))
  let answers =
    settings.answerCacheBytes > 0
    ? AnswerCache(bytes: settings.answerCacheBytes, entries: settings.answerCacheEntries, metrics: metrics) : nil
  LegacyRoutes(store: store, maximumQueryBytes: settings.limits.queryBytes, answers: answers).register(on: router)
  ForecastRoute(
    store: store, limits: settings.limits, clock: settings.clock,
    zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)), answers: answers
  )
  .register(on: router)
  let warnings = settings.alerts.map(WarningEvaluator.init(rules:))
  DarkSkyRoute(
    store: store, limits: settings.limits, clock: settings.clock,
    zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)), places: settings.places,
    warnings: warnings,
    outlooks: settings.darkSkyOutlooks > 0
      ? DarkSkyOutlookCache(capacity: settings.darkSkyOutlooks, metrics: metrics) : nil,
    answers: answers
  )
  .register(on: router)
  SearchRoute(gazetteer: settings.places, maximumQueryBytes: settings.limits.queryBytes).register(on: router)
  OpenWeatherMapRoute(
    store: store, maximumQueryBytes: settings.limits.queryBytes, clock: settings.clock,
    gazetteer: settings.places,
    zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)),
    answers: answers
  )
  .register(on: router)
  AlertsRoute(
    store: store, evaluator: warnings,
    sender: settings.alertsSender,
    clock: settings.clock, maximumQueryBytes: settings.limits.queryBytes
  )
  .register(on: router)
  MeteogramRoute(
    store: store, maximumQueryBytes: settings.limits.queryBytes, clock: settings.clock,
    zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)),
    rasterizer: SVGRasterizer(path: settings.rsvgConvert)
  )
  .register(on: router)
  ServiceRoutes(store: store, health: health, metrics: metrics, openAPI: ServiceRoutes.loadOpenAPI())
    .register(on: router)
  WebPageRoutes(assets: WebAsset.load(from: BundledResources.directory.appendingPathComponent("web")))
    .register(on: router)
  TileRoutes(store: store, clock: settings.clock, maximumQueryBytes: settings.limits.queryBytes).register(on: router)
  var services: [any Service] = [StoreRefreshService(store: store)]
  if settings.verifyBytesPerSecond > 0 {
    services.append(
      CubeVerifierService(
        store: store, bytesPerSecond: settings.verifyBytesPerSecond, metrics: metrics, logger: logger))
  }
  if let keys { services.append(KeyReloadService(keys: keys, metrics: metrics, logger: logger)) }
  let application = Application(
    router: router,
    server: .http1(
      configuration: HTTP1Channel.Configuration(
        additionalChannelHandlers: [MalformedRequestHandler(), LoadGateHandler(gate: gate)],
        idleTimeout: settings.idleTimeout)),
    configuration: ApplicationConfiguration(
      address: .hostname(settings.host, port: settings.port), serverName: "nwpcube"),
    services: services,
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
    logger: logger)
  // Listed after the application, so that a graceful shutdown drains before the server stops.
  let drain = ShutdownDrain(
    health: health, period: settings.drainPeriod, endsOnSecondSignal: settings.secondSignalEndsDrain, logger: logger)
  return ServiceGroup(configuration: ServiceGroupConfiguration(services: [application, drain], logger: logger))
}

/// Every path the application routes: the OpenAPI document must describe exactly these.
let routedPaths = [
  LegacyRoutes.quickPath, LegacyRoutes.dayPath, LegacyRoutes.daysPath, LegacyRoutes.nextHoursPath, ForecastRoute.path,
  SearchRoute.path, AlertsRoute.path, AlertsRoute.capPath, DarkSkyRoute.path, OpenWeatherMapRoute.forecastPath,
  OpenWeatherMapRoute.weatherPath, ServiceRoutes.runsPath, ServiceRoutes.healthPath, ServiceRoutes.metricsPath,
  ServiceRoutes.openAPIPath, WebPageRoutes.pagePath, WebPageRoutes.assetPath, MeteogramRoute.path,
  TileRoutes.tilePath, TileRoutes.legendPath, TileRoutes.domainsPath,
]
