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
