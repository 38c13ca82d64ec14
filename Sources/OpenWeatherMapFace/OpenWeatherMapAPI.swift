import FaceKit

/// OpenWeatherMap's 2.5 API as the service's keys and errors see it: the key in `appid`, and
/// errors as `{"cod":"404","message":"city not found"}`.
public enum OpenWeatherMapAPI: Face {
  /// The query parameter `appid`.
  public static let key = KeyLocation.query("appid")

  /// `{"cod":…,"message":…}`. Like OpenWeatherMap's own, `cod` is a number for a refused
  /// key (401, 429) and a string otherwise; a 401's message starts "Invalid API key." as
  /// OpenWeatherMap's does, which its clients look for.
  public static func errorDocument(status: Int, message: String) -> any Encodable & Sendable {
    OpenWeatherMapErrorDocument(status: status, message: message)
  }
}
