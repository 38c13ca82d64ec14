import Hummingbird

/// An error a client receives as a JSON body in its API family's shape (see
/// `JSONErrorBody`) with the error's status.
///
/// The core libraries' errors (`QueryError`, `ForecastError`, `UnitError`,
/// `LocalTimeError`) conform here, in the server module, so that they stay free of HTTP:
/// each says which status it means, and its description is the message unless it gives one. (Public only
/// because a public error type's conformance must be.)
public protocol JSONErrorResponse: HTTPResponseError, CustomStringConvertible {
  /// What the client is told; the description unless the error says otherwise.
  var message: String { get }
}

extension JSONErrorResponse {
  public var message: String { description }

  /// The error as a response: its status and its message.
  public func response(from request: Request, context: some RequestContext) throws -> Response {
    try JSONErrorBody.response(status: status, message: message, request: request, context: context)
  }
}

/// The body every error response carries, in the shape of the API family its path belongs
/// to (`APIFamily`, whose face writes it): the `/v1/` routes answer `{"error": true, "reason": "…"}` as
/// Open-Meteo's do, `/data/2.5/` OpenWeatherMap's `cod` and `message`, `/forecast/` Dark
/// Sky's `code` and `error`; every other route (the legacy app's, `/healthz`, …) keeps
/// nwpcube's `{"error": {"message": "…"}}`.
enum JSONErrorBody {
  /// The error `message` with `status`, in the shape of the API family of `request`'s path
  /// (nwpcube's own for the probes), through the context's encoder.
  static func response(
    status: HTTPResponse.Status, message: String, request: Request, context: some RequestContext
  ) throws -> Response {
    try (APIFamily(path: request.uri.path) ?? .nwpcube).errorResponse(
      status: status, message: message, request: request, context: context)
  }
}
