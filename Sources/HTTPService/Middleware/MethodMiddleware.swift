import HTTPTypes
import Hummingbird

/// Answers a method other than GET or HEAD on a path the service routes with 405, an `Allow`
/// header and a JSON error body, instead of the 404 the router would give: the path exists,
/// only the method is wrong (RFC 9110 §15.5.6). Paths without a route keep their 404. The
/// paths that also take a form by POST (`FormBody.paths`, Open-Meteo's) let POST through.
///
/// HEAD itself is answered by the router (`autoGenerateHeadEndpoints`) as GET is, and the
/// HTTP encoder leaves out the body while keeping its `Content-Length`.
struct MethodMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The paths that have routes, all of them GET (and so HEAD).
  let routed: Set<String>
  /// Those with path parameters, matched segment by segment.
  let templates: [String]

  init(routed: Set<String>) {
    self.routed = routed
    templates = routed.filter { $0.contains("{") }.sorted()
  }

  static var allowed: String { "GET, HEAD" }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let postable = FormBody.paths.contains(request.uri.path)
    guard request.method != .get, request.method != .head, !(postable && request.method == .post),
      let route = RoutePattern.route(of: request.uri.path, routed: routed, templates: templates)
    else {
      return try await next(request, context)
    }
    // Counted under its route rather than as NotFound: the path is one of the few routed.
    context.coreContext.endpointPath.value = route
    var response = try JSONErrorBody.response(
      status: .methodNotAllowed,
      // Redacted: Dark Sky's path carries a key, which no answer may echo.
      message: "method \(request.method) is not allowed on \(APIFamily.redacting(request.uri.path)); use "
        + (postable ? "GET, HEAD or POST" : "GET or HEAD"),
      request: request, context: context)
    response.headers[.allow] = postable ? Self.allowed + ", POST" : Self.allowed
    return response
  }
}
