import ForecastOutput
import Hummingbird

/// An API the server speaks, as far as keys are concerned: which paths are its, how its
/// clients pass a key, and the shape of its errors, so that a client is refused in words
/// its library can read.
///
/// OpenWeatherMap (`/data/2.5/…`, key in `appid`, `ErrorShape.openWeatherMap`) and Dark Sky
/// (`/forecast/{key}/{lat},{lon}`, key in path segment 2) come as two more cases.
enum APIFamily: Sendable, CaseIterable {
  /// Open-Meteo's API: every path under `/v1/`, key in `apikey`.
  case openMeteo
  /// The original iPhone app's four `*.php` endpoints; the app sends no key, so they can be
  /// exempted (`--keys-exempt-legacy`); otherwise the key is in `apikey` too.
  case legacy
  /// Everything else the server is asked for except the probes: `/openapi.yaml` and paths
  /// without a route (a client learns nothing, not even what is there, without a key).
  case nwpcube

  /// The paths that never need a key: load balancers and Prometheus send none.
  static let exemptPaths: Set<String> = [ServiceRoutes.healthPath, ServiceRoutes.metricsPath]

  static let legacyPaths: Set<String> = [
    LegacyRoutes.quickPath, LegacyRoutes.dayPath, LegacyRoutes.daysPath, LegacyRoutes.nextHoursPath,
  ]

  /// The family of `path`; nil for the paths that need no key.
  init?(path: String) {
    if Self.exemptPaths.contains(path) { return nil }
    if path.hasPrefix("/v1/") {
      self = .openMeteo
    } else if Self.legacyPaths.contains(path) {
      self = .legacy
    } else {
      self = .nwpcube
    }
  }

  /// The query parameters that carry a key in any family, whose values the log leaves out.
  static let keyParameters: [String] = allCases.reduce(into: []) { names, family in
    if case .query(let name) = family.key, !names.contains(name) { names.append(name) }
  }

  /// Where the family's clients put the key.
  var key: KeyLocation {
    switch self {
    case .openMeteo, .legacy, .nwpcube: .query("apikey")
    }
  }

  /// The family's error body.
  var errors: ErrorShape {
    switch self {
    case .openMeteo: .openMeteo
    case .legacy, .nwpcube: .nwpcube
    }
  }
}

/// Where a request carries its key.
enum KeyLocation: Sendable, Equatable {
  /// A query parameter of this name; it is taken out of the query before the route reads
  /// it, so that no route sees a key or refuses its name as unknown.
  case query(String)
  /// The path segment at this index (1 is the first after the leading `/`), which the
  /// route's own pattern holds (Dark Sky's `/forecast/{key}/…`).
  case pathSegment(Int)

  /// What messages call the key: the parameter's name, or its place in the path.
  var subject: String {
    switch self {
    case .query(let name): name
    case .pathSegment(let index): "path segment \(index)"
    }
  }

  /// How to pass a key, for the message that says one is missing.
  var help: String {
    switch self {
    case .query(let name): "give it as the query parameter \(name)"
    case .pathSegment(let index): "give it as path segment \(index)"
    }
  }

  /// The `index`th segment of `path` (from 1), nil when the path is shorter.
  static func segment(_ index: Int, of path: String) -> Substring? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    guard index >= 1, index <= segments.count else { return nil }
    return segments[segments.startIndex + index - 1]
  }

  /// `query` without the parameter `name` (as decoded); nil when nothing is left. Every
  /// other parameter stays byte for byte as sent.
  static func query(_ query: String?, removing name: String) -> String? {
    guard let query else { return nil }
    let kept = parameters(query).filter { $0.name != name }.map { String(decoding: $0.text, as: UTF8.self) }
    return kept.isEmpty ? nil : kept.joined(separator: "&")
  }

  /// `query` with the values of the parameters `names` (as decoded) replaced by
  /// `(redacted)`, for the log: a key must not be written where many can read it.
  static func query(_ query: String, redacting names: [String]) -> String {
    // Most queries have no key and no escape: they are logged as they came, unscanned.
    guard query.utf8.contains(UInt8(ascii: "%")) || names.contains(where: { query.contains($0) }) else {
      return query
    }
    return parameters(query).map { parameter in
      guard let name = parameter.name, names.contains(name) else {
        return String(decoding: parameter.text, as: UTF8.self)
      }
      return String(decoding: parameter.text.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self) + "=(redacted)"
    }.joined(separator: "&")
  }

  /// Each `&`-separated part of `query` with its name decoded (nil when malformed).
  private static func parameters(_ query: String) -> [(name: String?, text: Substring.UTF8View)] {
    query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { part in
      (QueryParameters.percentDecoded(part.prefix { $0 != UInt8(ascii: "=") }), part)
    }
  }
}

/// The error bodies of the APIs the server speaks.
enum ErrorShape: Sendable {
  /// nwpcube's own (the legacy routes' and the service routes'): `{"error":{"message":"…"}}`.
  case nwpcube
  /// Open-Meteo's: `{"error":true,"reason":"…"}`.
  case openMeteo
  /// OpenWeatherMap's: `{"cod":401,"message":"…"}`, with the status as a number; a 401's
  /// message starts "Invalid API key." as OpenWeatherMap's does, which its clients look for.
  case openWeatherMap

  /// The body for an error of `status` saying `message`.
  func body(status: HTTPResponse.Status, message: String) -> String {
    switch self {
    case .nwpcube:
      JSONText.object([("error", JSONText.object([("message", JSONText.string(message))]))])
    case .openMeteo:
      JSONText.object([("error", "true"), ("reason", JSONText.string(message))])
    case .openWeatherMap:
      JSONText.object([
        ("cod", String(status.code)),
        ("message", JSONText.string(status == .unauthorized ? "Invalid API key. \(message)" : message)),
      ])
    }
  }

  /// The error as a JSON response.
  func response(status: HTTPResponse.Status, message: String) -> Response {
    Responses.text(body(status: status, message: message), contentType: Responses.json, status: status)
  }
}
