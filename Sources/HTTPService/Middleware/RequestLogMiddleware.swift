import FaceKit
import HTTPTypes
import Hummingbird
import Logging

/// The response header that carries the request id.
private let requestIDField = HTTPField.Name("X-Request-Id")

/// Logs one structured line per request: method, path, status, duration and the request
/// id Hummingbird puts in the logger's metadata (`hb.request.id`), which the response also
/// carries as `X-Request-Id` so that a client's report can be found in the log.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
  /// The longest query logged; the rest is cut, so that a hostile query cannot flood the log.
  static var queryLimit: Int { 256 }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    var response = try await next(request, context)
    let duration = ContinuousClock.now - start
    let id = context.logger[metadataKey: "hb.request.id"]?.description
    if let id, let requestIDField { response.headers[requestIDField] = id }
    // The line's fields are made only when it is written: a server logging at `warning`
    // does not pay for them on every request.
    guard context.logger.logLevel <= .info else { return response }
    var metadata: Logger.Metadata = [
      "method": "\(request.method)", "path": "\(APIFamily.redacting(request.uri.path))",
      "status": "\(response.status.code)",
      "duration_ms": "\(duration.milliseconds)",
    ]
    if let query = request.uri.query.map({ KeyLocation.query($0, redacting: APIFamily.keyParameters) }) {
      metadata["query"] = "\(query.count <= Self.queryLimit ? query : String(query.prefix(Self.queryLimit)) + "…")"
    }
    context.logger.info("request", metadata: metadata)
    return response
  }
}

extension Duration {
  /// The duration in milliseconds, to the microsecond.
  var milliseconds: Double {
    let (seconds, attoseconds) = components
    return ((Double(seconds) * 1e6 + Double(attoseconds / 1_000_000_000_000)) / 1e3)
  }
}
