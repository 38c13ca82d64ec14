import CubeFormat
import GridGeometry
import Meteorology
import Synchronization
import UTCTime

/// One published cube, ready for point queries: the mapped file, its cell locator and the
/// decoding tables, all immutable and shareable between threads.
///
/// The single-value path (`locate` once, then `value`) allocates nothing: a metric is
/// resolved to a `QueryMetric` up front, and a value is a few loads from the mapping.
///
/// A `PointLocation` and a `QueryMetric` hold indices into the cube that made them, so
/// each carries that cube's identity, and every read compares it with its own (one integer
/// comparison) before an index reaches the mapping: a handle from another cube throws
/// `QueryError.foreignHandle` naming both cubes.
public final class Cube: Sendable {
  /// The mapped cube file.
  public let file: CubeFile
  /// The locator over the cube's own cell coordinates: regular latitude/longitude (global
  /// grids included), analytic through the source's map projection when that reproduces
  /// every cell's coordinates, or the generic curvilinear one. Lookups go through its
  /// dispatch, the only one over the kinds of locator. For a grid that moves, position 0's
  /// (the first step's); `locator(position:)` gives the others.
  public let locator: GridLocator
  /// One locator per position of the grid (`CubeFile.positionCount`), `locator` first;
  /// each built and validated as `locator` is.
  @usableFromInline let locators: [GridLocator]
  /// Whether the grid moves: more than one position, each step naming its own
  /// (`position(ofStep:)`). A cube whose grid does not move takes none of the paths this
  /// adds, so its reads are the ones it always had.
  public let isMoving: Bool
  /// Each step's position when the grid moves; empty otherwise.
  @usableFromInline let stepPositions: [Int]
  /// The grid's shape and whether it wraps in longitude, kept here so that the lookup path
  /// reads them from the cube rather than from the locator's grid.
  @usableFromInline let width: Int
  @usableFromInline let height: Int
  @usableFromInline let wrapsLongitude: Bool
  /// Whether bilinear quads need the rows above and below the nearest cell fetched: the
  /// regular locator names the whole quad itself.
  @usableFromInline let fetchesQuadRows: Bool
  /// The coordinates of every cell (shared with the grid's arrays, not copied).
  @usableFromInline let latitudes: [Float]
  @usableFromInline let longitudes: [Float]
  /// The run, `yyyyMMddHH`.
  public let run: String
  /// The valid time of the first step, Unix seconds.
  public let firstTime: Int64
  /// Seconds between output steps.
  public let stepLength: Int64
  /// 1 / stepLength: splitting a time into step index and remainder by multiplication
  /// avoids a 64-bit division, which costs tens of nanoseconds on the lookup path.
  @usableFromInline let inverseStep: Double
  /// The number of output steps; step indices are `0..<stepCount`.
  public let stepCount: Int
  /// Which opened cube this is: every handle it makes carries it, and every read checks it.
  @usableFromInline let identity: CubeIdentity
  #if DEBUG
    /// How many points this cube has located. Counted in debug builds only, where the tests
    /// run: they prove that a request locates its point once per cube, and a release build's
    /// lookups pay nothing for it.
    @usableFromInline let locateCount = Atomic<Int>(0)

    /// How many points this cube has located (debug builds only).
    public var locatesCounted: Int { locateCount.load(ordering: .relaxed) }
  #endif
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

  /// Opens and verifies the cube at `path` and builds its locator, or takes the locator of
  /// the first of `sharingGridWith` whose grid is this cube's (`CubeFile.hasSameGrid`):
  /// every run of a domain has the same grid, and building its locator costs more than
  /// verifying the whole cube. With `verifyChecksums` false only the header is hashed.
  public convenience init(
    path: String, verifyChecksums: Bool = true, sharingGridWith others: [Cube] = []
  ) throws(QueryError) {
    try self.init(path: path, checksums: verifyChecksums ? .all : .headerOnly, sharingGridWith: others)
  }

  /// `init(path:verifyChecksums:sharingGridWith:)`, hashing what `checksums` names. With
  /// `.blocks`, only metrics read from the hashed blocks are answered: every other one
  /// resolves as a metric the cube does not hold, so no value comes from an unverified block.
  public convenience init(
    path: String, checksums: ChecksumScope, sharingGridWith others: [Cube] = []
  ) throws(QueryError) {
    try self.init(file: Self.open(path, checksums), checksums: checksums, sharingGridWith: others)
  }

  /// Opens the cube at `path` verifying in proportion to what is read, as a server and the
  /// command line open cubes: a version 3 cube's header, record and band index now, and
  /// each checksum block when a read first touches it (`.headerOnly` in version 3), so that
  /// opening costs the same whatever the cube weighs; a version 1 or 2 cube, which has no
  /// block checksums, hashed as `olderVersions` says (`.all`: whole, now).
  public convenience init(
    path: String, verifyingOnTouch olderVersions: ChecksumScope, sharingGridWith others: [Cube] = []
  ) throws(QueryError) {
    let file = try Self.open(path, .headerOnly)
    if file.formatVersion >= Self.blockChecksumVersion {
      try self.init(file: file, checksums: .headerOnly, sharingGridWith: others)
    } else {
      try self.init(file: Self.open(path, olderVersions), checksums: olderVersions, sharingGridWith: others)
    }
  }

  /// The first format version whose cubes carry a checksum per block, verified on touch.
  static let blockChecksumVersion = 3

  /// The cube file at `path`, hashed as `checksums` says.
  private static func open(_ path: String, _ checksums: ChecksumScope) throws(QueryError) -> CubeFile {
    do {
      return try CubeFile(path: path, checksums: checksums)
    } catch {
      throw .unreadableCube(error.description)
    }
  }

  /// The cube over `file`, opened with `checksums`.
  private init(file: CubeFile, checksums: ChecksumScope, sharingGridWith others: [Cube]) throws(QueryError) {
    let path = file.path
    let header = file.header
    if let twin = others.first(where: { $0.file.hasSameGrid(as: file) }) {
      // The twin's coordinates passed the checks below, and these are the same bytes, in
      // every position.
      locators = twin.locators
    } else {
      var built: [GridLocator] = []
      built.reserveCapacity(file.positionCount)
      for position in 0..<file.positionCount {
        do {
          built.append(try Self.locator(file, position: position))
        } catch {
          let which = file.positionCount > 1 ? " (grid position \(position))" : ""
          throw .unreadableCube(file.damage?.description ?? "\(path)\(which): \(error.description)")
        }
      }
      locators = built
    }
    locator = locators[0]
    isMoving = locators.count > 1
    stepPositions = isMoving ? file.stepPositions : []
    width = header.width
    height = header.height
    wrapsLongitude = locator.isGlobal
    fetchesQuadRows = locator.kind != .regular
    latitudes = locator.grid.latitudes
    longitudes = locator.grid.longitudes
    self.file = file
    run = UTC.runIdentifier(header.runStart)
    firstTime = header.firstTime
    stepLength = header.stepSeconds
    inverseStep = 1 / Double(header.stepSeconds)
    stepCount = header.stepCount
    decodings = header.metrics.map { WordDecoding(scale: $0.scale, offset: $0.offset) }
    hourlyAmount = header.metrics.map { $0.temporal != Metric.Temporal.instant.rawValue }
    categorical = header.metrics.map { $0.temporal == Metric.Temporal.category.rawValue }
    let identity = CubeIdentity.open(label: Self.label(header))
    self.identity = identity
    // Blocks `checksums` leaves unhashed (with `.blocks`) are not offered to resolution.
    let answerable = header.metrics.enumerated().filter {
      if case .blocks = checksums { checksums.covers(block: $1.name) } else { true }
    }
    let slots = Dictionary(answerable.map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    resolved = Metric.queryable.map { Self.resolve($0, slots: slots, maker: identity) }
    absent = resolved.filter { !$0.isAvailable }.map(\.metric)
  }

  deinit { CubeIdentity.close(identity) }

  /// The locator over `position`'s coordinates in `file`.
  private static func locator(_ file: CubeFile, position: Int) throws(GeometryError) -> GridLocator {
    let header = file.header
    let (latitudes, longitudes) = (file.latitudes(position: position), file.longitudes(position: position))
    // Coordinates whose blocks fail verification read as NaN: say which block instead.
    if let damage = file.damage { throw .invalidGrid(damage.reason) }
    let grid = try CurvilinearGrid(
      width: header.width, height: header.height, latitudes: latitudes, longitudes: longitudes)
    let projection = try? MapProjection(
      wrfCode: Int(header.projection.code), parameters: header.projection.parameters, grid: grid)
    if let trusted = try trustedLocator(file, grid: grid, projection: projection) { return trusted }
    // A cube can be crafted: refuse the coordinates ingest refuses, before any locator
    // indexes them.
    try grid.validate()
    // The header's projection is only the source's claim: the locator checks it against
    // every cell and falls back to the generic locator when it does not hold.
    return try GridLocator(grid: grid, projection: projection)
  }

  /// The locator a version 3 cube's record vouches for, built without looking at every
  /// cell: ingest checked the grid (and, with bit 0, the projection against every cell)
  /// before it wrote the record, and the record and index are covered by the cube's
  /// checksums. The index's kind when the cube has one (a grid that does not move), else
  /// the projection's analytic locator when bit 0 is set, for every position of a moving
  /// grid too, each anchored on its own first cell; nil (build and check as before)
  /// whenever the record vouches for nothing this build can use. A locator index that does
  /// not decode is an error naming it.
  private static func trustedLocator(
    _ file: CubeFile, grid: CurvilinearGrid, projection: MapProjection?
  ) throws(GeometryError) -> GridLocator? {
    if file.positionCount == 1, let range = file.locatorIndexRange {
      let decoded: Result<LocatorIndex, GeometryError>
      do {
        // Its blocks verified first, as any read of the cube's bytes.
        decoded = try file.withVerifiedBytes(range) { raw in
          Result { () throws(GeometryError) in try LocatorIndex(decoding: raw, width: grid.width, height: grid.height) }
        }
      } catch {
        throw .invalidGrid(error.reason)
      }
      if let locator = GridLocator(grid: grid, index: try decoded.get(), projection: projection) { return locator }
    }
    guard file.projectionChecked, let projection else { return nil }
    return GridLocator(grid: grid, trusting: projection)
  }

  /// The header: shape, time axis, identity, metrics.
  public var header: CubeHeader { file.header }

  /// `model/domain`, as answers and errors name a cube.
  public var name: String { "\(header.model)/\(header.domain)" }

  /// `model/domain run (width×height)`, as errors about handles name a cube, e.g.
  /// `wrf/d01 2026062000 (135×80)`.
  public var label: String { Self.label(header) }

  private static func label(_ header: CubeHeader) -> String {
    "\(header.model)/\(header.domain) \(UTC.runIdentifier(header.runStart)) (\(header.width)×\(header.height))"
  }

  /// The valid time of step `index`.
  public func time(ofStep index: Int) -> Int64 { firstTime + Int64(index) * stepLength }

  /// The valid time of the last step.
  public var lastTime: Int64 { time(ofStep: stepCount - 1) }

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

  private static func resolve(_ metric: Metric, slots: [String: Int], maker: CubeIdentity) -> QueryMetric {
    func stored(_ name: Metric) -> QueryMetric.Source { slots[name.name].map { .stored($0) } ?? .absent }
    let source: QueryMetric.Source
    switch metric.origin {
    case .stored:
      source = stored(metric)
    case .windComponents:
      if let u = slots[Metric.windU.name], let v = slots[Metric.windV.name] {
        source = metric == .windVel ? .windSpeed(u: u, v: v) : .windDirection(u: u, v: v)
      } else {
        source = .absent
      }
    case .solarPosition:
      source = .sunUp
    case .timeLaggedMembers:
      // One cube is one member: its own neighbourhood share. `PointSources` averages the
      // members when the store holds more runs.
      source = stored(.precipitationNeighbourhood)
    }
    return QueryMetric(metric: metric, source: source, maker: maker)
  }

  /// Throws `foreignHandle` unless this cube made `location`. Every public read that takes
  /// a location checks it first: its indices are only within this cube's grid when this
  /// cube computed them.
  @inlinable
  func check(_ location: PointLocation) throws(QueryError) {
    guard location.maker.value == identity.value else { throw foreign("location", made: location.maker) }
  }

  /// Throws `foreignHandle` unless this cube resolved `metric`: its slots index this
  /// cube's metric table and no other.
  @inlinable
  func check(_ metric: QueryMetric) throws(QueryError) {
    guard metric.maker.value == identity.value else { throw foreign("metric", made: metric.maker) }
  }

  /// The error for a handle made by `maker`, kept out of line: the lookup path only
  /// compares two integers.
  @usableFromInline
  @inline(never)
  func foreign(_ handle: String, made maker: CubeIdentity) -> QueryError {
    .foreignHandle(handle, madeBy: maker.label, usedWith: label)
  }

  /// The catalogue metrics this cube cannot answer, found once: answers name them, per
  /// request, without resolving every metric again.
  public var absentMetrics: [Metric] { absent }

  /// The kind of input the cube was derived from; nil where it records none (cubes
  /// written before it did) or one this build does not know.
  public var inputConvention: InputConvention? { InputConvention(rawValue: header.inputConvention) }

  /// Why this cube cannot answer `metric`, in its input's names (GRIB parameters for a
  /// GRIB run).
  public func absenceReason(_ metric: Metric) -> String {
    metric.absenceReason(amongAbsent: absent, convention: inputConvention)
  }

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
    try locate(latitude: latitude, longitude: longitude, method: method, inliningDispatch: true) { _ in }
  }

  /// One value at a latitude, longitude and time: `locate` then `value`, but the data the
  /// value needs is fetched from memory for each candidate cell while the locator is still
  /// choosing between them, which hides most of a cache miss in a large cube.
  @inlinable
  public func value(
    _ metric: QueryMetric, latitude: Double, longitude: Double, time: Int64, method: InterpolationMethod
  ) throws(QueryError) -> Double? {
    try check(metric)
    guard time >= firstTime, time <= firstTime + Int64(stepCount - 1) * stepLength else {
      throw .timeOutsideRun(time: time, run: run, first: firstTime, last: lastTime)
    }
    // Out of line, so that a fixed grid's path stays as it was.
    if isMoving { return try movingValue(metric, latitude: latitude, longitude: longitude, time: time, method: method) }
    let step = min(Int(Double(time - firstTime) * inverseStep), stepCount - 1)
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
    let addRows = method == .bilinear && fetchesQuadRows
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
    return try read(metric, at: location, time: time)
  }

  /// `locate(latitude:longitude:method:)` calling `prefetch` with candidate cells. With
  /// `inliningDispatch` (a constant at each call, folded once this is inlined), the
  /// locator's dispatch is inlined here too; see `GridLocator.inlinedNearestCell`.
  @inlinable @inline(__always)
  func locate(
    latitude: Double, longitude: Double, method: InterpolationMethod, inliningDispatch: Bool = false,
    prefetch: (Int) -> Void
  ) throws(QueryError) -> PointLocation {
    #if DEBUG
      locateCount.add(1, ordering: .relaxed)
    #endif
    guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, longitude >= -180, longitude <= 360 else {
      throw .invalidCoordinate(latitude: latitude, longitude: longitude)
    }
    if isMoving { return try locateMoving(latitude: latitude, longitude: longitude, method: method) }
    switch method {
    case .nearest:
      let found =
        inliningDispatch
        ? locator.inlinedNearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
        : locator.nearestCell(latitude: latitude, longitude: longitude, prefetch: prefetch)
      guard let (i, j) = found else {
        throw .outsideDomain(latitude: latitude, longitude: longitude, domains: [header.domain], hint: nil)
      }
      return nearestLocation(i: i, j: j, latitudes: latitudes, longitudes: longitudes)
    case .bilinear:
      let found =
        inliningDispatch
        ? locator.inlinedPosition(latitude: latitude, longitude: longitude, prefetch: prefetch)
        : locator.position(latitude: latitude, longitude: longitude, prefetch: prefetch)
      guard let position = found else {
        throw .outsideDomain(latitude: latitude, longitude: longitude, domains: [header.domain], hint: nil)
      }
      return bilinearLocation(position, latitudes: latitudes, longitudes: longitudes, wrapsLongitude: wrapsLongitude)
    }
  }

  /// The location of nearest cell (i, j) in the position whose cell coordinates are
  /// `latitudes`/`longitudes`: one construction for every position of every grid.
  @inlinable @inline(__always)
  func nearestLocation(i: Int, j: Int, latitudes: [Float], longitudes: [Float]) -> PointLocation {
    let cell = j * width + i
    return PointLocation(
      maker: identity, i: i, j: j, width: width, latitude: Double(latitudes[cell]),
      longitude: Self.signedLongitude(longitudes[cell]), method: .nearest)
  }

  /// The location of a bilinear `position` in the position whose cell coordinates are
  /// `latitudes`/`longitudes`; `wrapsLongitude` when that grid closes around the globe.
  @inlinable @inline(__always)
  func bilinearLocation(
    _ position: GridPosition, latitudes: [Float], longitudes: [Float], wrapsLongitude: Bool
  ) -> PointLocation {
    let cell = position.j * width + position.i
    let stencil = BilinearStencil(position: position, width: width, height: height, wrapsLongitude: wrapsLongitude)
    return PointLocation(
      maker: identity, i: position.i, j: position.j, width: width, latitude: Double(latitudes[cell]),
      longitude: Self.signedLongitude(longitudes[cell]), method: .bilinear, southWest: stencil.southWest,
      eastStep: stencil.eastStep, fx: stencil.fx, fy: stencil.fy)
  }

  /// The value of `metric` at a located point and any time inside the run: linear in time
  /// between steps for instantaneous fields, the covering interval's amount for hourly
  /// amounts, and wind through its u/v components. nil when the value is missing.
  /// `foreignHandle` when another cube made `metric` or `location`.
  @inlinable
  public func value(_ metric: QueryMetric, at location: PointLocation, time: Int64) throws(QueryError) -> Double? {
    try check(metric)
    try check(location)
    return try read(metric, at: location, time: time)
  }

  /// `value(_:at:time:)` for handles this cube made.
  @inlinable
  func read(_ metric: QueryMetric, at location: PointLocation, time: Int64) throws(QueryError) -> Double? {
    let value = try readValue(metric, at: location, time: time)
    // A block that failed verification reads as missing: an error, never a silent gap.
    try checkIntact()
    return value
  }

  /// Throws `unreadableCube` naming the block when a read of this cube met a block that
  /// failed verification (`CubeFile.isDamaged`): its values read as missing, which must not
  /// pass for a missing value. One load on the lookup path.
  @inlinable @inline(__always)
  public func checkIntact() throws(QueryError) {
    if file.isDamaged { throw damaged() }
  }

  /// The error for a damaged cube, kept out of line.
  @usableFromInline
  @inline(never)
  func damaged() -> QueryError {
    .unreadableCube(file.damage?.description ?? "\(file.path): corrupted: a block did not match its checksum")
  }

  /// `read` without the check for damage.
  @inlinable
  func readValue(_ metric: QueryMetric, at location: PointLocation, time: Int64) throws(QueryError) -> Double? {
    guard time >= firstTime, time <= firstTime + Int64(stepCount - 1) * stepLength else {
      throw .timeOutsideRun(time: time, run: run, first: firstTime, last: lastTime)
    }
    let elapsed = time - firstTime
    // The estimate can be one off by rounding; the integer fix-up makes the split exact.
    var step = Int(Double(elapsed) * inverseStep)
    var remainder = elapsed - Int64(step) * stepLength
    if remainder < 0 {
      step -= 1
      remainder += stepLength
    } else if remainder >= stepLength {
      step += 1
      remainder -= stepLength
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
      if location.isMoving { return movingIsDay(location, step: step, remainder: remainder, time: time) }
      return SolarEvents.isDay(latitude: location.latitude, longitude: location.longitude, at: time) ? 1 : 0
    case .absent:
      return nil
    }
  }

  @inlinable
  func temporal(_ slot: Int, step: Int, remainder: Int64, _ location: PointLocation) -> Double? {
    if location.isMoving { return movingTemporal(slot, step: step, remainder: remainder, location) }
    guard location.method == .nearest || categorical[slot] else {
      return between(slot, step: step, remainder: remainder) { spatial(slot, step: $0, location) }
    }
    // One cell: its entry is read once for both steps.
    let words = file.series(metric: slot, cell: location.cell)
    let decoding = decodings[slot]
    return between(slot, step: step, remainder: remainder) { step in
      let word = words.word(step)
      return word == CubeMetric.missing ? nil : decoding.value(word)
    }
  }

  /// The value `remainder` seconds after step `step`, from `value(step)`: linear in time
  /// for instants; for hourly amounts and categories the interval's own, which ends at the
  /// next step.
  @inlinable @inline(__always)
  func between(_ slot: Int, step: Int, remainder: Int64, _ value: (Int) -> Double?) -> Double? {
    if remainder == 0 { return value(step) }
    if hourlyAmount[slot] { return value(step + 1) }
    guard let before = value(step), let after = value(step + 1) else { return nil }
    return before + (after - before) * (Double(remainder) / Double(stepLength))
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
