import CubeFormat
import GridGeometry
import Meteorology

extension Cube {
  /// How many positions the grid takes during the run: 1 unless it moves (a
  /// vortex-following nest), when each step names its own (`position(ofStep:)`).
  public var positionCount: Int { locators.count }

  /// The position of the grid at step `step` (in `0..<stepCount`): 0 for a grid that does
  /// not move.
  public func position(ofStep step: Int) -> Int { isMoving ? stepPositions[step] : 0 }

  /// The locator over the coordinates of position `position` (in `0..<positionCount`).
  public func locator(position: Int) -> GridLocator { locators[position] }

  /// Makes the per-cell tables that locators built on a version 3 cube's word leave out
  /// (`GridLocator.prepareTables()`), so that lookups cost what they cost on a checked
  /// locator: a pass over the cells, for a long-running reader to make off its request
  /// path (the server's refresh does). Nothing when they exist; a one-off reader (the
  /// command line's query) never needs it.
  public func prepareLocators() {
    for locator in locators { locator.prepareTables() }
  }

  /// Whether the point `location` was made for lies in the grid at `step`: always, for a
  /// cube that does not move; false for a step outside the run or a location another cube
  /// made.
  public func contains(_ location: PointLocation, step: Int) -> Bool {
    guard location.maker.value == identity.value, (0..<stepCount).contains(step) else { return false }
    return place(location, position: position(ofStep: step)) != nil
  }

  /// The maximal stretches of steps at which the point `location` was made for lies in the
  /// grid, in order: the whole run for a cube that does not move; none for a location
  /// another cube made.
  public func coveredSteps(_ location: PointLocation) -> [Range<Int>] {
    guard location.maker.value == identity.value else { return [] }
    guard location.isMoving else { return [0..<stepCount] }
    let inside = stepsHolding(location)
    return Self.stretches(stepCount) { inside[$0] }
  }

  /// The stretches of steps at which this cube answers for the point in a catalog
  /// (`RunCatalog.sources`): those of `coveredSteps`, less, in a grid that moves, every
  /// step whose hour began with the point outside the grid (the step an hour earlier, or
  /// the run's first step within its first hour: the step ingest subtracts accumulations
  /// from). There the nest's hourly amounts and weather code are missing, since the place
  /// had no earlier accumulation in the nest (docs/inputs.md), so the parent domain
  /// answers that whole hour rather than a nest answer with holes in it.
  public func answeringSteps(_ location: PointLocation) -> [Range<Int>] {
    guard location.maker.value == identity.value else { return [] }
    guard location.isMoving else { return [0..<stepCount] }
    let inside = stepsHolding(location)
    return Self.stretches(stepCount) { inside[$0] && inside[hourBefore(step: $0)] }
  }

  /// The step an hour before `step` (at least one step before it), or the run's first step
  /// within the run's first hour: the step whose accumulation ingest subtracts from
  /// `step`'s (`HourlyInterval`). A moving grid answers for a place at `step` only if it
  /// held the place then too (`answeringSteps`).
  public func hourBefore(step: Int) -> Int { HourlyInterval.earlierStep(of: step, stepSeconds: stepLength) }

  /// Whether each step's position holds the point of a moving grid's `location`; each
  /// position is asked once.
  private func stepsHolding(_ location: PointLocation) -> [Bool] {
    let holds = locators.indices.map { place(location, position: $0) != nil }
    return stepPositions.map { holds[$0] }
  }

  /// The maximal stretches of `0..<count` at whose steps `included` holds, in order.
  private static func stretches(_ count: Int, _ included: (Int) -> Bool) -> [Range<Int>] {
    var stretches: [Range<Int>] = []
    var start: Int?
    for step in 0..<count {
      let inside = included(step)
      if inside, start == nil { start = step }
      if !inside, let first = start {
        stretches.append(first..<step)
        start = nil
      }
    }
    if let first = start { stretches.append(first..<count) }
    return stretches
  }

  /// `location` as it lies at step `step`: its public cell, coordinates and indices those
  /// of the step's position. `location` itself for a grid that does not move; nil when the
  /// point is outside the grid at that step, the step is outside the run, or another cube
  /// made `location`.
  public func location(_ location: PointLocation, atStep step: Int) -> PointLocation? {
    guard location.maker.value == identity.value, (0..<stepCount).contains(step) else { return nil }
    guard location.isMoving else { return location }
    let position = stepPositions[step]
    return place(location, position: position).map {
      PointLocation(
        following: location.following, anchor: position, here: $0, selection: location.selection,
        latitude: location.pointLatitude, longitude: location.pointLongitude)
    }
  }

  /// `location` pinned to the position of step `step`: a location that reads the point's
  /// cell (or stencil) in that position at every step, without locating it again, for a
  /// reader of several steps that all share that position (the forecast's segments, which
  /// are cut where the grid moves). Read at a step of another position, it would answer
  /// from the wrong place: hence `package`, not public. `location` itself on a grid that
  /// does not move; nil where the position does not hold the point or another cube made
  /// `location`.
  package func pinned(_ location: PointLocation, atStep step: Int) -> PointLocation? {
    guard location.maker.value == identity.value, (0..<stepCount).contains(step) else { return nil }
    return place(location, position: position(ofStep: step))
  }

  /// Where a point falls in a moving grid. `outsideDomain` when no position holds it; the
  /// location's public fields are those of the first step that does (positions are
  /// numbered in order of first use, so that is the lowest position holding it).
  @usableFromInline
  @inline(never)
  func locateMoving(
    latitude: Double, longitude: Double, method: InterpolationMethod
  ) throws(QueryError)
    -> PointLocation
  {
    for position in locators.indices {
      guard let here = located(latitude: latitude, longitude: longitude, method: method, position: position) else {
        continue
      }
      return PointLocation(
        following: .point, anchor: position, here: here, selection: .nearest, latitude: latitude,
        longitude: longitude)
    }
    throw .outsideDomain(latitude: latitude, longitude: longitude, domains: [header.domain], hint: nil)
  }

  /// The point's cell (or bilinear stencil) in one position, nil when the position does not
  /// hold it: the one-position `locate` over that position's locator and coordinates.
  func located(latitude: Double, longitude: Double, method: InterpolationMethod, position: Int) -> PointLocation? {
    let locator = locators[position]
    let (latitudes, longitudes) = (locator.grid.latitudes, locator.grid.longitudes)
    switch method {
    case .nearest:
      guard let (i, j) = locator.nearestCell(latitude: latitude, longitude: longitude, prefetch: { _ in }) else {
        return nil
      }
      return nearestLocation(i: i, j: j, latitudes: latitudes, longitudes: longitudes)
    case .bilinear:
      guard let found = locator.position(latitude: latitude, longitude: longitude, prefetch: { _ in }) else {
        return nil
      }
      return bilinearLocation(found, latitudes: latitudes, longitudes: longitudes, wrapsLongitude: locator.isGlobal)
    }
  }

  /// The location, as a one-position location to read with, of `location`'s point in
  /// position `position`: `location` itself on a grid that does not move (and in its own
  /// anchor position); the point located there, its cell selection applied, otherwise. nil
  /// when that position does not hold the point.
  @usableFromInline
  func place(_ location: PointLocation, position: Int) -> PointLocation? {
    switch location.following {
    case .fixed:
      return location
    case .index:
      let grid = locators[position].grid
      return PointLocation(
        maker: identity, i: location.i, j: location.j, width: width, latitude: Double(grid.latitudes[location.cell]),
        longitude: Self.signedLongitude(grid.longitudes[location.cell]), method: .nearest)
    case .point:
      guard
        let here = located(
          latitude: location.pointLatitude, longitude: location.pointLongitude, method: location.method,
          position: position)
      else { return nil }
      guard location.selection != .nearest else { return here }
      return select(
        location.selection, latitude: location.pointLatitude, longitude: location.pointLongitude, from: here,
        position: position)
    }
  }

  /// `value(_:latitude:longitude:time:method:)` on a moving grid: the point located, then
  /// read. Out of line, so that a fixed grid's path stays as it was.
  @usableFromInline
  @inline(never)
  func movingValue(
    _ metric: QueryMetric, latitude: Double, longitude: Double, time: Int64, method: InterpolationMethod
  ) throws(QueryError) -> Double? {
    try read(metric, at: locate(latitude: latitude, longitude: longitude, method: method), time: time)
  }

  /// `temporal` on a moving grid: each step read at the point's own cells in that step's
  /// position, so that between two positions the values are interpolated, never the
  /// indices; missing where a step's position does not hold the point.
  @usableFromInline
  @inline(never)
  func movingTemporal(_ slot: Int, step: Int, remainder: Int64, _ location: PointLocation) -> Double? {
    between(slot, step: step, remainder: remainder) { step in
      place(location, position: stepPositions[step]).flatMap { spatial(slot, step: step, $0) }
    }
  }

  /// Whether the sun is up at a point of a moving grid, at its cell in the position of
  /// step `step`: nil unless that position holds the point and, for a time `remainder`
  /// seconds past the step, the next step's does too (an instant between two steps needs
  /// both).
  @usableFromInline
  @inline(never)
  func movingIsDay(_ location: PointLocation, step: Int, remainder: Int64, time: Int64) -> Double? {
    guard let here = place(location, position: stepPositions[step]) else { return nil }
    guard remainder == 0 || place(location, position: stepPositions[step + 1]) != nil else { return nil }
    return SolarEvents.isDay(latitude: here.latitude, longitude: here.longitude, at: time) ? 1 : 0
  }

  /// Calls `body` with each stretch of `range` whose steps share a position, and the point
  /// in that position (nil where it does not hold the point): one locator lookup per
  /// stretch, not per step.
  @usableFromInline
  func forEachStretch(
    of location: PointLocation, in range: Range<Int>, _ body: (Range<Int>, PointLocation?) -> Void
  ) {
    var start = range.lowerBound
    while start < range.upperBound {
      let position = stepPositions[start]
      var end = start + 1
      while end < range.upperBound, stepPositions[end] == position { end += 1 }
      body(start..<end, place(location, position: position))
      start = end
    }
  }
}
