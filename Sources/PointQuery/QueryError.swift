import UTCTime

/// Why a point query has no answer. Each case is distinct so that callers (the CLI, the
/// HTTP service) can map it to the right message and status.
public enum QueryError: Error, Equatable, CustomStringConvertible {
  /// The point is not inside any domain's grid. `hint` says more when it can (e.g. a
  /// longitude whose sign looks flipped).
  case outsideDomain(latitude: Double, longitude: Double, domains: [String], hint: String?)
  /// The time is not covered by the run.
  case timeOutsideRun(time: Int64, run: String, first: Int64, last: Int64)
  /// No run containing the point covers the time; each run's coverage is listed.
  case timeNotCovered(time: Int64, runs: [RunCoverage])
  /// No such metric.
  case unknownMetric(String, known: [String])
  /// The coordinates are not numbers on the globe.
  case invalidCoordinate(latitude: Double, longitude: Double)
  /// The store holds no cube at all.
  case emptyStore(String)
  /// The store holds cubes but none of them can be opened; `problems` says why, one line
  /// per cube.
  case noReadableCube(String, problems: [String])
  /// The store's directory cannot be read.
  case unreadableStore(String, reason: String)
  /// A named domain is not in the store.
  case unknownDomain(String, known: [String])
  /// A cube could not be opened.
  case unreadableCube(String)
  /// A handle (`"location"` or `"metric"`) was given to a cube other than the one that made
  /// it: a caller's mistake, refused before the handle's indices reach the mapping. The
  /// cubes are named by `Cube.label`; `madeBy` is nil when the maker is closed.
  case foreignHandle(String, madeBy: String?, usedWith: String)

  public var description: String {
    switch self {
    case .outsideDomain(let lat, let lon, let domains, let hint):
      let base =
        "point \(lat), \(lon) is outside the domain\(domains.count == 1 ? "" : "s") \(domains.joined(separator: ", "))"
      return hint.map { "\(base); \($0)" } ?? base
    case .timeOutsideRun(let time, let run, let first, let last):
      return
        "time \(UTC.iso8601(time)) is outside run \(run), which covers \(UTC.iso8601(first)) to \(UTC.iso8601(last))"
    case .timeNotCovered(let time, let runs):
      let covers = runs.map { "\($0.name) covers \(UTC.iso8601($0.first)) to \(UTC.iso8601($0.last))" }
      return "time \(UTC.iso8601(time)) is outside every run at this point: \(covers.joined(separator: "; "))"
    case .unknownMetric(let name, let known):
      return "unknown metric '\(name)'; known metrics: \(known.joined(separator: ", "))"
    case .invalidCoordinate(let lat, let lon):
      return "invalid coordinate \(lat), \(lon): latitude must be in −90…90 and longitude in −180…360"
    case .emptyStore(let path):
      return "\(path): no cubes in this store (ingest a run first)"
    case .noReadableCube(let path, let problems):
      let count = problems.count == 1 ? "its only cube cannot" : "none of its \(problems.count) cubes can"
      return "\(path): no readable cube in this store: \(count) be opened; \(problems[0])"
    case .unreadableStore(let path, let reason):
      return "\(path): cannot read the store directory: \(reason)"
    case .unknownDomain(let name, let known):
      return "unknown domain '\(name)'; the store has \(known.joined(separator: ", "))"
    case .unreadableCube(let reason):
      return reason
    case .foreignHandle(let handle, let maker, let user):
      let advice = "locate points and resolve metrics with the cube that reads them"
      guard let maker else {
        return
          "this \(handle) was made by a cube that is no longer open and cannot be used with cube \(user); \(advice)"
      }
      if maker == user {
        return "this \(handle) was made by another opening of cube \(maker) and cannot be used with this one; \(advice)"
      }
      return "this \(handle) was made by cube \(maker) and cannot be used with cube \(user); \(advice)"
    }
  }
}

/// The valid times one run covers, for error messages.
public struct RunCoverage: Sendable, Equatable {
  /// model/domain and run, e.g. `wrf/d01 2026062000`.
  public let name: String
  public let first: Int64
  public let last: Int64

  public init(name: String, first: Int64, last: Int64) {
    self.name = name
    self.first = first
    self.last = last
  }
}
