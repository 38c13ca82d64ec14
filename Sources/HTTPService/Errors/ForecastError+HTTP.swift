import Forecast
import Hummingbird

/// A forecast that cannot be made: its status is that of the store error inside it, 404 for
/// times no run covers, 400 for names and counts the client got wrong.
extension ForecastError: JSONErrorResponse {
  public var status: HTTPResponse.Status {
    switch self {
    case .query(let error): error.status
    case .notCovered: .notFound
    case .unknownMetric, .unknownDailyVariable, .outOfRange: .badRequest
    }
  }

  /// The store error's own message for a store error, so that its paths stay private too.
  public var message: String {
    if case .query(let error) = self { return error.message }
    return description
  }
}
