import FaceKit
import Hummingbird
import MapTiles
import NIOCore
import OpenMeteoFace
import Store
import UTCTime

/// The map routes: `GET /v1/tiles/{metric}/{time}/{z}/{x}/{y}.png` (XYZ Web Mercator tiles
/// of a metric, or of the `land` base layer), `GET /v1/legend/{metric}.svg` and
/// `GET /v1/domains` (each domain's extent, for a map to open on, and where a moving nest is). docs/pictures.md
/// describes them.
///
/// Errors are Open-Meteo's shape, as on every `/v1/` path: 400 for a bad zoom, column, row
/// or time, 404 for an unknown layer or a time no run covers.
struct TileRoutes: Sendable {
  static let tilePath = "/v1/tiles/{metric}/{time}/{z}/{x}/{y}.png"
  static let legendPath = "/v1/legend/{metric}.svg"
  static let domainsPath = "/v1/domains"
  static let png = "image/png"
  static let svg = "image/svg+xml; charset=utf-8"

  /// `/v1/domains`' parameter: the time a moving grid's extent is given at.
  static let domainsParameters = ["time"]

  let store: ForecastStore
  /// Now, Unix seconds: `/v1/domains`' default time.
  let clock: @Sendable () -> Int64
  let maximumQueryBytes: Int
  let tiles = TileService()

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.tilePath)) { request, _ in try tile(request) }
    router.get(RouterPath(Self.legendPath)) { request, _ in try legend(request) }
    router.get(RouterPath(Self.domainsPath)) { request, _ in try domains(request) }
  }

  /// A path segment as sent, percent-decoded here (the router's copy may or may not be);
  /// `suffix` is cut from the end.
  private static func segment(
    _ index: Int, of request: Request, cutting suffix: String = ""
  ) throws(FaceError)
    -> String
  {
    guard var raw = KeyLocation.segment(index, of: request.uri.path) else {
      throw FaceError(.notFound, "\(request.uri.path): no such path")
    }
    if !suffix.isEmpty, raw.hasSuffix(suffix) { raw = raw.dropLast(suffix.count) }
    guard let decoded = QueryParameters.percentDecoded(raw.utf8) else {
      throw FaceError(.badParameter, "\(request.uri.path): a path segment is not valid percent-encoded UTF-8")
    }
    return decoded
  }

  func tile(_ request: Request) throws -> Response {
    let layer = try Self.segment(3, of: request)
    let time = try Self.segment(4, of: request)
    let z = try Self.segment(5, of: request)
    let x = try Self.segment(6, of: request)
    let y = try Self.segment(7, of: request, cutting: ".png")
    let plan: TileService.Plan
    do {
      plan = try tiles.plan(
        layer: layer, time: time, z: Substring(z), x: Substring(x), y: Substring(y), catalog: store.catalog)
    } catch {
      throw Self.httpError(error)
    }
    var headers: HTTPFields = [.cacheControl: plan.cacheControl, .eTag: plan.etag]
    // A client revalidating a tile it has: the same cubes answer, so the same picture.
    if Responses.isNotModified(request, etag: plan.etag) {
      return Response(status: .notModified, headers: headers)
    }
    let png: [UInt8]
    do {
      png = try tiles.png(plan)
    } catch {
      throw Self.httpError(error)
    }
    headers[.contentType] = Self.png
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
  }

  func legend(_ request: Request) throws -> Response {
    let name = try Self.segment(3, of: request, cutting: ".svg")
    let layer: TileLayer
    do {
      layer = try TileLayer(name: name)
    } catch {
      throw Self.httpError(error)
    }
    var response = Responses.text(Legend.svg(for: layer), contentType: Self.svg)
    // A legend changes only with nwpcube itself.
    response.headers[.cacheControl] = "public, max-age=\(TileService.longAge)"
    return response
  }

  /// Each domain's extent (its newest run's) at `time` (default now; either is clamped into
  /// the run): where a moving grid is then. A moving grid adds every position it takes, with
  /// its extent and the times it is there.
  func domains(_ request: Request) throws -> DomainsDocument {
    let query = try QueryParameters(request: request.uri.query, maximumBytes: maximumQueryBytes)
    try query.rejectUnknown(
      allowed: Self.domainsParameters + ForecastParameters.passedOn, listed: Self.domainsParameters)
    var time = clock()
    if let text = query["time"] {
      do {
        time = try TileService.parseTime(text)
      } catch {
        throw FaceError.parameter(
          "time", "\(QueryParameters.quoted(text)) is not a time; give a UTC time as 2026-06-20T12:00Z")
      }
    }
    var seen: Set<String> = []
    var domains: [DomainsDocument.Domain] = []
    // Newest run first: the first cube of each domain is its newest run's.
    for cube in store.catalog.cubes where seen.insert(cube.name).inserted {
      let step = cube.step(holding: time)
      var domain = DomainsDocument.Domain(
        modelDomain: cube.name, extent: .init(DomainBounds(cube, position: cube.position(ofStep: step))))
      if cube.isMoving {
        domain.time = UTC.iso8601(cube.time(ofStep: step))
        var times = [[String]](repeating: [], count: cube.positionCount)
        for step in 0..<cube.stepCount {
          times[cube.position(ofStep: step)].append(UTC.iso8601(cube.time(ofStep: step)))
        }
        domain.positions = times.indices.map { position in
          DomainsDocument.Position(extent: .init(DomainBounds(cube, position: position)), times: times[position])
        }
      }
      domains.append(domain)
    }
    return DomainsDocument(domains: domains)
  }

  static func httpError(_ error: TileError) -> FaceError {
    switch error {
    case .badAddress, .badTime: FaceError(.badParameter, error.description)
    case .unknownMetric, .metricNotInRuns, .timeNotCovered: FaceError(.notFound, error.description)
    case .noRuns, .damagedCube: FaceError(.unavailable, error.description)
    // Only running out of memory makes libpng fail on a tile: the server's trouble, and
    // passing.
    case .encoding: FaceError(.unavailable, error.description)
    }
  }
}
