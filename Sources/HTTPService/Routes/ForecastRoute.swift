import Forecast
import ForecastOutput
import Hummingbird

/// `GET /v1/forecast`: current conditions, hourly values and daily summaries for one or
/// more points, as JSON in Open-Meteo's layout (an array for several points) or as CSV.
struct ForecastRoute: Sendable {
  static let path = "/v1/forecast"

  let forecaster: Forecaster
  let limits: ServiceLimits
  /// Unix seconds now: today's date and current conditions depend on it.
  let clock: @Sendable () -> Int64

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.path)) { request, _ in try respond(to: request) }
  }

  func respond(to request: Request) throws -> Response {
    let query = try QueryParameters(request.uri.query, maximumBytes: limits.queryBytes)
    let parameters = try ForecastParameters(query, limits: limits, now: clock())
    let several = parameters.queries.count > 1
    let documents = try parameters.queries.enumerated().map { index, query in
      try answer(query, index: index, several: several)
    }
    switch parameters.format {
    case .json:
      let body = several ? JSONText.array(documents.map { $0.json() }) : documents.map { $0.json() }.joined()
      return Responses.text(body, contentType: Responses.json)
    case .csv:
      let body =
        several
        ? documents.enumerated().map { $1.csv(locationID: $0) }.joined(separator: "\n\n")
        : documents.map { $0.csv() }.joined()
      return Responses.text(body + "\n", contentType: Responses.csv)
    }
  }

  /// One location's answer; when the request has several, an error says which one failed.
  private func answer(_ query: ForecastQuery, index: Int, several: Bool) throws -> ForecastDocument {
    do {
      return try query.answer(forecaster)
    } catch {
      guard several else { throw error }
      throw LocationError(
        index: index, latitude: query.request.latitude, longitude: query.request.longitude, underlying: error)
    }
  }
}
