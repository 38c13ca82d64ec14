/// Where a request carries its API key: what a face says (`Face.key`) and what the
/// service's key check, load gate and log read.
public enum KeyLocation: Sendable, Equatable {
  /// A query parameter of this name (lower case), matched whatever the ASCII case of the
  /// name sent, since clients differ (pyowm sends OpenWeatherMap's `appid` as `APPID`); it
  /// is taken out of the query before the route reads it, so that no route sees a key or
  /// refuses its name as unknown.
  case query(String)
  /// The path segment at this index (1 is the first after the leading `/`), which the
  /// route's own pattern holds (Dark Sky's `/forecast/{key}/…`).
  case pathSegment(Int)

  /// What messages call the key: the parameter's name, or its place in the path.
  package var subject: String {
    switch self {
    case .query(let name): name
    case .pathSegment(let index): "path segment \(index)"
    }
  }

  /// How to pass a key, for the message that says one is missing.
  package var help: String {
    switch self {
    case .query(let name): "give it as the query parameter \(name)"
    case .pathSegment(let index): "give it as path segment \(index)"
    }
  }

  /// The `WWW-Authenticate` challenge of a 401: the scheme `APIKey` (no registered scheme
  /// carries a key in the query or the path), with where this family takes the key.
  package var challenge: String {
    switch self {
    case .query(let name): #"APIKey realm="nwpcube", parameter="\#(name)""#
    case .pathSegment(let index): #"APIKey realm="nwpcube", path-segment="\#(index)""#
    }
  }

  /// The `index`th segment of `path` (from 1), nil when the path is shorter.
  package static func segment(_ index: Int, of path: String) -> Substring? {
    // On bytes: `/` is ASCII, and splitting characters walks grapheme clusters on every
    // Dark Sky request.
    let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
    guard index >= 1, index <= segments.count else { return nil }
    return Substring(segments[segments.startIndex + index - 1])
  }

  /// The key in the `index`th segment of `path` (as sent), percent-decoded once as a query's
  /// key is, so that `%6Bey` is the key `key` wherever it is sent: empty when the path is
  /// shorter, nil when an escape is malformed. Everything that reads a key from a path reads
  /// it here, so that a key is the same key to each of them.
  package static func key(inSegment index: Int, of path: String) -> String? {
    QueryParameters.percentDecoded((segment(index, of: path) ?? "").utf8)
  }

  /// `query` without the parameter `name` (as decoded); nil when nothing is left. Every
  /// other parameter stays byte for byte as sent.
  package static func query(_ query: String?, removing name: String) -> String? {
    guard let query else { return nil }
    let kept = parameters(query).filter { !isKeyName($0.name, name) }.map { String(decoding: $0.text, as: UTF8.self) }
    return kept.isEmpty ? nil : kept.joined(separator: "&")
  }

  /// `query` with the values of the parameters `names` (as decoded) replaced by
  /// `(redacted)`, for the log: a key must not be written where many can read it.
  package static func query(_ query: String, redacting names: [String]) -> String {
    // Most queries have no key and no escape: they are logged as they came, unscanned.
    guard query.utf8.contains(UInt8(ascii: "%")) || names.contains(where: { Self.mentions(query, $0) }) else {
      return query
    }
    return parameters(query).map { parameter in
      guard names.contains(where: { isKeyName(parameter.name, $0) }) else {
        return String(decoding: parameter.text, as: UTF8.self)
      }
      return String(decoding: parameter.text.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self) + "=(redacted)"
    }.joined(separator: "&")
  }

  /// Whether `sent`, a parameter name as decoded, is the key parameter `name` (lower case),
  /// ignoring ASCII case.
  package static func isKeyName(_ sent: String?, _ name: String) -> Bool {
    guard let sent, sent.utf8.count == name.utf8.count else { return false }
    return zip(sent.utf8, name.utf8).allSatisfy { lowered($0) == $1 }
  }

  /// Whether `name`'s bytes (lower case) occur anywhere in `query`, ignoring ASCII case. A
  /// byte scan: Foundation's `contains`, which `String` gets when Foundation is imported,
  /// goes through `NSString` and cost 2 % of a forecast request in the two middlewares that
  /// ask on every request.
  /// The bytes are read in place, not copied into arrays first.
  package static func mentions(_ query: String, _ name: String) -> Bool {
    var (query, name) = (query, name)
    return query.withUTF8 { haystack in
      name.withUTF8 { needle in
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { start in
          lowered(haystack[start]) == needle[0]
            && (1..<needle.count).allSatisfy { lowered(haystack[start + $0]) == needle[$0] }
        }
      }
    }
  }

  /// `byte` with ASCII capitals lowered.
  private static func lowered(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
  }

  /// Each `&`-separated part of `query` with its name decoded (nil when malformed).
  private static func parameters(_ query: String) -> [(name: String?, text: Substring.UTF8View)] {
    query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { part in
      (QueryParameters.percentDecoded(part.prefix { $0 != UInt8(ascii: "=") }), part)
    }
  }
}
