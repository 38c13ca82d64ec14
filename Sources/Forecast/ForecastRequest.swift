import Meteorology
import PointQuery
import UTCTime

/// Where a forecast is for and how to present it.
public struct ForecastRequest: Sendable {
  /// Degrees north, −90…90.
  public var latitude: Double
  /// Degrees east, −180…360.
  public var longitude: Double
  /// Nearest cell, or bilinear between the four around the point.
  public var method: InterpolationMethod
  /// Answer from this domain only (e.g. `d01`) instead of the finest containing the point.
  public var domain: String?
  /// The zone whose local days daily values and day series follow.
  public var timeZone: LocalTimeZone
  /// The units values are given in.
  public var units: UnitSystem
  /// Which cell a nearest-cell forecast answers from: the nearest, or a land or sea cell
  /// near it (see `CellSelection`; a bilinear forecast ignores it).
  public var cellSelection: CellSelection
  /// The point's own elevation in metres: temperature, dew point and apparent temperature
  /// are moved from the model's terrain height to it (see `ElevationCorrection`). nil
  /// (`elevation=nan`, or none given) leaves values at the model's height.
  public var elevation: Double?

  public init(
    latitude: Double, longitude: Double, method: InterpolationMethod = .nearest, domain: String? = nil,
    timeZone: LocalTimeZone = .utc, units: UnitSystem = .si, cellSelection: CellSelection = .nearest,
    elevation: Double? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.method = method
    self.domain = domain
    self.timeZone = timeZone
    self.units = units
    self.cellSelection = cellSelection
    self.elevation = elevation
  }

  /// The elevation an answer is for, metres: the requested elevation when values were
  /// corrected to it, else the model's terrain height at the first source's cell; nil
  /// when the cube does not know its terrain (then nothing was corrected).
  public func answerElevation(_ source: Provenance?) -> Double? {
    guard let modelHeight = source?.elevation else { return nil }
    return elevation ?? modelHeight
  }
}

/// Which cube produced values: the run, the domain and the grid cell.
public struct Provenance: Sendable, Hashable {
  public let model: String
  public let domain: String
  /// The run, `yyyyMMddHH`.
  public let run: String
  /// The nearest mass point's indices and coordinates.
  public let i: Int
  public let j: Int
  public let latitude: Double
  public let longitude: Double
  /// The model's terrain height at the location, metres (blended for a bilinear one); nil
  /// when the cube does not know it.
  public let elevation: Double?
  /// The catalogue metrics this source's cube cannot answer (shared with the cube).
  let absent: [Metric]
  /// The kind of input the cube was derived from, which names a missing metric's inputs.
  let inputConvention: InputConvention?

  init(_ source: PointSources.Source) {
    model = source.cube.header.model
    domain = source.cube.header.domain
    run = source.cube.run
    i = source.location.i
    j = source.location.j
    latitude = source.location.latitude
    longitude = source.location.longitude
    elevation = try? source.cube.terrainHeight(at: source.location)
    absent = source.cube.absentMetrics
    inputConvention = source.cube.inputConvention
  }

  /// Whether this source's cube answers every catalogue metric.
  public var answersEveryMetric: Bool { absent.isEmpty }

  /// Whether this source's cube answers `metric`.
  public func answers(_ metric: Metric) -> Bool { !absent.contains(metric) }

  /// Why this source's cube cannot answer `metric`.
  public func absenceReason(_ metric: Metric) -> String {
    metric.absenceReason(amongAbsent: absent, convention: inputConvention)
  }
}

/// Why a forecast has no answer.
public enum ForecastError: Error, Equatable, CustomStringConvertible {
  /// From the store: outside every domain, unknown domain, invalid coordinate, …
  case query(QueryError)
  /// No run covers any of the times asked for.
  case notCovered(first: Int64, last: Int64, runs: [RunCoverage])
  /// A metric name that is not in the catalogue.
  case unknownMetric(String)
  /// A daily variable name that is not `<metric>_<median|min|max|sum>`, a metric,
  /// `wind_dir_dominant`, `sunrise` or `sunset`.
  case unknownDailyVariable(String)
  /// A count (days, hours) outside what is allowed.
  case outOfRange(parameter: String, value: Int, allowed: ClosedRange<Int>)

  public var description: String {
    switch self {
    case .query(let error):
      return error.description
    case .notCovered(let first, let last, let runs):
      let covers = runs.map { "\($0.name) covers \(UTC.iso8601($0.first)) to \(UTC.iso8601($0.last))" }
      return
        "no run covers \(UTC.iso8601(first)) to \(UTC.iso8601(last)) at this point: \(covers.joined(separator: "; "))"
    case .unknownMetric(let name):
      return
        "unknown metric '\(name)'; known metrics: \(Metric.queryable.map(\.name).joined(separator: ", "))"
    case .unknownDailyVariable(let name):
      return
        "unknown daily variable '\(name)'; use <metric>_median, _min, _max or _sum (e.g. temp_max, rain_sum), a metric name, wind_dir_dominant, sunrise or sunset"
    case .outOfRange(let parameter, let value, let allowed):
      return "\(parameter) \(value) is out of range; allowed: \(allowed.lowerBound)…\(allowed.upperBound)"
    }
  }
}
