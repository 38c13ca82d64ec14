import Hummingbird

/// A request the server refuses before asking the store anything: a malformed or missing
/// parameter, a request over a limit, a path with no route.
struct APIError: Error, JSONErrorResponse {
  let status: HTTPResponse.Status
  /// The message, naming the parameter and what it accepts.
  let description: String

  init(_ status: HTTPResponse.Status, _ message: String) {
    self.status = status
    self.description = message
  }

  /// A parameter whose value is unusable: `"<name>: <problem>"`.
  static func parameter(_ name: String, _ problem: String) -> APIError {
    APIError(.badRequest, "\(name): \(problem)")
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
