import FaceKit
import HTTPTypes
import Hummingbird

/// Requires a known key on every path but the probes, when the server has keys: refuses a
/// missing or unknown key with 401 and a key over its rate limit with 429 and
/// `Retry-After`, in the error shape of the path's API family, and counts each request under
/// its key's name.
///
/// With keys or without, the key leaves the query before the route reads it, so that no
/// route sees a key, and a client that always sends one is answered by a server without
/// keys too (`/v1/forecast` refuses parameters it does not know).
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The keys in force; nil when the server requires none.
  let keys: APIKeyStore?
  /// Whether the legacy app's endpoints are answered without a key.
  let exemptLegacy: Bool
  let metrics: ServiceMetrics
  /// The paths with routes: a refusal on one is counted under its route, not `NotFound`.
  let routed: Set<String>
  /// The longest query read, as the routes read it.
  let maximumQueryBytes: Int

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard let family = APIFamily(path: request.uri.path) else { return try await next(request, context) }
    guard let keys, !(exemptLegacy && family == .legacy) else {
      return try await next(Self.withoutKey(request, family.key), context)
    }
    let location = family.key
    let refuse = { (status: HTTPResponse.Status, message: String) in
      if routed.contains(request.uri.path) { context.coreContext.endpointPath.value = request.uri.path }
      var response = family.errorResponse(status: status, message: message)
      // HTTP requires a challenge on every 401 (RFC 9110, 15.5.2); it names where the key goes.
      if status == .unauthorized { response.headers[.wwwAuthenticate] = location.challenge }
      return response
    }
    let candidate: Substring
    var request = request
    switch location {
    case .query(let name):
      // Open-Meteo's clients may send the key as a header, which wins over the parameter there.
      if let field = family.keyHeader, let header = request.headers[field] {
        candidate = Substring(header)
        break
      }
      let value: String?
      do {
        // A form posted to a path that takes one carries its key in the body.
        if request.method == .post, FormBody.paths.contains(request.uri.path) {
          let form = try await FormBody.read(&request, maximumBytes: ForecastRoute.maximumFormBytes)
          value = try QueryParameters(request: form, maximumBytes: ForecastRoute.maximumFormBytes, repeats: .lastWins())
            .key(
              name)
        } else {
          value = try QueryParameters(request: request.uri.query, maximumBytes: maximumQueryBytes, repeats: .lastWins())
            .key(
              name)
        }
      } catch let error as any JSONErrorResponse {
        return refuse(error.status, error.description)
      }
      guard let value else {
        return refuse(.unauthorized, "\(name): missing; this server requires an API key: \(location.help)")
      }
      candidate = Substring(value)
    case .pathSegment(let index):
      guard let decoded = KeyLocation.key(inSegment: index, of: request.uri.path) else {
        return refuse(
          .unauthorized,
          "\(location.subject): not a valid API key; it has malformed percent-encoding (encode bytes as %XX with two "
            + "hexadecimal digits, in UTF-8)")
      }
      candidate = Substring(decoded)
    }
    guard !candidate.isEmpty else {
      return refuse(.unauthorized, "\(location.subject): empty; this server requires an API key: \(location.help)")
    }
    guard candidate.utf8.count <= APIKey.maximumLength else {
      return refuse(
        .unauthorized,
        "\(location.subject): not a valid API key; it is \(candidate.utf8.count) characters long, "
          + "and keys have at most \(APIKey.maximumLength)")
    }
    switch keys.verdict(for: candidate) {
    case .unknown:
      return refuse(.unauthorized, "\(location.subject): not a valid API key")
    case .limited(let name, let limit, let wait):
      metrics.recordKey(name: name, status: HTTPResponse.Status.tooManyRequests.code)
      var response = refuse(
        .tooManyRequests, "\(location.subject): this key's rate limit of \(limit) is reached; retry in \(wait) s")
      response.headers[.retryAfter] = String(wait)
      return response
    case .accepted(let name):
      let response = try await next(Self.withoutKey(request, location), context)
      metrics.recordKey(name: name, status: response.status.code)
      return response
    }
  }

  /// `request` with the key taken out of its query, when `location` puts it there.
  static func withoutKey(_ request: Request, _ location: KeyLocation) -> Request {
    // Most requests carry no key and no escape that could spell one: passed on untouched.
    guard case .query(let name) = location, let query = request.uri.query,
      KeyLocation.mentions(query, name) || query.utf8.contains(UInt8(ascii: "%"))
    else { return request }
    var head = request.head
    head.path = request.uri.path + (KeyLocation.query(query, removing: name).map { "?" + $0 } ?? "")
    return Request(head: head, body: request.body)
  }
}
