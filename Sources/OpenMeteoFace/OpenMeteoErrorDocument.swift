/// Open-Meteo's error body, `{"error":true,"reason":"…"}`, which its SDKs read: the forecast
/// and geocoding routes and everything else under `/v1/` answer errors in it.
public struct OpenMeteoErrorDocument: Encodable, Sendable, Equatable {
  /// Always true: Open-Meteo's clients test for the key.
  public let error = true
  /// What the client is told.
  public let reason: String

  /// An error saying `reason`.
  public init(reason: String) {
    self.reason = reason
  }
}
