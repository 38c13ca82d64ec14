import Hummingbird

/// A request the service refuses for reasons of HTTP, not of an API: a form body of the
/// wrong type or size. What a face refuses (a parameter, a query too long, a thing that
/// does not exist) is a `FaceError`.
struct APIError: Error, JSONErrorResponse {
  let status: HTTPResponse.Status
  /// The message, naming the parameter and what it accepts.
  let description: String

  init(_ status: HTTPResponse.Status, _ message: String) {
    self.status = status
    self.description = message
  }
}

/// An error about one location of several, which says which one it was about and keeps
/// the status of the error it wraps.
struct LocationError: Error, JSONErrorResponse {
  let index: Int
  let latitude: Double
  let longitude: Double
  let underlying: any JSONErrorResponse

  var status: HTTPResponse.Status { underlying.status }

  var description: String {
    "location_id \(index) (latitude \(latitude), longitude \(longitude)): \(underlying.description)"
  }

  var message: String {
    "location_id \(index) (latitude \(latitude), longitude \(longitude)): \(underlying.message)"
  }
}
