import HTTPTypes

/// An API the server speaks, as far as keys are concerned: which paths are its, how its
/// clients pass a key, and the shape of its errors, so that a client is refused in words
/// its library can read.
///
/// The family of a path also decides the shape of every error answered on it, including
/// those no route sees (`JSONErrorBody`).
enum APIFamily: Sendable, CaseIterable {
  /// Open-Meteo's API: every path under `/v1/`, key in `apikey`.
  case openMeteo
  /// OpenWeatherMap's 2.5 API: every path under `/data/2.5/`, key in `appid`.
  case openWeatherMap
  /// Dark Sky's API: every path under `/forecast/`, key in the path,
  /// `/forecast/{key}/{latitude},{longitude}`.
  case darkSky
  /// The original iPhone app's four `*.php` endpoints; the app sends no key, so they can be
  /// exempted (`--keys-exempt-legacy`); otherwise the key is in `apikey` too.
  case legacy
  /// Everything else the server is asked for except the probes and the web page:
  /// `/openapi.yaml` and paths without a route (a client learns nothing, not even what is
  /// there, without a key).
  case nwpcube

  /// The paths that never need a key: load balancers and Prometheus send none, and the web
  /// page's files are the same for everyone (the page passes the key of its own URL on to
  /// the API it calls, which does need one).
  static let exemptPaths: Set<String> = [
    ServiceRoutes.healthPath, ServiceRoutes.metricsPath, WebPageRoutes.pagePath, WebPageRoutes.assetPath,
  ]

  static let legacyPaths: Set<String> = [
    LegacyRoutes.quickPath, LegacyRoutes.dayPath, LegacyRoutes.daysPath, LegacyRoutes.nextHoursPath,
  ]

  /// The family of `path`; nil for the paths that need no key.
  init?(path: String) {
    if Self.exemptPaths.contains(path) || path.hasPrefix(WebPageRoutes.assetPrefix) { return nil }
    if path.hasPrefix("/v1/") {
      self = .openMeteo
    } else if path.hasPrefix(Self.openWeatherMapPrefix) {
      self = .openWeatherMap
    } else if path.hasPrefix(Self.darkSkyPrefix) {
      self = .darkSky
    } else if Self.legacyPaths.contains(path) {
      self = .legacy
    } else {
      self = .nwpcube
    }
  }

  static let openWeatherMapPrefix = "/data/2.5/"
  static let darkSkyPrefix = "/forecast/"

  /// `path` with a key it carries (Dark Sky's) replaced by `(redacted)`, for the log.
  static func redacting(_ path: String) -> String {
    guard path.hasPrefix(darkSkyPrefix), case .pathSegment(let index) = APIFamily.darkSky.key,
      let key = KeyLocation.segment(index, of: path), !key.isEmpty
    else { return path }
    return String(path[..<key.startIndex]) + "(redacted)" + String(path[key.endIndex...])
  }

  /// The query parameters that carry a key in any family, whose values the log leaves out.
  static let keyParameters: [String] = allCases.reduce(into: []) { names, family in
    if case .query(let name) = family.key, !names.contains(name) { names.append(name) }
  }

  /// Where the family's clients put the key.
  var key: KeyLocation {
    switch self {
    case .openMeteo, .legacy, .nwpcube: .query("apikey")
    case .openWeatherMap: .query("appid")
    case .darkSky: .pathSegment(2)
    }
  }

  /// The header in which the family's clients may send the key instead, which then wins
  /// over the parameter: Open-Meteo's `x-api-key`; nil for the others.
  var keyHeader: HTTPField.Name? {
    self == .openMeteo ? openMeteoKeyHeader : nil
  }

  /// The family's error body.
  var errors: ErrorShape {
    switch self {
    case .openMeteo: .openMeteo
    case .openWeatherMap: .openWeatherMap
    case .darkSky: .darkSky
    case .legacy, .nwpcube: .nwpcube
    }
  }
}

private let openMeteoKeyHeader = HTTPField.Name("x-api-key")
