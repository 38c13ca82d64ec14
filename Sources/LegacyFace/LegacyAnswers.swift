import FaceKit
import Forecast
import Meteorology

/// The answers of the four endpoints the original iPhone app calls (DESIGN §8), in its JSON
/// shapes, so that it keeps working unchanged: each is the text under the root key
/// `response`.
///
/// Answers are in the app's units (°C, %, mm, m/s, °, hPa) over UTC days and hours. Each
/// value is rounded to its metric's display precision (`Metric.decimals`); a value the
/// model does not have is `null`. Responses hold the app's seven metrics and no other key.
public enum LegacyAnswers {
  /// The metrics the app knows, in the order its documentation lists them.
  public static let metrics: [Metric] = [.temp, .hum, .rain, .cloud, .windVel, .windDir, .atmPress]

  /// `{"response": answer}`: the document around any of the answers.
  public static func document(_ answer: String) -> String { JSONText.object([("response", answer)]) }

  private static func forecastRequest(_ parameters: LegacyParameters) throws(FaceError) -> ForecastRequest {
    let point = try parameters.point()
    return ForecastRequest(latitude: point.latitude, longitude: point.longitude)
  }

  /// `QuickPrevByDate.php?lat&lon&date=yyyyMMdd_HH`: every metric at that hour as `now`;
  /// temp adds the UTC day's hourly maximum and minimum.
  ///
  /// The same answer as `Forecaster.current` (the tests hold it to that), read as the
  /// day's hours in one pass over the store instead of two: `date` is a whole hour, so it
  /// is one of them. This is the app's most frequent call.
  package static func quick(_ forecaster: Forecaster, _ parameters: LegacyParameters) throws -> String {
    let request = try Self.forecastRequest(parameters)
    let time = try parameters.hour()
    let point = try forecaster.point(request)
    let today = try point.day(metrics: Self.metrics, date: LocalTimeZone.utc.date(containing: time))
    if let hour = today.hours.firstIndex(where: { $0.instant == time }), today.sourceOfHour[hour] != nil {
      let temperature = DailyStatistics(hourly: today.values[0])
      return Self.conditions(
        today.values.map { $0[hour] }, maximum: temperature.maximum, minimum: temperature.minimum)
    }
    // No run covers the hour itself, only others of its day: `current` says so, naming
    // what the runs cover.
    let conditions = try point.current(metrics: Self.metrics, at: time)
    return Self.conditions(
      conditions.values, maximum: conditions.temperatureMaximum, minimum: conditions.temperatureMinimum)
  }

  /// `{"temp": {"max", "min", "now"}, "hum": {"now"}, …}` from one value per metric.
  ///
  /// Written straight into one string: this is the app's most frequent answer, and
  /// assembling it from arrays of members took a third of the handler's time (a string
  /// allocated for every key and object).
  private static func conditions(_ values: [Double?], maximum: Double?, minimum: Double?) -> String {
    var text = "{"
    text.reserveCapacity(256)
    for (index, (metric, value)) in zip(metrics, values).enumerated() {
      text += index == 0 ? "\"" : ",\""
      text += metric.name
      text += "\":{"
      if metric == .temp {
        text += "\"max\":"
        text += number(maximum, metric)
        text += ",\"min\":"
        text += number(minimum, metric)
        text += ","
      }
      text += "\"now\":"
      text += number(value, metric)
      text += "}"
    }
    return text + "}"
  }

  /// `PrevByDateAndMetric.php?lat&lon&metric&date=yyyyMMdd`: the metric at the 24 hours
  /// 00:00…23:00 UTC of the day, as `points`.
  package static func day(_ forecaster: Forecaster, _ parameters: LegacyParameters) throws -> String {
    let request = try Self.forecastRequest(parameters)
    let metric = try parameters.metric()
    let series = try forecaster.day(request, metrics: [metric], date: try parameters.day())
    return Self.points(series.values[0], metric)
  }

  /// `MedianPrevByDays.php?lat&lon&date=yyyyMMdd&days=0…7`: one object per UTC day from
  /// `date`, `days + 1` of them. Every metric has the `median` of its hourly values; temp
  /// adds `max` and `min`, rain its `sum`. wind_dir's `median` is the direction of the
  /// day's mean wind vector: a median of angles would put a day of 350° and 10° at 180°.
  package static func days(_ forecaster: Forecaster, _ parameters: LegacyParameters) throws -> String {
    let request = try Self.forecastRequest(parameters)
    let start = try parameters.day()
    let count = try parameters.days() + 1
    let summaries = try forecaster.daily(request, metrics: Self.metrics, from: start, days: count)
    return JSONText.array(
      summaries.map { summary in
        JSONText.object(
          Self.metrics.map { metric in
            guard let statistics = summary.statistics(of: metric) else {
              // Only wind_dir has no statistics of its own: its day is its mean vector.
              return (metric.name, JSONText.object([("median", Self.number(summary.wind?.direction, metric))]))
            }
            var members: [(String, String)] = []
            if metric == .temp {
              members.append(("max", Self.number(statistics.maximum, metric)))
              members.append(("min", Self.number(statistics.minimum, metric)))
            }
            members.append(("median", Self.number(statistics.median, metric)))
            if metric == .rain { members.append(("sum", Self.number(statistics.sum, metric))) }
            return (metric.name, JSONText.object(members))
          })
      })
  }

  /// `PrevForNextHoursByMetric.php?lat&lon&metric&date=yyyyMMdd_HH`: the metric at the 24
  /// hours starting at `date`, as `points`.
  package static func nextHours(_ forecaster: Forecaster, _ parameters: LegacyParameters) throws -> String {
    let request = try Self.forecastRequest(parameters)
    let metric = try parameters.metric()
    let series = try forecaster.nextHours(request, metrics: [metric], from: try parameters.hour(), count: 24)
    return Self.points(series.values[0], metric)
  }

  private static func points(_ values: [Double?], _ metric: Metric) -> String {
    JSONText.object([("points", JSONText.array(values.map { number($0, metric) }))])
  }

  /// A value at its metric's display precision.
  static func number(_ value: Double?, _ metric: Metric) -> String {
    JSONText.number(value, decimals: metric.decimals)
  }
}
