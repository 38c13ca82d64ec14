import FaceKit

/// The original iPhone app's endpoints as the service's keys and errors see them: the app
/// sends no key (the service can exempt them), otherwise the key is in `apikey`; errors
/// are nwpcube's own shape, `{"error":{"message":"…"}}`.
public enum LegacyAPI: Face {
  /// The query parameter `apikey`.
  public static let key = KeyLocation.query("apikey")
}
