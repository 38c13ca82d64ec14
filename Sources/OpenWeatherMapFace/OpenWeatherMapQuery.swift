import FaceKit
import Forecast
import Meteorology

/// One OpenWeatherMap 2.5 question: the 5 day / 3 hour forecast (`/data/2.5/forecast`) or
/// the current weather (`/data/2.5/weather`) at a point, in the request's units, about a
/// city. docs/openweathermap.md says how each field comes from the hourly metrics.
public struct OpenWeatherMapQuery: Sendable {
  /// The most forecast entries, and the number a store covering five days gives.
  public static let maximumCount = 40
  /// Seconds between forecast entries.
  public static let step: Int64 = 10_800
  /// Hours each forecast entry summarises: the three ending at its time.
  static let windowHours = 3

  /// The point, the units (`OpenWeatherMapUnits.unitSystem`) and the zone whose local day
  /// `/weather`'s temperature range covers.
  public var request: ForecastRequest
  /// Unix seconds now: the forecast starts at the next 3-hour boundary after it, and the
  /// current weather is that of its quarter hour.
  public var now: Int64
  /// The place the answer names.
  public var city: OpenWeatherMapCity
  /// How many forecast entries are wanted, 1…`maximumCount`.
  public var count: Int

  public init(request: ForecastRequest, now: Int64, city: OpenWeatherMapCity, count: Int = maximumCount) {
    self.request = request
    self.now = now
    self.city = city
    self.count = min(max(count, 1), Self.maximumCount)
  }

  /// The first forecast entry's time: the first 3-hour UTC boundary (00, 03, … 21 UTC)
  /// after `now`.
  public static func firstEntry(after now: Int64) -> Int64 {
    now - ((now % step) + step) % step + step
  }

  /// The time `/weather` describes: the start of the quarter hour containing `now`, the
  /// instant Open-Meteo's `current` block describes too.
  public static func currentTime(at now: Int64) -> Int64 {
    CurrentInterval.start(containing: now)
  }

  /// The metrics an entry is made from, read in one call.
  static let metrics: [Metric] = [
    .temp, .apparentTemp, .atmPress, .sfcPress, .hum, .cloud, .windVel, .windDir, .windGusts, .visibility, .rain,
    .snow, .weatherCode,
  ]

  /// The forecast: `count` entries 3 hours apart from `firstEntry(after: now)`, fewer when
  /// the store covers fewer (the entries up to the first whose time no run covers).
  /// - Throws: `ForecastError` when the point is outside every domain or no run covers the
  ///   first entry's time.
  public func forecast(_ forecaster: Forecaster) throws(ForecastError) -> OpenWeatherMapAnswer {
    let first = Self.firstEntry(after: now)
    let hours = count * Self.windowHours
    // Each entry's window is the three hours ending at its time: the reading starts two
    // hours before the first entry.
    let start = first - Int64(Self.windowHours - 1) * 3_600
    let instants = (0..<hours).map { start + Int64($0) * 3_600 }
    let metrics = Self.metrics + [.precipitationProbability]
    // The entries are UTC: no local offsets are needed, and finding them in the zone would
    // cost a Foundation call an hour.
    let point = try forecaster.point(request)
    let series = try point.hourly(
      metrics: metrics, instants: instants, utcOffsets: Array(repeating: 0, count: instants.count))
    var entries: [OpenWeatherMapAnswer.Entry] = []
    entries.reserveCapacity(count)
    // Each metric's column (its first in `metrics`, 0 when absent), found once: searching
    // `metrics` for each of an entry's thirty values was a twentieth of a forecast.
    var columnOf = [Int](repeating: 0, count: Metric.allCases.count)
    for (column, metric) in metrics.enumerated().reversed() { columnOf[metric.rawValue] = column }
    let values = series.values
    for index in 0..<count {
      let window = (index * Self.windowHours)..<((index + 1) * Self.windowHours)
      guard series.sourceOfHour[window.upperBound - 1] != nil else { break }
      entries.append(
        OpenWeatherMapAnswer.Entry(
          time: instants[window.upperBound - 1], window: window, latitude: request.latitude,
          longitude: request.longitude
        ) { metric, hour in values[columnOf[metric.rawValue]][hour] })
    }
    if entries.isEmpty {
      // Hours after the first entry are covered but its own is not: the library's error
      // says which runs cover what.
      _ = try point.hourly(metrics: [.temp], instants: [first])
      throw .notCovered(first: first, last: first, runs: [])
    }
    return OpenWeatherMapAnswer(query: self, entries: entries)
  }

  /// The current weather: the conditions at `currentTime(at: now)`, with the local day's
  /// hourly temperature range as `temp_min` and `temp_max`.
  /// - Throws: `ForecastError` when the point is outside every domain or no run covers now.
  public func weather(_ forecaster: Forecaster) throws(ForecastError) -> OpenWeatherMapAnswer {
    let time = Self.currentTime(at: now)
    let conditions = try forecaster.point(request).current(metrics: Self.metrics, at: time)
    guard conditions.provenance != nil else {
      throw .notCovered(first: time, last: time, runs: [])
    }
    var entry = OpenWeatherMapAnswer.Entry(
      time: time, window: 0..<1, latitude: request.latitude, longitude: request.longitude
    ) { metric, _ in conditions.value(of: metric) }
    entry.temperatureMinimum = conditions.temperatureMinimum
    entry.temperatureMaximum = conditions.temperatureMaximum
    return OpenWeatherMapAnswer(query: self, entries: [entry])
  }
}
