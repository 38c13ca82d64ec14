import FaceKit
import Foundation
import Hummingbird
import NwpcubeFace
import PointQuery
import Store

/// The routes that describe and watch the service: its runs, its health, its metrics and
/// its OpenAPI document.
struct ServiceRoutes: Sendable {
  static let runsPath = "/v1/runs"
  static let healthPath = "/healthz"
  static let metricsPath = "/metrics"
  static let openAPIPath = "/openapi.yaml"

  let store: ForecastStore
  let health: ServiceHealth
  let metrics: ServiceMetrics
  /// The OpenAPI document, nil when it is not installed beside the binary.
  let openAPI: String?
  /// The runs `/v1/runs` lists, each cube's header read once per version of its file.
  let inventory = StoreInventoryCache()

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.runsPath)) { _, _ in
      // The store's directory stands for "this store" in the answer; its path stays private.
      ColdAnswer(RunListing.Document(inventory.runs(in: store.path).map(\.listed), paths: false))
    }
    // Readiness: whether any cube can answer (see `ServiceHealth`). Kept cheap, since load
    // balancers poll it and the load test measures the forecast routes against it: it loads
    // the current catalog, as every query does.
    router.get(RouterPath(Self.healthPath)) { _, _ in health.response(for: store.catalog) }
    router.get(RouterPath(Self.metricsPath)) { _, _ in
      Responses.text(
        metrics.exposition(
          catalog: store.catalog, rejectedCubes: store.cubesRejected, withdrawnCubes: store.cubesWithdrawn),
        contentType: Responses.prometheus)
    }
    router.get(RouterPath(Self.openAPIPath)) { _, _ in
      guard let openAPI else {
        throw FaceError(.notFound, "the OpenAPI document is not installed beside this nwpcube binary")
      }
      return Responses.text(openAPI, contentType: Responses.yaml)
    }
  }

  /// The OpenAPI document from the resource bundle, nil when it is not installed.
  static func loadOpenAPI() -> String? {
    try? String(contentsOf: BundledResources.directory.appendingPathComponent("openapi.yaml"), encoding: .utf8)
  }
}
