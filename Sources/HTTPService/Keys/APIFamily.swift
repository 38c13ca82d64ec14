import DarkSkyFace
import FaceKit
import HTTPTypes
import Hummingbird
import JSONOutput
import LegacyFace
import NwpcubeFace
import OpenMeteoFace
import OpenWeatherMapFace

/// The API a path belongs to, as far as keys and errors are concerned: its face, which says
/// where the key is and how an error reads (`Face`). Which paths are whose is the service's
/// routing, and stays here; everything else about an API is its face's.
///
/// The family of a path also decides the shape of every error answered on it, including
/// those no route sees (`JSONErrorBody`).
struct APIFamily: Sendable, Equatable {
  /// The face that says where the key is and how errors read.
  let face: any Face.Type

  /// Open-Meteo's API: every path under `/v1/`.
  static let openMeteo = APIFamily(face: OpenMeteoAPI.self)
  /// OpenWeatherMap's 2.5 API: every path under `/data/2.5/`.
  static let openWeatherMap = APIFamily(face: OpenWeatherMapAPI.self)
  /// Dark Sky's API: every path under `/forecast/`.
  static let darkSky = APIFamily(face: DarkSkyAPI.self)
  /// The original iPhone app's four `*.php` endpoints; the app sends no key, so they can be
  /// exempted (`--keys-exempt-legacy`).
  static let legacy = APIFamily(face: LegacyAPI.self)
  /// Everything else the server is asked for except the probes and the web page:
  /// `/openapi.yaml` and paths without a route (a client learns nothing, not even what is
  /// there, without a key).
  static let nwpcube = APIFamily(face: NwpcubeAPI.self)

  /// Every family.
  static let all = [openMeteo, openWeatherMap, darkSky, legacy, nwpcube]

  static func == (a: APIFamily, b: APIFamily) -> Bool { ObjectIdentifier(a.face) == ObjectIdentifier(b.face) }

  /// The paths that never need a key: load balancers and Prometheus send none, and the web
  /// page's files are the same for everyone (the page passes the key of its own URL on to
  /// the API it calls, which does need one).
  static let exemptPaths: Set<String> = [
    ServiceRoutes.healthPath, ServiceRoutes.metricsPath, WebPageRoutes.pagePath, WebPageRoutes.assetPath,
  ]

  static let legacyPaths: Set<String> = [
    LegacyRoutes.quickPath, LegacyRoutes.dayPath, LegacyRoutes.daysPath, LegacyRoutes.nextHoursPath,
  ]

  private init(face: any Face.Type) {
    self.face = face
  }

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
  static let keyParameters: [String] = all.reduce(into: []) { names, family in
    if case .query(let name) = family.key, !names.contains(name) { names.append(name) }
  }

  /// Where the family's clients put the key.
  var key: KeyLocation { face.key }

  /// The header in which the family's clients may send the key instead, which then wins
  /// over the parameter (Open-Meteo's `x-api-key`); nil for the others.
  var keyHeader: HTTPField.Name? { face.keyHeader.flatMap { HTTPField.Name($0) } }

  /// The family's error document for an error of `status` saying `message`.
  func errorDocument(status: HTTPResponse.Status, message: String) -> ColdAnswer {
    ColdAnswer(face.errorDocument(status: status.code, message: message))
  }

  /// The family's error body, for the handlers that answer before the router (the load
  /// gate, the malformed-request handler) and so have no request context.
  func errorBody(status: HTTPResponse.Status, message: String) -> String {
    // An error document holds strings and integers only, which always encode.
    (try? OrderedJSONEncoder().text(errorDocument(status: status, message: message)))
      ?? #"{"error":{"message":"internal error; the server log has the cause"}}"#
  }

  /// The error as a JSON response in the family's shape, through the request context's
  /// encoder as every `ResponseEncodable` answer is.
  func errorResponse(
    status: HTTPResponse.Status, message: String, request: Request, context: some RequestContext
  ) throws -> Response {
    try EditedResponse(status: status, response: errorDocument(status: status, message: message))
      .response(from: request, context: context)
  }

  /// The error as a JSON response in the family's shape, for a caller without the request
  /// at hand.
  func errorResponse(status: HTTPResponse.Status, message: String) -> Response {
    Responses.text(errorBody(status: status, message: message), contentType: Responses.json, status: status)
  }
}
