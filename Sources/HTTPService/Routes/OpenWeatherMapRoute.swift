import FaceKit
import Forecast
import Hummingbird
import OpenMeteoFace
import OpenWeatherMapFace
import Places
import PointQuery
import Store

/// `GET /data/2.5/forecast` and `GET /data/2.5/weather`: OpenWeatherMap 2.5's 5 day / 3
/// hour forecast and current weather over the store, so that its clients work by changing
/// only their base URL. Errors take OpenWeatherMap's shape, `{"cod":"404","message":"…"}`,
/// by their path (`APIFamily.openWeatherMap`). docs/openweathermap.md has the fields.
struct OpenWeatherMapRoute: Sendable {
  static let forecastPath = "/data/2.5/forecast"
  static let weatherPath = "/data/2.5/weather"

  let store: ForecastStore
  let maximumQueryBytes: Int
  /// Unix seconds now: the forecast starts after it; the current weather is its.
  let clock: @Sendable () -> Int64
  /// The places `q` and `id` name and `city` reports; nil without `--places`.
  let gazetteer: Gazetteer?
  /// The zone of a point without a place, for `timezone` and the day of sunrise.
  let zoneFinder: ZoneFinder?
  /// Recent answers, sent again to the same request in the same second; nil makes every
  /// answer.
  var answers: AnswerCache?

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.forecastPath)) { request, _ in try respond(to: request, forecast: true) }
    router.get(RouterPath(Self.weatherPath)) { request, _ in try respond(to: request, forecast: false) }
  }

  func respond(to request: Request, forecast: Bool) throws -> Response {
    // One catalog for the whole answer: a run published meanwhile waits for the next request.
    let (catalog, now) = (store.catalog, clock())
    // `dt` and the city's day are read from now to the second.
    let quantum = AnswerCache.Quantum.of(now, seconds: 1)
    return try AnswerCache.response(answers, to: request, catalog: catalog, now: now, quantum: quantum) {
      try answer(to: request, forecast: forecast, catalog: catalog, now: now)
    }
  }

  /// The answer to `request` from `catalog` at `now` (Unix seconds).
  func answer(to request: Request, forecast: Bool, catalog: RunCatalog, now: Int64) throws -> AnswerCache.Answer {
    let parameters = try OpenWeatherMapParameters(
      QueryParameters(request: request.uri.query, maximumBytes: maximumQueryBytes), forecast: forecast)
    let (place, latitude, longitude) = try locate(parameters.location)
    let zone = zone(of: place, latitude: latitude, longitude: longitude)
    let query = OpenWeatherMapQuery(
      request: ForecastRequest(
        latitude: latitude, longitude: longitude, timeZone: zone, units: parameters.units.unitSystem,
        cellSelection: ForecastParameters.defaultCellSelection),
      now: now, city: OpenWeatherMapCity(place: place, latitude: latitude, longitude: longitude, zone: zone, now: now),
      count: parameters.count)
    let forecaster = Forecaster(catalog: catalog)
    let bytes =
      forecast
      ? OpenWeatherMapDocument(answer: try query.forecast(forecaster)).forecastJSON()
      : OpenWeatherMapDocument(answer: try query.weather(forecaster)).weatherJSON()
    return AnswerCache.Answer(headers: [.contentType: Responses.json], body: ByteBuffer(bytes: bytes))
  }

  /// The place named (`q`, `id`) or nearest the point, and the point to forecast for.
  /// - Throws: `FaceError` 404 "city not found" for a name or id the gazetteer lacks, or
  ///   when there is no gazetteer to look in.
  func locate(_ location: OpenWeatherMapParameters.Location) throws(FaceError) -> (Place?, Double, Double) {
    switch location {
    case .point(let latitude, let longitude):
      return (gazetteer?.nearest(latitude: latitude, longitude: longitude), latitude, longitude)
    case .name(let name, let countryCode):
      let gazetteer = try namedPlaces("q")
      guard let place = gazetteer.place(named: name, countryCode: countryCode) else {
        let country = countryCode.map { " in country \($0)" } ?? ""
        throw FaceError(
          .notFound,
          "city not found: q names no place called \(QueryParameters.quoted(name))\(country) in the gazetteer")
      }
      return (place, place.latitude, place.longitude)
    case .id(let id):
      guard let place = try namedPlaces("id").place(id: id) else {
        throw FaceError(.notFound, "city not found: id \(id) is not a GeoNames id in the gazetteer")
      }
      return (place, place.latitude, place.longitude)
    }
  }

  /// The gazetteer, for a request that names a place by `parameter`.
  private func namedPlaces(_ parameter: String) throws(FaceError) -> Gazetteer {
    guard let gazetteer else {
      throw FaceError(
        .notFound,
        "city not found: \(parameter) needs a gazetteer, and this server has none (start nwpcube serve with "
          + "--places FILE); give lat and lon instead")
    }
    return gazetteer
  }

  /// The place's own zone; otherwise the zone finder's at the point; otherwise UTC.
  func zone(of place: Place?, latitude: Double, longitude: Double) -> LocalTimeZone {
    let identifier =
      place.map(\.timezone).flatMap { $0.isEmpty ? nil : $0 }
      ?? zoneFinder?.zone(latitude: latitude, longitude: longitude)
    return identifier.flatMap { try? LocalTimeZone.named($0) } ?? .utc
  }
}
