import Hummingbird
import Meteorology

/// A unit name a client chose that is not allowed; the message names its parameter.
extension UnitError: JSONErrorResponse {
  public var status: HTTPResponse.Status { .badRequest }
}
