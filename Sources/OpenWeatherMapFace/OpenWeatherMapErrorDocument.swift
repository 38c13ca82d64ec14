/// OpenWeatherMap's error body, `{"cod":"404","message":"city not found"}`.
///
/// Like OpenWeatherMap's own, `cod` is a number for a refused key (401, 429) and a string
/// otherwise; a 401's message starts "Invalid API key." as OpenWeatherMap's does, which its
/// clients look for.
public struct OpenWeatherMapErrorDocument: Encodable, Sendable, Equatable {
  /// The HTTP status.
  public let status: Int
  /// What the client is told, before a 401's prefix.
  public let message: String

  /// An error of HTTP status `status` saying `message`.
  public init(status: Int, message: String) {
    self.status = status
    self.message = message
  }

  private enum CodingKeys: String, CodingKey {
    case cod, message
  }

  /// `cod`, a number or a string as OpenWeatherMap writes it, then `message`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    if status == 401 || status == 429 {
      try container.encode(status, forKey: .cod)
    } else {
      try container.encode(String(status), forKey: .cod)
    }
    try container.encode(status == 401 ? "Invalid API key. \(message)" : message, forKey: .message)
  }
}
