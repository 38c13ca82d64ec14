import ArgumentParser
import FaceKit
import Meteorology
import PointQuery
import Store
import UTCTime

/// Where to answer: the store and the point, shared by the commands that read one point.
struct LocationOptions: ParsableArguments {
  @Option(help: "The store directory (STORE/<model>/<domain>/<run>.cube).")
  var store: String

  // Unconditional parsing, so that negative coordinates (`--lon -9.14`) are values, not flags.
  @Option(parsing: .unconditional, help: "Latitude in decimal degrees, −90…90.")
  var lat: Double

  @Option(parsing: .unconditional, help: "Longitude in decimal degrees, east-positive (Portugal is about −9).")
  var lon: Double

  @Option(help: "nearest (the great-circle nearest cell) or bilinear.")
  var method: InterpolationMethod = .nearest

  @Option(help: "Answer from this domain (e.g. d01) instead of the finest one containing the point.")
  var domain: String?

  /// `body` over a store of only the cubes that can answer at the point between `from`
  /// and `to` (see `ForecastStore.init(path:answering:)`), which spares verifying every run
  /// the store keeps; when that store cannot be made or `body` fails on it, `body` over the
  /// whole store, so that an error is worded as it always was.
  func answer<Answer>(
    from: Int64, to: Int64, probability: Bool, _ body: (ForecastStore) throws -> Answer
  ) throws -> Answer {
    let question = PointQuestion(
      latitude: lat, longitude: lon, method: method, domain: domain, times: from...max(from, to),
      probability: probability)
    if let chosen = try? ForecastStore(path: store, answering: question), let answer = try? body(chosen) {
      return answer
    }
    return try body(try ForecastStore(path: store))
  }

  func validate() throws {
    guard lat.isFinite, Coordinate.latitudes.contains(lat) else {
      throw ValidationError("--lat \(lat) is not a latitude in −90…90")
    }
    guard lon.isFinite, Coordinate.longitudes.contains(lon) else {
      throw ValidationError("--lon \(lon) is not a longitude in −180…360")
    }
  }
}

/// The location and the metrics to read there, for `query` and `series`.
struct PointOptions: ParsableArguments {
  @OptionGroup var location: LocationOptions

  @Option(help: "Comma-separated metrics (default: all the cube has).")
  var metrics: String?

  var method: InterpolationMethod { location.method }

  /// Opens the store and finds the cube answering at the point and `time` (the newest run
  /// covering it, from the finest domain containing the point) and the point's cell.
  func select(time: Int64) throws -> (Cube, PointLocation) {
    let (_, source) = try sources(time: time)
    return (source.cube, source.location)
  }

  /// The cubes containing the point that can answer between `time` and `end` (for
  /// `precipitation_probability`, which averages runs) and the one answering at `time`, as
  /// `select` picks it. Only those cubes are opened and verified
  /// (`LocationOptions.answer(from:to:probability:_:)`).
  func sources(time: Int64, through end: Int64? = nil) throws -> (PointSources, PointSources.Source) {
    try location.answer(from: time, to: end ?? time, probability: mayAskProbability) { store in
      try sources(in: store, time: time)
    }
  }

  private func sources(in store: ForecastStore, time: Int64) throws(QueryError) -> (PointSources, PointSources.Source) {
    let sources = try store.catalog.sources(
      latitude: location.lat, longitude: location.lon, method: method, domain: location.domain)
    guard let source = sources.source(at: time) else { throw sources.timeNotCovered(time) }
    return (sources, source)
  }

  /// Whether the metrics asked for may include a `precipitation_probability` (all of a
  /// cube's metrics do, and so does a name that is not a metric's, whose error comes later).
  private var mayAskProbability: Bool {
    guard let metrics else { return true }
    return metrics.split(separator: ",").contains {
      Metric.named($0.trimmingCharacters(in: .whitespaces))?.origin ?? .timeLaggedMembers == .timeLaggedMembers
    }
  }

  /// The metrics asked for, resolved against `cube`.
  func resolveMetrics(in cube: Cube) throws -> [QueryMetric] {
    guard let metrics else { return cube.availableMetrics }
    let names = metrics.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
      throw ValidationError("--metrics '\(metrics)' has an empty name; give e.g. temp,rain,wind_vel")
    }
    return try names.map { name throws(QueryError) in try cube.metric(name) }
  }
}

extension InterpolationMethod: ExpressibleByArgument {}

/// Parses an ISO 8601 time option with a message that names the option.
func parseTime(_ text: String, option: String) throws -> Int64 {
  guard let seconds = UTC.parseISO8601(text) else {
    throw ValidationError(
      "\(option) '\(text)' is not an ISO 8601 time; use e.g. 2026-06-20T15:00:00Z, 2026-06-20T15:00 or 2026-06-20")
  }
  return seconds
}
