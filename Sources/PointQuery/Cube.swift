import CubeFormat
import GridGeometry
import Meteorology
import UTCTime

/// One published cube, ready for point queries: the mapped file, its cell locator and the
/// decoding tables, all immutable and shareable between threads.
///
/// The single-value path (`locate` once, then `value`) allocates nothing: a metric is
/// resolved to a `QueryMetric` up front, and a value is a few loads from the mapping.
public final class Cube: Sendable {
  /// The mapped cube file.
  public let file: CubeFile
  /// The locator over the cube's own cell coordinates: regular latitude/longitude (global
  /// grids included), analytic through the source's map projection when that reproduces
  /// every cell's coordinates, or the generic curvilinear one.
  public let locator: GridLocator
  /// The grid's shape and whether it wraps in longitude, kept here so that the lookup path
  /// does not go through the locator's enum (and retain the grid) for them.
  @usableFromInline let width: Int
  @usableFromInline let height: Int
  @usableFromInline let wrapsLongitude: Bool
  /// The locator's payload, unwrapped once. Switching on `locator` per lookup copies the
  /// payload out of the enum (its tag lives in the payload's spare bits), retaining its
  /// arrays: tens of nanoseconds on a one-value lookup. Exactly one of the three is set.
  @usableFromInline let curvilinear: CellLocator?
  @usableFromInline let regular: RegularLatLonLocator?
  @usableFromInline let analytic: AnalyticLocator?
  /// Whether `analytic` is set. The lookup calls it through optional chaining, which
  /// borrows the reference; `if let` bound a copy and paid a retain and a release, 10–40 ns
  /// a lookup side by side.
  @usableFromInline let isAnalytic: Bool
  /// The coordinates of every cell (shared with the grid's arrays, not copied).
  @usableFromInline let latitudes: [Float]
  @usableFromInline let longitudes: [Float]
  /// The run, `yyyyMMddHH`.
  public let run: String
  @usableFromInline let firstStep: Int64
  @usableFromInline let stepSeconds: Int64
  /// 1 / stepSeconds: splitting a time into step and remainder by multiplication avoids a
  /// 64-bit division, which costs tens of nanoseconds on the lookup path.
  @usableFromInline let inverseStep: Double
  @usableFromInline let steps: Int
  /// How each stored metric's words decode: the one place the decoding arithmetic lives,
  /// so that values read here and words decoded by a caller (`words(_:at:steps:into:)`)
  /// are equal by construction.
  @usableFromInline let decodings: [WordDecoding]
  /// Whether each stored metric holds the interval ending at a step (amounts and
  /// categories), rather than an instant.
  @usableFromInline let hourlyAmount: [Bool]
  /// Whether each stored metric is a category, answered from the nearest cell even when a
  /// bilinear value is asked for.
  @usableFromInline let categorical: [Bool]
  /// Every catalogue metric resolved against this cube, indexed by `Metric.index`, so that
  /// resolving one is an array load.
  private let resolved: [QueryMetric]
  private let absent: [Metric]

  /// Opens and verifies the cube at `path` and builds its locator.
  public init(path: String, verifyChecksums: Bool = true) throws(QueryError) {
    let file: CubeFile
    do {
      file = try CubeFile(path: path, verifyChecksums: verifyChecksums)
    } catch {
      throw .unreadableCube(error.description)
    }
    let header = file.header
    do {
      let grid = try CurvilinearGrid(
        width: header.width, height: header.height, latitudes: file.latitudes, longitudes: file.longitudes)
      // A cube can be crafted: refuse the coordinates ingest refuses, before any locator
      // indexes them.
      try grid.validate()
      // The header's projection is only the source's claim: the locator checks it against
      // every cell and falls back to the generic locator when it does not hold.
      let projection = try? MapProjection(
        wrfCode: Int(header.projection.code), parameters: header.projection.parameters, grid: grid)
      locator = try GridLocator(grid: grid, projection: projection)
    } catch {
      throw .unreadableCube("\(path): \(error.description)")
    }
    width = header.width
    height = header.height
    wrapsLongitude = locator.isGlobal
    switch locator {
    case .curvilinear(let cells): (curvilinear, regular, analytic) = (cells, nil, nil)
    case .regular(let lattice): (curvilinear, regular, analytic) = (nil, lattice, nil)
    case .analytic(let projected): (curvilinear, regular, analytic) = (nil, nil, projected)
    }
    isAnalytic = analytic != nil
    latitudes = locator.grid.latitudes
    longitudes = locator.grid.longitudes
    self.file = file
    run = UTC.runIdentifier(header.runStart)
    firstStep = header.firstStep
    stepSeconds = header.stepSeconds
    inverseStep = 1 / Double(header.stepSeconds)
    steps = header.steps
    decodings = header.metrics.map { WordDecoding(scale: $0.scale, offset: $0.offset) }
    hourlyAmount = header.metrics.map { $0.temporal != Metric.Temporal.instant.rawValue }
    categorical = header.metrics.map { $0.temporal == Metric.Temporal.category.rawValue }
    let slots = Dictionary(header.metrics.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    resolved = Metric.queryable.map { Self.resolve($0, slots: slots) }
    absent = resolved.filter { !$0.isAvailable }.map(\.metric)
  }

  /// The header: shape, time axis, identity, metrics.
  public var header: CubeHeader { file.header }

  /// `model/domain`, as answers and errors name a cube.
  public var name: String { "\(header.model)/\(header.domain)" }

  /// The valid time of the first step.
  public var firstTime: Int64 { firstStep }

  /// Seconds between output steps.
  public var stepLength: Int64 { stepSeconds }

  /// The valid time of step `index`.
  public func time(ofStep index: Int) -> Int64 { firstStep + Int64(index) * stepSeconds }

  /// The valid time of the last step.
  public var lastStep: Int64 { time(ofStep: steps - 1) }

  /// Resolves a metric name against this cube. Unknown names throw; known metrics this
  /// cube does not hold resolve to an unavailable metric whose values are nil.
  public func metric(_ name: String) throws(QueryError) -> QueryMetric {
    guard let metric = Metric.named(name) else {
      throw .unknownMetric(name, known: Metric.queryable.map(\.name))
    }
    return self.metric(metric)
  }

  /// Resolves a catalogue metric against this cube; one this cube does not hold resolves to
  /// an unavailable metric whose values are nil.
  public func metric(_ metric: Metric) -> QueryMetric {
    resolved[metric.index]
  }

  private static func resolve(_ metric: Metric, slots: [String: Int]) -> QueryMetric {
    func stored(_ name: Metric) -> QueryMetric.Source { slots[name.name].map { .stored($0) } ?? .absent }
    switch metric.origin {
    case .stored:
      return QueryMetric(metric: metric, source: stored(metric))
    case .windComponents:
      guard let u = slots[Metric.windU.name], let v = slots[Metric.windV.name] else {
        return QueryMetric(metric: metric, source: .absent)
      }
      return QueryMetric(
        metric: metric, source: metric == .windVel ? .windSpeed(u: u, v: v) : .windDirection(u: u, v: v))
    case .solarPosition:
      return QueryMetric(metric: metric, source: .sunUp)
    case .timeLaggedMembers:
      // One cube is one member: its own neighbourhood share. `PointSources` averages the
      // members when the store holds more runs.
      return QueryMetric(metric: metric, source: stored(.precipitationNeighbourhood))
    }
  }

  /// The catalogue metrics this cube cannot answer, found once: answers name them, per
  /// request, without resolving every metric again.
  public var absentMetrics: [Metric] { absent }

  /// Every metric this cube can answer, in the catalogue's order.
  public var availableMetrics: [QueryMetric] {
    Metric.queryable.compactMap { try? metric($0.name) }.filter(\.isAvailable)
  }

  /// A cell longitude as answers report it: east-positive in −180…180, whatever the source
  /// grid's convention (GFS's 255° is −105°).
  @inlinable
  static func signedLongitude(_ longitude: Float) -> Double {
    let value = Double(longitude)
    return value > 180 ? value - 360 : (value <= -180 ? value + 360 : value)
  }

  /// Where a point falls, or `outsideDomain` when the grid does not cover it.
  @inlinable
  public func locate(
    latitude: Double, longitude: Double, method: InterpolationMethod
  ) throws(QueryError) -> PointLocation {
    try locate(latitude: latitude, longitude: longitude, method: method) { _ in }
  }

  /// One value at a latitude, longitude and time: `locate` then `value`, but the data the
  /// value needs is fetched from memory for each candidate cell while the locator is still
  /// choosing between them, which hides most of a cache miss in a large cube.
  @inlinable
  public func value(
    _ metric: QueryMetric, latitude: Double, longitude: Double, time: Int64, method: InterpolationMethod
  ) throws(QueryError) -> Double? {
    guard time >= firstStep, time <= firstStep + Int64(steps - 1) * stepSeconds else {
      throw .timeOutsideRun(time: time, run: run, first: firstStep, last: lastStep)
    }
    let step = min(Int(Double(time - firstStep) * inverseStep), steps - 1)
    let (first, second): (Int, Int) =
      switch metric.source {
      case .stored(let slot): (slot, slot)
      case .windSpeed(let u, let v), .windDirection(let u, let v): (u, v)
      case .sunUp, .absent: (-1, -1)
      }
    // Locals, so that the prefetch closure captures values rather than reading `self`.
    let cells = self.width * self.height
    let width = self.width
    // The rows above and below are read by a bilinear quad; the regular locator names the
    // whole quad itself (its eastern corners across the seam too), so only curvilinear
    // grids need them added.
    let addRows = method == .bilinear && regular == nil
    let location = try locate(latitude: latitude, longitude: longitude, method: method) { cell in
      guard first >= 0 else { return }
      file.prefetch(metric: first, cell: cell, step: step)
      if second != first { file.prefetch(metric: second, cell: cell, step: step) }
      // A bilinear quad also reads the row below or above the nearest cell.
      guard addRows else { return }
      if cell >= width {
        file.prefetch(metric: first, cell: cell - width, step: step)
        if second != first { file.prefetch(metric: second, cell: cell - width, step: step) }
      }
      if cell + width < cells {
        file.prefetch(metric: first, cell: cell + width, step: step)
        if second != first { file.prefetch(metric: second, cell: cell + width, step: step) }
      }
    }
    return try value(metric, at: location, time: time)
  }

  @inlinable
  func locate(
    latitude: Double, longitude: Double, method: InterpolationMethod, prefetch: (Int) -> Void
  ) throws(QueryError) -> PointLocation {
    guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, longitude >= -180, longitude <= 360 else {
      throw .invalidCoordinate(latitude: latitude, longitude: longitude)
    }
    // A local, as in `value`, where reading `self.width` inside the prefetch closure cost
    // about 100 instructions per lookup (callgrind, nwpcube bench).
    let width = self.width
    switch method {
    case .nearest:
      let found: (i: Int, j: Int)? =
        if isAnalytic {
          analytic?.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
        } else if let curvilinear {
          curvilinear.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
        } else if let regular {
          regular.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
        } else {
          nil
        }
      guard let (i, j) = found else {
        throw .outsideDomain(latitude: latitude, longitude: longitude, domains: [header.domain], hint: nil)
      }
      let cell = j * width + i
      return PointLocation(
        i: i, j: j, width: width, latitude: Double(latitudes[cell]), longitude: Self.signedLongitude(longitudes[cell]),
        method: .nearest)
    case .bilinear:
      let found: GridPosition? =
        if isAnalytic {
          analytic?.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
        } else if let curvilinear {
          curvilinear.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
        } else if let regular {
          regular.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
        } else {
          nil
        }
      guard let position = found else {
        throw .outsideDomain(latitude: latitude, longitude: longitude, domains: [header.domain], hint: nil)
      }
      let cell = position.j * width + position.i
      let stencil = BilinearStencil(position: position, width: width, height: height, wrapsLongitude: wrapsLongitude)
      return PointLocation(
        i: position.i, j: position.j, width: width, latitude: Double(latitudes[cell]),
        longitude: Self.signedLongitude(longitudes[cell]), method: .bilinear, southWest: stencil.southWest,
        eastStep: stencil.eastStep, fx: stencil.fx, fy: stencil.fy)
    }
  }

  /// The value of `metric` at a located point and any time inside the run: linear in time
  /// between steps for instantaneous fields, the covering interval's amount for hourly
  /// amounts, and wind through its u/v components. nil when the value is missing.
  @inlinable
  public func value(_ metric: QueryMetric, at location: PointLocation, time: Int64) throws(QueryError) -> Double? {
    guard time >= firstStep, time <= firstStep + Int64(steps - 1) * stepSeconds else {
      throw .timeOutsideRun(time: time, run: run, first: firstStep, last: lastStep)
    }
    let elapsed = time - firstStep
    // The estimate can be one off by rounding; the integer fix-up makes the split exact.
    var step = Int(Double(elapsed) * inverseStep)
    var remainder = elapsed - Int64(step) * stepSeconds
    if remainder < 0 {
      step -= 1
      remainder += stepSeconds
    } else if remainder >= stepSeconds {
      step += 1
      remainder -= stepSeconds
    }
    switch metric.source {
    case .stored(let slot):
      return temporal(slot, step: step, remainder: remainder, location)
    case .windSpeed(let u, let v):
      guard let east = temporal(u, step: step, remainder: remainder, location),
        let north = temporal(v, step: step, remainder: remainder, location)
      else { return nil }
      return Wind.speed(u: east, v: north)
    case .windDirection(let u, let v):
      guard let east = temporal(u, step: step, remainder: remainder, location),
        let north = temporal(v, step: step, remainder: remainder, location)
      else { return nil }
      return Wind.direction(u: east, v: north)
    case .sunUp:
      return SolarEvents.isDay(latitude: location.latitude, longitude: location.longitude, at: time) ? 1 : 0
    case .absent:
      return nil
    }
  }

  @inlinable
  func temporal(_ slot: Int, step: Int, remainder: Int64, _ location: PointLocation) -> Double? {
    if remainder == 0 { return spatial(slot, step: step, location) }
    // An hourly amount belongs to the interval that ends at the next step.
    if hourlyAmount[slot] { return spatial(slot, step: step + 1, location) }
    guard let before = spatial(slot, step: step, location), let after = spatial(slot, step: step + 1, location)
    else { return nil }
    return before + (after - before) * (Double(remainder) / Double(stepSeconds))
  }

  @inlinable
  func spatial(_ slot: Int, step: Int, _ location: PointLocation) -> Double? {
    let decoding = decodings[slot]
    @inline(__always) func decode(_ cell: Int) -> Double? {
      let word = file.word(metric: slot, cell: cell, step: step)
      return word == CubeMetric.missing ? nil : decoding.value(word)
    }
    if location.method == .nearest || categorical[slot] { return decode(location.cell) }
    let sw = location.southWest
    let north = location.northStep
    let east = location.eastStep
    guard let a = decode(sw), let b = decode(sw + east), let c = decode(sw + north),
      let d = decode(sw + north + east)
    else { return nil }
    let southern = a + (b - a) * location.fx
    let northern = c + (d - c) * location.fx
    return southern + (northern - southern) * location.fy
  }
}
