import FaceKit
import Hummingbird
import NwpcubeFace
import Places

/// `GET /v1/search`: places by name, in the shape of Open-Meteo's geocoding API, from the
/// gazetteer the server was started with (`nwpcube serve --places FILE`).
///
/// Errors are Open-Meteo's, `{"error": true, "reason": "…"}`, since its clients read them
/// that way (as every path under `/v1/` answers them). Without a gazetteer the route answers 404: the server does not offer search
/// and will not until it is restarted with one, so a 503 (which says "try again later")
/// would send clients and load balancers retrying for nothing.
struct SearchRoute: Sendable {
  static let path = "/v1/search"
  /// The longest name searched for, in UTF-8 bytes: longer than any place's name, short
  /// enough that nobody sends a kilobyte to be folded.
  static let maximumNameBytes = 100
  /// The parameters taken: Open-Meteo's geocoding parameters but `countryCode`.
  static let parameters = ["name", "count", "language", "format"]

  /// The places; nil when the server was started without `--places`.
  let gazetteer: Gazetteer?
  let maximumQueryBytes: Int

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.path)) { request, _ in try respond(to: request) }
  }

  /// The places `request` asks for; its errors are answered in Open-Meteo's shape as every
  /// error under `/v1/` is (`JSONErrorMiddleware`).
  func respond(to request: Request) throws(FaceError) -> ColdAnswer {
    let started = ContinuousClock.now
    guard let gazetteer else {
      throw FaceError(
        .notFound,
        "place search is not configured on this server; start nwpcube serve with --places FILE "
          + "(a GeoNames cities*.txt gazetteer)")
    }
    let (name, count) = try parameters(request)
    let places = gazetteer.search(name, count: count)
    let elapsed = ContinuousClock.now - started
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    return ColdAnswer(PlaceListing.Document(places, generationMilliseconds: milliseconds))
  }

  /// The name and the count asked for.
  private func parameters(_ request: Request) throws(FaceError) -> (name: String, count: Int) {
    let query = try QueryParameters(request: request.uri.query, maximumBytes: maximumQueryBytes)
    try query.rejectUnknown(allowed: Self.parameters)
    let expected = "a place name or the start of one, at most \(Self.maximumNameBytes) bytes"
    let name = try query.required("name", expected: expected)
    guard name.contains(where: { !$0.isWhitespace }) else {
      throw FaceError.parameter("name", "only spaces; give \(expected)")
    }
    guard name.utf8.count <= Self.maximumNameBytes else {
      throw FaceError.parameter(
        "name", "\(name.utf8.count) bytes long; at most \(Self.maximumNameBytes) are accepted")
    }
    let count = try query.integer("count", in: 1...Gazetteer.maximumCount) ?? 10
    // Accepted so that Open-Meteo's clients work, and ignored: the names are GeoNames' own.
    if let language = query["language"],
      language.utf8.count != 2 || !language.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) })
    {
      throw FaceError.parameter(
        "language", "\(QueryParameters.quoted(language)) is not a two-letter language code; give one such as en")
    }
    if let format = query["format"], format != "json" {
      throw FaceError.parameter("format", "\(QueryParameters.quoted(format)) is not supported; give json")
    }
    return (name, count)
  }
}
