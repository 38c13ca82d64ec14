import Hummingbird

/// Counts each request by route and status and records its latency in `ServiceMetrics`.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
  let metrics: ServiceMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    let response = try await next(request, context)
    // The router names the matched route (or `NotFound`) once it has looked the path up.
    metrics.record(
      route: context.endpointPath ?? "NotFound", status: response.status.code, duration: ContinuousClock.now - start)
    return response
  }
}
