/// Dark Sky's error body, `{"code":400,"error":"…"}`: the HTTP status as a number, then the
/// message.
public struct DarkSkyErrorDocument: Encodable, Sendable, Equatable {
  /// The HTTP status.
  public let code: Int
  /// What the client is told.
  public let error: String

  /// An error of HTTP status `code` saying `error`.
  public init(code: Int, error: String) {
    self.code = code
    self.error = error
  }
}
