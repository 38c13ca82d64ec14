import FaceKit

/// Dark Sky's API as the service's keys and errors see it: the key in the path,
/// `/forecast/{key}/{latitude},{longitude}`, and errors as `{"code":400,"error":"…"}`.
public enum DarkSkyAPI: Face {
  /// The second path segment.
  public static let key = KeyLocation.pathSegment(2)

  /// `{"code":…,"error":"…"}`.
  public static func errorDocument(status: Int, message: String) -> any Encodable & Sendable {
    DarkSkyErrorDocument(code: status, error: message)
  }
}
