import DarkSkyFace
import FaceKit
import Forecast
import Hummingbird
import Places
import PointQuery
import Store
import UTCTime
import Warnings

/// `GET /forecast/{key}/{latitude},{longitude}[,{time}]`: Dark Sky's forecast and Time
/// Machine requests over the store, so that Dark Sky's clients work by changing only their
/// base URL. The key segment is the key middleware's business (any segment is accepted
/// when the server has no keys).
struct DarkSkyRoute: Sendable {
  /// The path as the router and the OpenAPI document write it.
  static let path = "/forecast/{key}/{location}"

  let store: ForecastStore
  let limits: ServiceLimits
  /// Unix seconds now.
  let clock: @Sendable () -> Int64
  /// The zones of points, for `timezone`; UTC without one.
  var zoneFinder: ZoneFinder?
  /// The gazetteer, whose nearest place's country `units=auto` goes by; `si` without one.
  var places: Gazetteer?
  /// The operator's warning thresholds (`--alerts`), for `alerts`: the same warnings
  /// `/v1/alerts` lists, each linking to its CAP document. Without them `alerts` is never
  /// written.
  var warnings: WarningEvaluator?
  /// The outlooks of recent requests, shared by requests for the same point in the same
  /// hour; nil computes every answer whole.
  var outlooks: DarkSkyOutlookCache?
  /// Recent answers, sent again to the same request in the same second; nil makes every
  /// answer.
  var answers: AnswerCache?

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.path)) { request, _ in
      // One catalog for the whole answer: a run published meanwhile waits for the next request.
      let (catalog, now) = (store.catalog, clock())
      // `currently.time` is now to the second, and the alerts' links name the host asked.
      let quantum = AnswerCache.Quantum.of(now, seconds: 1)
      return try AnswerCache.response(
        answers, to: request, variant: AlertsRoute.linkHeaders(request), catalog: catalog, now: now, quantum: quantum
      ) { try answer(to: request, catalog: catalog, now: now) }
    }
  }

  /// The answer to `request` from `catalog` at `now` (Unix seconds).
  func answer(to request: Request, catalog: RunCatalog, now: Int64) throws -> AnswerCache.Answer {
    let query = try QueryParameters(request: request.uri.query, maximumBytes: limits.queryBytes)
    // The segment as sent, decoded here: the router's copy may or may not be.
    guard let raw = KeyLocation.segment(3, of: request.uri.path),
      let location = QueryParameters.percentDecoded(raw.utf8)
    else {
      throw FaceError.parameter(
        "location", "malformed percent-encoding; give \(DarkSkyParameters.locationHelp)")
    }
    let parameters = try DarkSkyParameters(location: location, query: query)
    let (latitude, longitude) = (parameters.latitude, parameters.longitude)
    let (zone, zoneName) = Self.zone(latitude: latitude, longitude: longitude, finder: zoneFinder)
    let units =
      parameters.units
      ?? DarkSkyUnits.forCountry(places?.nearest(latitude: latitude, longitude: longitude)?.countryCode)
    let forecastRequest = ForecastRequest(latitude: latitude, longitude: longitude, timeZone: zone)
    let forecaster = Forecaster(catalog: catalog)
    var time = now
    if let instant = parameters.instant(in: zone) {
      let sources = try forecaster.catalog.sources(latitude: latitude, longitude: longitude, method: .nearest)
      guard sources.source(at: instant) != nil else {
        let covers = sources.coverage.map { "\($0.name) covers \(UTC.iso8601($0.first)) to \(UTC.iso8601($0.last))" }
        throw FaceError.parameter(
          "time",
          "\(QueryParameters.quoted(parameters.timeText ?? "")) (\(UTC.iso8601(instant))) is outside every run "
            + "in the store; give a time inside one: \(covers.joined(separator: "; "))")
      }
      time = instant
    }
    let darkSky = DarkSkyQuery(
      request: forecastRequest, time: time, isTimeMachine: parameters.time != nil, units: units,
      excluded: parameters.excluded, extendHourly: parameters.extendHourly, timeZoneName: zoneName)
    let document = try document(darkSky, forecaster, asked: request)
    return AnswerCache.Answer(
      headers: [.contentType: Responses.json], body: document.withJSON { ByteBuffer(bytes: $0) })
  }

  /// The document answering `query`, from the cached outlook of its point and hour when
  /// there is one.
  private func document(
    _ query: DarkSkyQuery, _ forecaster: Forecaster, asked request: Request
  ) throws -> DarkSkyDocument {
    let answer: DarkSkyAnswer
    var written: DarkSkyDocument.WrittenBlocks?
    // The outlook is keyed by the generation of the catalog it is made from.
    let point = try forecaster.point(query.request)
    if let outlooks, let key = DarkSkyOutlookCache.Key(query, catalog: forecaster.catalog.generation) {
      let entry = try outlooks.entry(key) { () throws(ForecastError) in
        let outlook = try query.outlook(point, warnings: warnings)
        return DarkSkyOutlookCache.Entry(
          outlook: outlook, written: DarkSkyDocument.WrittenBlocks(outlook, query: query))
      }
      answer = try query.answer(point, outlook: entry.outlook)
      written = entry.written
    } else {
      answer = try query.answer(point, outlook: query.outlook(point, warnings: warnings))
    }
    let alerts = alerts(
      answer.warnings, asked: request, latitude: query.request.latitude, longitude: query.request.longitude)
    return DarkSkyDocument(answer: answer, alerts: alerts, written: written)
  }

  /// The warnings in Dark Sky's terms; each links to the CAP document of the point, on the
  /// host the client asked.
  private func alerts(
    _ warnings: [Warning], asked request: Request, latitude: Double, longitude: Double
  ) -> [DarkSkyAlert] {
    guard !warnings.isEmpty else { return [] }
    let uri = AlertsRoute.capURL(request, latitude: latitude, longitude: longitude)
    return warnings.map { warning in
      DarkSkyAlert(
        title: warning.rule.title, regions: warning.area.map(\.areaDescription),
        severity: warning.rule.severity.darkSky,
        time: warning.onset, expires: warning.expires, description: warning.rule.description, uri: uri)
    }
  }

  /// The point's zone and its name: the finder's, UTC without a finder or when it finds none.
  static func zone(latitude: Double, longitude: Double, finder: ZoneFinder?) -> (LocalTimeZone, String) {
    guard let identifier = finder?.zone(latitude: latitude, longitude: longitude),
      let zone = try? LocalTimeZone.named(identifier)
    else { return (.utc, "UTC") }
    return (zone, zone.identifier)
  }
}
