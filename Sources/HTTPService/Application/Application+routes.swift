import FaceKit
import Forecast
import Foundation
import Hummingbird
import Meteogram
import Store
import Warnings

/// Every route group of the service over `store` with `settings`: the legacy app's
/// endpoints, each API face's, the probes and the web page. `buildApplication` registers
/// them, and the paths they route (`RouteTable`) are what the middlewares and the OpenAPI
/// document are checked against.
func serviceRoutes(
  _ settings: ServiceSettings, store: ForecastStore, health: ServiceHealth, metrics: ServiceMetrics
) -> [any RouteGroup] {
  let warnings = settings.alerts.map(WarningEvaluator.init(rules:))
  let answers =
    settings.answerCacheBytes > 0
    ? AnswerCache(bytes: settings.answerCacheBytes, entries: settings.answerCacheEntries, metrics: metrics) : nil
  return [
    LegacyRoutes(store: store, maximumQueryBytes: settings.limits.queryBytes, answers: answers),
    ForecastRoute(
      store: store, limits: settings.limits, clock: settings.clock,
      zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)), answers: answers
    ),
    DarkSkyRoute(
      store: store, limits: settings.limits, clock: settings.clock,
      zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)),
      places: settings.places,
      warnings: warnings,
      outlooks: settings.darkSkyOutlooks > 0
        ? DarkSkyOutlookCache(capacity: settings.darkSkyOutlooks, metrics: metrics) : nil,
      answers: answers
    ),
    SearchRoute(gazetteer: settings.places, maximumQueryBytes: settings.limits.queryBytes),
    OpenWeatherMapRoute(
      store: store, maximumQueryBytes: settings.limits.queryBytes, clock: settings.clock,
      gazetteer: settings.places,
      zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)),
      answers: answers
    ),
    AlertsRoute(
      store: store, evaluator: warnings, sender: settings.alertsSender, clock: settings.clock,
      maximumQueryBytes: settings.limits.queryBytes
    ),
    MeteogramRoute(
      store: store, maximumQueryBytes: settings.limits.queryBytes, clock: settings.clock,
      zoneFinder: settings.zoneFinder ?? settings.places.map(ZoneFinder.init(nearestPlaceIn:)),
      rasterizer: SVGRasterizer(path: settings.rsvgConvert)
    ),
    ServiceRoutes(store: store, health: health, metrics: metrics, openAPI: ServiceRoutes.loadOpenAPI()),
    WebPageRoutes(assets: WebAsset.load(from: BundledResources.directory.appendingPathComponent("web"))),
    TileRoutes(store: store, clock: settings.clock, maximumQueryBytes: settings.limits.queryBytes),
  ]
}
