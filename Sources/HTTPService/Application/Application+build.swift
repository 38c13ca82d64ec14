import Forecast
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PointQuery

/// The HTTP service over the store in `settings`: the legacy app's endpoints,
/// `/v1/forecast`, `/v1/runs`, `/healthz`, `/metrics` and `/openapi.yaml`, with request logs,
/// metrics and JSON errors on every route.
///
/// Run the result in a `ServiceGroup` (its graceful shutdown lets requests in flight finish)
/// or with `runService()`. The store is rescanned as runs are published and pruned, so the
/// service answers from the newest runs without a restart.
///
/// - Parameters:
///   - logger: Where request logs and server events go.
///   - onServerRunning: Called with the port once the server listens (useful with port 0).
/// - Throws: `QueryError` when the store has no readable cube.
public func buildApplication(
  _ settings: ServiceSettings, logger: Logger,
  onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) throws(QueryError) -> some ApplicationProtocol {
  let store = try ForecastStore(path: settings.store)
  let forecaster = Forecaster(store: store)
  let metrics = ServiceMetrics()
  let router = Router(context: BasicRequestContext.self)
  // Outermost first: the log and the metrics see the status the error middleware chose.
  router.add(middleware: RequestLogMiddleware())
  router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
  router.add(middleware: JSONErrorMiddleware())
  LegacyRoutes(forecaster: forecaster, maximumQueryBytes: settings.limits.queryBytes).register(on: router)
  ForecastRoute(forecaster: forecaster, limits: settings.limits, clock: settings.clock).register(on: router)
  ServiceRoutes(store: store, metrics: metrics, openAPI: ServiceRoutes.loadOpenAPI()).register(on: router)
  return Application(
    router: router,
    server: .http1(
      configuration: HTTP1Channel.Configuration(
        additionalChannelHandlers: [MalformedRequestHandler()], idleTimeout: settings.idleTimeout)),
    configuration: ApplicationConfiguration(
      address: .hostname(settings.host, port: settings.port), serverName: "nwpcube"),
    onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? settings.port) },
    logger: logger)
}

/// Every path the application routes: the OpenAPI document must describe exactly these.
let routedPaths = [
  LegacyRoutes.quickPath, LegacyRoutes.dayPath, LegacyRoutes.daysPath, LegacyRoutes.nextHoursPath, ForecastRoute.path,
  ServiceRoutes.runsPath, ServiceRoutes.healthPath, ServiceRoutes.metricsPath, ServiceRoutes.openAPIPath,
]
