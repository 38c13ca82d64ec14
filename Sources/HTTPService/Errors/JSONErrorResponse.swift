import ForecastOutput
import Hummingbird

/// An error a client receives as `{"error": {"message": "…"}}` with the error's status.
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
    JSONErrorBody.response(status: status, message: message)
  }
}

/// The body every error response carries.
enum JSONErrorBody {
  /// `{"error": {"message": message}}` with `status`.
  static func response(status: HTTPResponse.Status, message: String) -> Response {
    let body = JSONText.object([("error", JSONText.object([("message", JSONText.string(message))]))])
    return Responses.text(body, contentType: Responses.json, status: status)
  }
}
