import Hummingbird

/// The paths the service routes, as its router holds them (`Router.routes`): the load gate,
/// the key middleware and the method middleware tell a routed path from an unknown one by
/// it, and the OpenAPI document must describe exactly these.
///
/// A path with parameters is written as the router writes it, `/static/{file}`, which
/// `RoutePattern` matches segment by segment.
struct RouteTable: Sendable, Equatable {
  /// Every routed path, whatever its methods.
  let paths: Set<String>

  /// The paths of the routes registered on `router`.
  init(_ router: Router<some RequestContext>) {
    paths = Set(router.routes.map(\.path.description))
  }

  /// The paths `groups` route. They are registered on a router of their own and read back:
  /// the middlewares that need the paths must be added to the service's router before its
  /// routes are (a route takes the middlewares added before it), so the service's router
  /// cannot be read yet when they are made.
  init(routing groups: [any RouteGroup]) {
    let router = Router(context: NwpcubeRequestContext.self)
    for group in groups { group.register(on: router) }
    self.init(router)
  }
}
