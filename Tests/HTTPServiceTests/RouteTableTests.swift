import Foundation
import Hummingbird
import Logging
import Store
import Testing
import _TestSupport

@testable import HTTPService

/// The paths the service's middlewares and load gate know are read from its router, and the
/// OpenAPI document describes exactly those: a route added to a group without its entry in
/// the document fails here.
@Suite struct RouteTableTests {
  /// The service's route groups over the sample store, as `buildApplication` lists them.
  static func sampleRoutes() throws -> [any RouteGroup] {
    let settings = SampleService.settings
    let store = try ForecastStore(serving: settings.store)
    return serviceRoutes(
      settings, store: store, health: ServiceHealth(store: settings.store, logger: Logger(label: "test")),
      metrics: ServiceMetrics())
  }

  /// The paths the service routes, read from a router holding its routes.
  static func routedPaths() throws -> Set<String> { RouteTable(routing: try sampleRoutes()).paths }

  /// The paths openapi.yaml describes.
  static func documentedPaths() throws -> Set<String> {
    Set(try OpenAPITests.operations(try OpenAPITests.document()).map(\.path))
  }

  @Test func theRoutedPathsAreTheRoutersRoutesAndTheOpenAPIDocumentsPaths() throws {
    let groups = try Self.sampleRoutes()
    // The service's own router, with its options, as buildApplication makes it.
    let router = Router(context: NwpcubeRequestContext.self, options: .autoGenerateHeadEndpoints)
    for group in groups { group.register(on: router) }
    let fromRouter = Set(router.routes.map(\.path.description))
    #expect(RouteTable(routing: groups).paths == fromRouter)
    #expect(fromRouter == (try Self.documentedPaths()))
    // Spelled out, so that a table read wrongly (empty, or every path the same) fails too.
    #expect(fromRouter.count == 21)
    for path in [
      "/", "/healthz", "/v1/forecast", "/forecast/{key}/{location}", "/static/{file}",
      "/v1/tiles/{metric}/{time}/{z}/{x}/{y}.png", "/v1/legend/{metric}.svg", "/QuickPrevByDate.php",
    ] {
      #expect(fromRouter.contains(path), "\(path) is not routed: \(fromRouter.sorted())")
    }
  }

  /// A group with one more route, which the document does not describe.
  struct Undocumented: RouteGroup {
    func register<Context: RequestContext>(on router: Router<Context>) {
      router.get("/v1/undocumented") { _, _ in "" }
    }
  }

  @Test func aRouteAddedWithoutItsOpenAPIEntryIsRoutedAndDiffersFromTheDocument() throws {
    let paths = RouteTable(routing: try Self.sampleRoutes() + [Undocumented()]).paths
    #expect(paths.contains("/v1/undocumented"))
    #expect(paths.subtracting(try Self.documentedPaths()) == ["/v1/undocumented"])
  }
}
