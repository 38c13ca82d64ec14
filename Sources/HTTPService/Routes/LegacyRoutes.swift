import FaceKit
import Forecast
import Hummingbird
import LegacyFace
import Store

/// The four endpoints the original iPhone app calls (DESIGN §8), with its paths: the
/// service's adapter to `LegacyFace`, which reads the parameters and writes the answers.
struct LegacyRoutes: Sendable {
  let store: ForecastStore
  let maximumQueryBytes: Int
  /// Recent answers, sent again to the same request; nil makes every answer.
  var answers: AnswerCache?

  /// The paths, for the router and the tests.
  static let quickPath = "/QuickPrevByDate.php"
  static let dayPath = "/PrevByDateAndMetric.php"
  static let daysPath = "/MedianPrevByDays.php"
  static let nextHoursPath = "/PrevForNextHoursByMetric.php"

  func register(on router: Router<some RequestContext>) {
    router.get(RouterPath(Self.quickPath)) { request, _ in try respond(to: request, with: LegacyAnswers.quick) }
    router.get(RouterPath(Self.dayPath)) { request, _ in try respond(to: request, with: LegacyAnswers.day) }
    router.get(RouterPath(Self.daysPath)) { request, _ in try respond(to: request, with: LegacyAnswers.days) }
    router.get(RouterPath(Self.nextHoursPath)) { request, _ in
      try respond(to: request, with: LegacyAnswers.nextHours)
    }
  }

  private func respond(
    to request: Request, with answer: (Forecaster, LegacyParameters) throws -> String
  ) throws -> Response {
    // One catalog for the whole answer: a run published meanwhile waits for the next request.
    let catalog = store.catalog
    // Every answer is for the dates asked, whatever the time now.
    return try AnswerCache.response(answers, to: request, catalog: catalog, now: 0, quantum: .forever) {
      let parameters = LegacyParameters(
        query: try QueryParameters(request: request.uri.query, maximumBytes: maximumQueryBytes))
      let response = try answer(Forecaster(catalog: catalog), parameters)
      return AnswerCache.Answer(
        headers: [.contentType: Responses.json], body: ByteBuffer(string: LegacyAnswers.document(response)))
    }
  }
}
