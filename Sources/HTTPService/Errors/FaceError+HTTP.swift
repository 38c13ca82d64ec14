import FaceKit
import Hummingbird

/// A request a face refuses: a parameter it cannot use (400), a query longer than the
/// service reads (414), something the request names that does not exist (404), or a
/// service that cannot answer now (503).
extension FaceError: JSONErrorResponse {
  public var status: HTTPResponse.Status {
    switch kind {
    case .badParameter: .badRequest
    case .tooLong: .uriTooLong
    case .notFound: .notFound
    case .unavailable: .serviceUnavailable
    }
  }
}
