import FaceKit
import Forecast
import Hummingbird
import OpenMeteoFace
import PointQuery
import Store

/// `GET /v1/forecast`: Open-Meteo's forecast API over the store: current conditions,
/// 15-minute and hourly values and daily summaries for one or more points, as JSON in
/// Open-Meteo's layout (an array for several points), as CSV, or as the FlatBuffers
/// messages Open-Meteo's SDKs read.
///
/// `POST /v1/forecast` takes the same parameters as a form body
/// (`application/x-www-form-urlencoded`), as Open-Meteo does: its SDKs post long requests.
/// A POST reads its body only, not the query string, as Open-Meteo's does.
struct ForecastRoute: Sendable {
  static let path = "/v1/forecast"

  let store: ForecastStore
  let limits: ServiceLimits
  /// Unix seconds now: today's date and current conditions depend on it.
  let clock: @Sendable () -> Int64
  /// The zones of points, for `timezone=auto`.
  var zoneFinder: ZoneFinder?
  /// Recent GET answers, sent again to the same request; nil makes every answer.
  var answers: AnswerCache?

  /// The longest form body read, bytes: Open-Meteo's limit, room for the 100 locations and
  /// every variable that a URL has no room for.
  static let maximumFormBytes = 131_072

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.path)) { request, _ in
      // One catalog for the whole answer, every location of it included: a run published
      // meanwhile waits for the next request.
      let (catalog, now) = (store.catalog, clock())
      // Everything the answer reads of `now` holds for a UTC quarter hour: the current
      // interval, local dates and hours (every zone's offset is a whole number of quarter
      // hours) and the zone's offset and abbreviation (which change on a quarter hour).
      let quantum = AnswerCache.Quantum.of(now, seconds: CurrentInterval.seconds)
      return try AnswerCache.response(answers, to: request, catalog: catalog, now: now, quantum: quantum) {
        try answer(
          to: QueryParameters(
            request: request.uri.query, maximumBytes: limits.queryBytes, repeats: ForecastParameters.repeats),
          catalog: catalog, now: now)
      }
    }
    router.post(RouterPath(Self.path)) { request, _ in
      var request = request
      let form = try await FormBody.read(&request, maximumBytes: Self.maximumFormBytes)
      return try answer(
        to: QueryParameters(request: form, maximumBytes: Self.maximumFormBytes, repeats: ForecastParameters.repeats),
        catalog: store.catalog, now: clock()
      ).response
    }
  }

  /// The answer to `query` from `catalog` at `now` (Unix seconds).
  func answer(to query: QueryParameters, catalog: RunCatalog, now: Int64) throws -> AnswerCache.Answer {
    let started = ContinuousClock.now
    let forecaster = Forecaster(catalog: catalog)
    let parameters = try ForecastParameters(
      query, limits: (limits.locations, limits.days), now: now,
      models: query["models"] == nil ? [] : Self.modelNames(forecaster.catalog),
      zoneFinder: zoneFinder)
    let several = parameters.queries.count > 1
    let answers = try zip(parameters.queries, parameters.locationIDs).map { query, id in
      try Self.answer(query, forecaster, index: id, several: several)
    }
    let elapsed = ContinuousClock.now - started
    let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
    let documents = zip(answers, parameters.timeZoneNames).map { answer, name in
      OpenMeteoDocument(
        answer: answer, timeFormat: parameters.timeFormat, now: now, generationTime: milliseconds,
        timeZoneName: name)
    }
    switch parameters.format {
    case .json:
      // Bytes straight into the buffer: the text is UTF-8 by construction.
      return AnswerCache.Answer(
        headers: [.contentType: Responses.json],
        body: OpenMeteoDocument.withJSON(documents, array: several) { ByteBuffer(bytes: $0) })
    case .csv:
      let body =
        several
        ? zip(documents, parameters.locationIDs).map { $0.csv(locationID: $1) }.joined(separator: "\n\n")
        : documents.map { $0.csv() }.joined()
      return AnswerCache.Answer(headers: [.contentType: Responses.csv], body: ByteBuffer(string: body + "\n"))
    case .flatbuffers:
      return AnswerCache.Answer(
        headers: [.contentType: Responses.octetStream],
        body: ByteBuffer(bytes: OpenMeteoDocument.flatBuffers(documents, locationIDs: parameters.locationIDs)))
    }
  }

  /// The catalog's model/domain names, `wrf/d01`, for `models=`.
  private static func modelNames(_ catalog: RunCatalog) -> [String] {
    var names: [String] = []
    for cube in catalog.cubes {
      let name = "\(cube.header.model)/\(cube.header.domain)"
      if !names.contains(name) { names.append(name) }
    }
    return names.sorted()
  }

  /// One location's answer; when the request has several, an error says which one failed.
  private static func answer(
    _ query: OpenMeteoQuery, _ forecaster: Forecaster, index: Int, several: Bool
  ) throws -> OpenMeteoAnswer {
    do {
      return try query.answer(forecaster)
    } catch {
      guard several else { throw error }
      throw LocationError(
        index: index, latitude: query.request.latitude, longitude: query.request.longitude, underlying: error)
    }
  }
}
