/// nwpcube's own error shape, `{"error":{"message":"…"}}`: the legacy app's endpoints, the
/// probes and every path without a route answer errors in it (`Face.errorDocument`).
public struct NwpcubeErrorDocument: Encodable, Sendable, Equatable {
  /// The error's one member.
  public struct Detail: Encodable, Sendable, Equatable {
    /// What the client is told.
    public let message: String
  }

  public let error: Detail

  /// An error saying `message`.
  public init(message: String) {
    error = Detail(message: message)
  }
}
