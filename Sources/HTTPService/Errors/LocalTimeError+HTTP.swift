import Forecast
import Hummingbird

/// A time zone or date a client gave that does not exist.
extension LocalTimeError: JSONErrorResponse {
  public var status: HTTPResponse.Status { .badRequest }
}
