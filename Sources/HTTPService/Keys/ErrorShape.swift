import FaceKit
import Hummingbird

/// The error bodies of the APIs the server speaks.
enum ErrorShape: Sendable {
  /// nwpcube's own (the legacy routes' and the service routes'): `{"error":{"message":"…"}}`.
  case nwpcube
  /// Open-Meteo's: `{"error":true,"reason":"…"}`.
  case openMeteo
  /// OpenWeatherMap's: `{"cod":"404","message":"city not found"}`. Like OpenWeatherMap's own,
  /// `cod` is a number for a refused key (401, 429) and a string otherwise; a 401's message
  /// starts "Invalid API key." as OpenWeatherMap's does, which its clients look for.
  case openWeatherMap
  /// Dark Sky's: `{"code":400,"error":"…"}`.
  case darkSky

  /// The body for an error of `status` saying `message`.
  func body(status: HTTPResponse.Status, message: String) -> String {
    switch self {
    case .nwpcube:
      JSONText.object([("error", JSONText.object([("message", JSONText.string(message))]))])
    case .openMeteo:
      JSONText.object([("error", "true"), ("reason", JSONText.string(message))])
    case .openWeatherMap:
      JSONText.object([
        (
          "cod",
          status == .unauthorized || status == .tooManyRequests
            ? String(status.code) : JSONText.string(String(status.code))
        ),
        ("message", JSONText.string(status == .unauthorized ? "Invalid API key. \(message)" : message)),
      ])
    case .darkSky:
      JSONText.object([("code", String(status.code)), ("error", JSONText.string(message))])
    }
  }

  /// The error as a JSON response.
  func response(status: HTTPResponse.Status, message: String) -> Response {
    Responses.text(body(status: status, message: message), contentType: Responses.json, status: status)
  }
}
