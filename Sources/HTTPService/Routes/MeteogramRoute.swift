import FNV
import FaceKit
import Forecast
import Foundation
import Hummingbird
import Meteogram
import Store

/// `GET /v1/meteogram.svg`: a point's meteogram for the next days as SVG, or as PNG
/// (`format=png`) through `rsvg-convert` when the server has it (503 when it has not).
///
/// A picture changes when a new run is published or the day turns, so clients may keep it
/// for a few minutes, and revalidate it with its `ETag` after that. The tag hashes the SVG
/// and the format: a PNG is a function of its SVG, so a revalidated PNG is answered 304
/// before `rsvg-convert` runs, which costs far more than drawing the SVG.
struct MeteogramRoute: Sendable {
  static let path = "/v1/meteogram.svg"
  static let svgType = "image/svg+xml; charset=utf-8"
  static let pngType = "image/png"
  /// Seconds a client or proxy may keep a picture without asking again.
  static let maximumAge = 300

  let store: ForecastStore
  let maximumQueryBytes: Int
  /// Unix seconds now: the days drawn start today.
  let clock: @Sendable () -> Int64
  /// The zones of points, for `timezone=auto` and the default zone.
  var zoneFinder: ZoneFinder?
  let rasterizer: SVGRasterizer

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.path)) { request, _ in try respond(to: request) }
  }

  func respond(to request: Request) throws -> Response {
    let query = try QueryParameters(request: request.uri.query, maximumBytes: maximumQueryBytes)
    let parameters = try MeteogramParameters(query, now: clock(), zoneFinder: zoneFinder)
    let svg = try parameters.query.chart(Forecaster(catalog: store.catalog)).svg()
    let tag = "\"\(parameters.format.rawValue)-\(Self.hash(Array(svg.utf8)))\""
    var headers: HTTPFields = [.cacheControl: "public, max-age=\(Self.maximumAge)", .eTag: tag]
    if Responses.isNotModified(request, etag: tag) {
      return Response(status: .notModified, headers: headers)
    }
    let (bytes, type): ([UInt8], String)
    switch parameters.format {
    case .svg: (bytes, type) = (Array(svg.utf8), Self.svgType)
    case .png:
      do {
        (bytes, type) = (try rasterizer.png(svg), Self.pngType)
      } catch {
        // Not the client's fault, and not a crash: the server cannot draw PNG now.
        throw FaceError(.unavailable, error.description)
      }
    }
    headers[.contentType] = type
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }

  /// FNV-1a of the SVG, in hexadecimal: the same picture gets the same tag.
  static func hash(_ bytes: [UInt8]) -> String { FNV1a(bytes).hex }
}
