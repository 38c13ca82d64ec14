/// One API nwpcube speaks, as far as the service's keys and errors go: where its clients
/// put an API key, and the shape of its error bodies, so that a client is refused in words
/// its library reads.
///
/// Each face module has one (`OpenMeteoAPI`, `DarkSkyAPI`, …); the service picks the face
/// of a request by its path and asks it, instead of switching over every API in each place
/// that needs to know. A new API is then one conformance in its module and one line in the
/// service's table of paths.
public protocol Face: Sendable {
  /// Where the face's clients put the key.
  static var key: KeyLocation { get }
  /// The header in which the face's clients may send the key instead, which then wins over
  /// `key` (lower case); nil when there is none.
  static var keyHeader: String? { get }
  /// The JSON error document for an error of HTTP status `status` saying `message`, in
  /// the face's shape, with its keys in `encode(to:)`'s order (`OrderedJSONEncoder`).
  static func errorDocument(status: Int, message: String) -> any Encodable & Sendable
}

extension Face {
  /// No header: the key is where `key` says.
  public static var keyHeader: String? { nil }

  /// nwpcube's own error shape, `{"error":{"message":"…"}}`, which every face that has no
  /// shape of its own answers with.
  public static func errorDocument(status: Int, message: String) -> any Encodable & Sendable {
    NwpcubeErrorDocument(message: message)
  }
}
