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
///
/// **Moving nests.** The domain containing the point is decided per step: a cube whose grid
/// moves answers only at the steps where it contains the point (one `PointSources.Source`
/// per stretch of them), and elsewhere the next cube in order does, its parent domain.
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
        let located = try cube.locate(latitude: latitude, longitude: longitude, method: method)
        let location = try cube.selecting(cellSelection, latitude: latitude, longitude: longitude, from: located)
        guard cube.isMoving else {
          found.append(.init(cube: cube, location: location))
          continue
        }
        for steps in cube.answeringSteps(location) {
          found.append(.init(cube: cube, location: location, steps: steps))
        }
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
  /// One cube that contains the point, over the times it contains it.
  public struct Source: Sendable {
    /// The cube.
    public let cube: Cube
    /// Where the point falls in it. For a stretch of a moving nest, its public cell and
    /// coordinates are those of the stretch's first step; reads take each step's own.
    public let location: PointLocation
    /// The first and last valid times this source answers for: the cube's whole run, or
    /// for a moving nest the stretch of steps at which its grid contains the point. Times
    /// between two of these steps count as covered (values are interpolated).
    public let firstTime: Int64
    public let lastTime: Int64

    /// A source answering for the whole run of `cube`.
    public init(cube: Cube, location: PointLocation) {
      self.cube = cube
      self.location = location
      firstTime = cube.firstTime
      lastTime = cube.lastTime
    }

    /// A source answering for the steps `steps` of `cube` (a stretch of `coveredSteps`),
    /// with `location` anchored at its first step.
    public init(cube: Cube, location: PointLocation, steps: Range<Int>) {
      self.cube = cube
      self.location = cube.location(location, atStep: steps.lowerBound) ?? location
      firstTime = cube.time(ofStep: steps.lowerBound)
      lastTime = cube.time(ofStep: steps.upperBound - 1)
    }

    /// Whether this source answers at `time`.
    @inlinable
    public func covers(_ time: Int64) -> Bool { time >= firstTime && time <= lastTime }
  }

  /// Newest run first, then finest grid.
  public let sources: [Source]

  /// The source answering at `time`: the first that covers it. Valid times between two of
  /// a run's steps count as covered (values are interpolated).
  @inlinable
  public func source(at time: Int64) -> Source? {
    for source in sources where source.covers(time) {
      return source
    }
    return nil
  }

  /// The error for a time no source covers, naming what each run covers.
  public func timeNotCovered(_ time: Int64) -> QueryError {
    if let only = sources.first, sources.count == 1 {
      return .timeOutsideRun(time: time, run: only.cube.run, first: only.firstTime, last: only.lastTime)
    }
    return .timeNotCovered(time: time, runs: coverage)
  }

  /// What each source covers, for errors about times none of them covers.
  public var coverage: [RunCoverage] {
    sources.map {
      RunCoverage(name: "\($0.cube.name) \($0.cube.run)", first: $0.firstTime, last: $0.lastTime)
    }
  }
}
