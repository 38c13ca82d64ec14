import FaceKit

/// nwpcube's own routes as the service's keys and errors see them: the key in `apikey`,
/// errors as `{"error":{"message":"…"}}`.
public enum NwpcubeAPI: Face {
  /// The query parameter `apikey`.
  public static let key = KeyLocation.query("apikey")
}
