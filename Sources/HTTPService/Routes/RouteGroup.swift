import Hummingbird

/// Routes that register themselves on a router: each API's routes, the probes, the web page.
///
/// The service lists its groups once (`serviceRoutes`) and registers that list, so that the
/// paths its middlewares and its load gate know (`RouteTable`) are read from a router holding
/// the very same routes rather than kept by hand beside them.
protocol RouteGroup: Sendable {
  /// Adds the group's routes to `router`.
  func register<Context: RequestContext>(on router: Router<Context>)
}

// The conformances live here rather than on each route's declaration: they only say that
// each group's existing `register(on:)` is the one above.
extension LegacyRoutes: RouteGroup {}
extension ForecastRoute: RouteGroup {}
extension DarkSkyRoute: RouteGroup {}
extension SearchRoute: RouteGroup {}
extension OpenWeatherMapRoute: RouteGroup {}
extension AlertsRoute: RouteGroup {}
extension MeteogramRoute: RouteGroup {}
extension ServiceRoutes: RouteGroup {}
extension WebPageRoutes: RouteGroup {}
extension TileRoutes: RouteGroup {}
