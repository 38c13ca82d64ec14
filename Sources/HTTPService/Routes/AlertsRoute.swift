import FaceKit
import Forecast
import HTTPTypes
import Hummingbird
import NwpcubeFace
import OpenMeteoFace
import Store
import Warnings

/// The header a TLS-terminating proxy names the client's scheme in.
private let forwardedProto = HTTPField.Name("X-Forwarded-Proto")

/// `GET /v1/alerts` and `GET /v1/alerts.cap`: the warnings a point's forecast triggers
/// under the operator's thresholds (`nwpcube serve --alerts FILE`, docs/alerts.md), as JSON
/// and as a CAP 1.2 document.
///
/// Without `--alerts` both answer 404: the server publishes no warnings and will not until
/// it is restarted with a file, so a 503 would send clients retrying for nothing; and an
/// empty list would tell them, wrongly, that nothing is to be feared.
struct AlertsRoute: Sendable {
  static let path = "/v1/alerts"
  static let capPath = "/v1/alerts.cap"
  /// The parameters taken; `apikey` is read by the key check before the route.
  static let parameters = ["latitude", "longitude"]
  /// CAP's media type as every XML reader and browser takes it.
  static let capContentType = "application/xml; charset=utf-8"

  let store: ForecastStore
  /// nil when the server was started without `--alerts`.
  let evaluator: WarningEvaluator?
  /// CAP's `sender`.
  let sender: String
  let clock: @Sendable () -> Int64
  let maximumQueryBytes: Int

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.path)) { request, _ in
      let (point, evaluation) = try evaluate(request)
      let document = AlertsDocument(
        latitude: point.latitude, longitude: point.longitude, evaluation: evaluation,
        capURL: Self.capURL(request, latitude: point.latitude, longitude: point.longitude))
      return Response(
        status: .ok, headers: [.contentType: Responses.json],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: document.jsonBytes)))
    }
    router.get(RouterPath(Self.capPath)) { request, _ in
      let (_, evaluation) = try evaluate(request)
      return Responses.text(
        CAPDocument(evaluation: evaluation, sender: sender).xml, contentType: Self.capContentType)
    }
  }

  /// The point asked for and its warnings from now.
  private func evaluate(_ request: Request) throws -> (ForecastRequest, WarningEvaluation) {
    guard let evaluator else {
      throw FaceError(
        .notFound,
        "this server publishes no warnings; start nwpcube serve with --alerts FILE (docs/alerts.md)")
    }
    let query = try QueryParameters(request: request.uri.query, maximumBytes: maximumQueryBytes)
    try query.rejectUnknown(allowed: Self.parameters + ForecastParameters.passedOn, listed: Self.parameters)
    let latitudeHelp = "a latitude in decimal degrees, −90…90 (e.g. 38.1294)"
    let longitudeHelp = "a longitude in decimal degrees, east-positive, −180…360 (e.g. -8.9341)"
    let coordinate = try query.coordinate(expected: (latitudeHelp, longitudeHelp))
    let point = ForecastRequest(latitude: coordinate.latitude, longitude: coordinate.longitude)
    return (point, try evaluator.evaluate(Forecaster(catalog: store.catalog).point(point), now: clock()))
  }

  /// The request's headers that `capURL` reads, joined: what an answer carrying CAP links
  /// varies by besides its URL.
  static func linkHeaders(_ request: Request) -> String {
    (request.head.authority ?? "") + "\n" + (forwardedProto.flatMap { request.headers[$0] } ?? "")
  }

  /// The point's CAP document as an absolute URL on the host the client called (its
  /// `Host`), `https` when a proxy in front says so; a path alone when the host is not
  /// one a URL may hold.
  static func capURL(_ request: Request, latitude: Double, longitude: Double) -> String {
    let path =
      "\(capPath)?latitude=\(JSONText.number(latitude, decimals: 6))&longitude=\(JSONText.number(longitude, decimals: 6))"
    guard let host = request.head.authority, !host.isEmpty, host.utf8.count <= 255,
      host.utf8.allSatisfy({ byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("-.:[]".utf8).contains(byte)
      })
    else { return path }
    let forwarded = forwardedProto.flatMap { request.headers[$0] }
    return "\(forwarded?.lowercased() == "https" ? "https" : "http")://\(host)\(path)"
  }
}
