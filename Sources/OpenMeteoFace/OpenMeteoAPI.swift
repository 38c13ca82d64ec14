import FaceKit

/// Open-Meteo's API as the service's keys and errors see it: the key in `apikey`, or in the
/// `x-api-key` header its SDKs send, and errors as `{"error":true,"reason":"…"}`.
public enum OpenMeteoAPI: Face {
  /// The query parameter `apikey`.
  public static let key = KeyLocation.query("apikey")
  /// Open-Meteo's `x-api-key`, which wins over the parameter.
  public static let keyHeader: String? = "x-api-key"

  /// `{"error":true,"reason":"…"}`.
  public static func errorDocument(status: Int, message: String) -> any Encodable & Sendable {
    OpenMeteoErrorDocument(reason: message)
  }
}
