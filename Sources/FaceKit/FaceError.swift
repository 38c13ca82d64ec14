/// Why a face cannot answer a request, in words the client reads: a parameter it cannot
/// use, something the request names that does not exist, or a service that cannot answer
/// now.
///
/// Free of HTTP, as the faces are: the service maps each kind to its status (400, 414,
/// 404, 503) and writes the message in the face's error shape (`Face.errorBody`).
public struct FaceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, which decides the status the service answers with.
  public enum Kind: Sendable, Equatable {
    /// A parameter is missing, malformed, out of range or unknown (400).
    case badParameter
    /// The query is longer than the service reads (414).
    case tooLong
    /// What the request names does not exist: a city, a document (404).
    case notFound
    /// The service cannot answer now, though the request is good (503).
    case unavailable
  }

  /// What went wrong.
  public let kind: Kind
  /// The message, naming the parameter and what it accepts.
  public let description: String

  /// An error of `kind` saying `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.description = message
  }

  /// A parameter whose value is unusable: `"<name>: <problem>"`.
  public static func parameter(_ name: String, _ problem: String) -> FaceError {
    FaceError(.badParameter, "\(name): \(problem)")
  }
}
