import Hummingbird
import PointQuery

/// What the store says about a point: a point outside every domain or a time no run covers
/// is a question without an answer (404); a malformed coordinate or name is a bad request
/// (400); a store with nothing readable is the service's trouble, not the client's (503).
extension QueryError: JSONErrorResponse {
  public var status: HTTPResponse.Status {
    switch self {
    case .outsideDomain, .timeOutsideRun, .timeNotCovered: .notFound
    case .unknownMetric, .invalidCoordinate, .unknownDomain: .badRequest
    case .emptyStore, .unreadableCube: .serviceUnavailable
    }
  }
}
