import CubeFormat
import Synchronization

/// Every run of every model and domain in a store at one moment: an immutable snapshot that
/// a reader keeps for the whole of a query, so that a run published or pruned meanwhile
/// never tears an answer.
///
/// **Which cube answers.** For each valid time, the newest run that covers the time and
/// whose domain contains the point; among the domains of that run (nested domains of one
/// run share its start), the finest. Fresher forecasts win over finer grids: while a run's
/// inner domain is still being ingested, its outer domain answers rather than the previous
/// run's inner one. Days 1–3 can thus come from a 12 UTC 72-hour run and days 4–7 from the
/// 00 UTC 180-hour run before it.
public struct RunCatalog: Sendable {
  /// The store's root directory.
  public let store: String
  /// Every cube, in answering order: newest run first, then finest grid, then model and
  /// domain name (so that the order is total and reproducible).
  public let cubes: [Cube]
  /// Cubes the scan could not open, one line each (they are left out).
  public let problems: [String]
  /// A number no other catalog made by this process has: what a cache of answers keys on,
  /// so that an answer made before the store changed is never served after.
  public let generation: UInt64

  /// Generations handed out so far.
  private static let generations = Atomic<UInt64>(0)

  /// A catalog of `cubes`, ordered for answering.
  public init(store: String, cubes: [Cube], problems: [String] = []) {
    self.store = store
    self.problems = problems
    generation = Self.generations.wrappingAdd(1, ordering: .relaxed).newValue
    self.cubes = cubes.sorted { Self.answersBefore($0.header, $1.header) }
  }

  /// Whether the cube of header `a` comes before that of `b` in answering order. The order
  /// is decided by headers alone, so that a reader can order cubes it has not opened; cubes
  /// of equal headers keep the order they are given in (Swift's sort is stable).
  public static func answersBefore(_ a: CubeHeader, _ b: CubeHeader) -> Bool {
    if a.runStart != b.runStart { return a.runStart > b.runStart }
    let (spacingA, spacingB) = (spacing(a), spacing(b))
    if spacingA != spacingB { return spacingA < spacingB }
    return (a.model, a.domain) < (b.model, b.domain)
  }

  /// The cubes that can answer at a point, in answering order, each with where the point
  /// falls in it. Throws `outsideDomain` (with a longitude-sign hint when the mirrored point
  /// is covered) when no cube contains the point, `unknownDomain` for a `domain` the
  /// store does not have, and `emptyStore` or `noReadableCube` when no cube can answer at
  /// all: the service's trouble, not the question's. `cellSelection` moves each cube's
  /// nearest cell to a land or sea cell nearby (see `CellSelection`).
  public func sources(
    latitude: Double, longitude: Double, method: InterpolationMethod, domain: String? = nil,
    cellSelection: CellSelection = .nearest
  ) throws(QueryError) -> PointSources {
    guard !cubes.isEmpty else { throw unavailable }
    var candidates = cubes
    if let domain {
      candidates = cubes.filter { $0.header.domain == domain }
      guard !candidates.isEmpty else {
        throw .unknownDomain(domain, known: Array(Set(cubes.map(\.header.domain))).sorted())
      }
    }
    var found: [PointSources.Source] = []
    for cube in candidates {
      do {
        let location = try cube.locate(latitude: latitude, longitude: longitude, method: method)
        found.append(
          .init(
            cube: cube,
            location: try cube.selecting(cellSelection, latitude: latitude, longitude: longitude, from: location)))
      } catch .outsideDomain {
        continue
      }
    }
    guard found.isEmpty else { return PointSources(sources: found) }
    var names: [String] = []
    for cube in candidates where !names.contains(cube.name) { names.append(cube.name) }
    // A longitude typed without its minus sign (8.93 for Portugal's −8.93) is the
    // commonest reason; say so when the mirrored point is covered.
    let mirrored = -longitude
    let hint =
      candidates.contains { (try? $0.locate(latitude: latitude, longitude: mirrored, method: .nearest)) != nil }
      ? "did you mean longitude \(mirrored)? Longitudes are east-positive, so places west of Greenwich are negative"
      : nil
    throw .outsideDomain(latitude: latitude, longitude: longitude, domains: names, hint: hint)
  }

  /// Why this catalog cannot answer anything, when it has no cube.
  public var unavailable: QueryError {
    problems.isEmpty ? .emptyStore(store) : .noReadableCube(store, problems: problems)
  }

  /// The cube answering at a point and time, and where the point falls in it.
  public func select(
    latitude: Double, longitude: Double, time: Int64, method: InterpolationMethod, domain: String? = nil
  ) throws(QueryError) -> (Cube, PointLocation) {
    let sources = try sources(latitude: latitude, longitude: longitude, method: method, domain: domain)
    guard let source = sources.source(at: time) else { throw sources.timeNotCovered(time) }
    return (source.cube, source.location)
  }

  private static func spacing(_ header: CubeHeader) -> Double {
    header.gridSpacing > 0 ? header.gridSpacing : .infinity
  }
}

/// The cubes that contain one point, in answering order, with the point's location in each.
public struct PointSources: Sendable {
  /// One cube that contains the point.
  public struct Source: Sendable {
    public let cube: Cube
    public let location: PointLocation
  }

  /// Newest run first, then finest grid.
  public let sources: [Source]

  /// The source answering at `time`: the first that covers it. Valid times between two of
  /// a run's steps count as covered (values are interpolated).
  @inlinable
  public func source(at time: Int64) -> Source? {
    for source in sources where time >= source.cube.firstTime && time <= source.cube.lastTime {
      return source
    }
    return nil
  }

  /// The error for a time no source covers, naming what each run covers.
  public func timeNotCovered(_ time: Int64) -> QueryError {
    if let only = sources.first, sources.count == 1 {
      return .timeOutsideRun(time: time, run: only.cube.run, first: only.cube.firstTime, last: only.cube.lastTime)
    }
    return .timeNotCovered(time: time, runs: coverage)
  }

  /// What each source covers, for errors about times none of them covers.
  public var coverage: [RunCoverage] {
    sources.map {
      RunCoverage(name: "\($0.cube.name) \($0.cube.run)", first: $0.cube.firstTime, last: $0.cube.lastTime)
    }
  }
}
