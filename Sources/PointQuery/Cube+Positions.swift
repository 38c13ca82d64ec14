import GridGeometry

extension Cube {
  /// How many positions the grid takes during the run: 1 unless it moves (a
  /// vortex-following nest), when each step names its own (`position(ofStep:)`).
  public var positionCount: Int { locators.count }

  /// The position of the grid at step `step` (in `0..<stepCount`): 0 for a grid that does
  /// not move.
  public func position(ofStep step: Int) -> Int { isMoving ? stepPositions[step] : 0 }

  /// The locator over the coordinates of position `position` (in `0..<positionCount`).
  public func locator(position: Int) -> GridLocator { locators[position] }

  /// Whether the point `location` was made for lies in the grid at `step`: always, for a
  /// cube that does not move; false for a step outside the run or a location another cube
  /// made.
  public func contains(_ location: PointLocation, step: Int) -> Bool {
    guard location.maker.value == identity.value, (0..<stepCount).contains(step) else { return false }
    guard let positions = location.positions else { return true }
    return positions[stepPositions[step]] != nil
  }

  /// The maximal stretches of steps at which the point `location` was made for lies in the
  /// grid, in order: the whole run for a cube that does not move; none for a location
  /// another cube made.
  public func coveredSteps(_ location: PointLocation) -> [Range<Int>] {
    guard location.maker.value == identity.value else { return [] }
    guard location.positions != nil else { return [0..<stepCount] }
    var stretches: [Range<Int>] = []
    var start: Int?
    for step in 0..<stepCount {
      let inside = contains(location, step: step)
      if inside, start == nil { start = step }
      if !inside, let first = start {
        stretches.append(first..<step)
        start = nil
      }
    }
    if let first = start { stretches.append(first..<stepCount) }
    return stretches
  }

  /// `location` as it lies at step `step`: its public cell, coordinates and indices those
  /// of the step's position. `location` itself for a grid that does not move; nil when the
  /// point is outside the grid at that step, the step is outside the run, or another cube
  /// made `location`.
  public func location(_ location: PointLocation, atStep step: Int) -> PointLocation? {
    guard contains(location, step: step) else { return nil }
    return location.positions == nil ? location : location.anchored(at: stepPositions[step])
  }

  /// Where a point falls in a moving grid: its cell or stencil in every position, found
  /// with that position's own locator. `outsideDomain` when no position contains it; the
  /// location's public fields are those of the first step that does (positions are
  /// numbered in order of first use, so that is the lowest position containing it).
  @usableFromInline
  @inline(never)
  func locateMoving(
    latitude: Double, longitude: Double, method: InterpolationMethod
  ) throws(QueryError)
    -> PointLocation
  {
    var found: [PointLocation?] = []
    found.reserveCapacity(locators.count)
    var first: Int?
    for position in locators.indices {
      let here = located(latitude: latitude, longitude: longitude, method: method, position: position)
      if here != nil, first == nil { first = position }
      found.append(here)
    }
    guard let first, let here = found[first] else {
      throw .outsideDomain(latitude: latitude, longitude: longitude, domains: [header.domain], hint: nil)
    }
    return PointLocation(positions: found, anchor: first, here: here)
  }

  /// The point's cell (or bilinear stencil) in one position, nil when the position does not
  /// contain it: the one-position `locate` over that position's locator and coordinates.
  func located(latitude: Double, longitude: Double, method: InterpolationMethod, position: Int) -> PointLocation? {
    let locator = locators[position]
    let (latitudes, longitudes) = (locator.grid.latitudes, locator.grid.longitudes)
    switch method {
    case .nearest:
      guard let (i, j) = locator.nearestCell(latitude: latitude, longitude: longitude, prefetch: { _ in }) else {
        return nil
      }
      let cell = j * width + i
      return PointLocation(
        maker: identity, i: i, j: j, width: width, latitude: Double(latitudes[cell]),
        longitude: Self.signedLongitude(longitudes[cell]), method: .nearest)
    case .bilinear:
      guard let found = locator.position(latitude: latitude, longitude: longitude, prefetch: { _ in }) else {
        return nil
      }
      let cell = found.j * width + found.i
      let stencil = BilinearStencil(position: found, width: width, height: height, wrapsLongitude: locator.isGlobal)
      return PointLocation(
        maker: identity, i: found.i, j: found.j, width: width, latitude: Double(latitudes[cell]),
        longitude: Self.signedLongitude(longitudes[cell]), method: .bilinear, southWest: stencil.southWest,
        eastStep: stencil.eastStep, fx: stencil.fx, fy: stencil.fy)
    }
  }

  /// The point in the position of step `step` of a moving grid, when the grid contains it
  /// there and, for a time `remainder` seconds past the step, at the next step too (an
  /// instant between two steps needs both); nil otherwise.
  @usableFromInline
  func placed(_ location: PointLocation, step: Int, remainder: Int64) -> PointLocation? {
    guard let positions = location.positions, let here = positions[stepPositions[step]] else { return nil }
    guard remainder == 0 || positions[stepPositions[step + 1]] != nil else { return nil }
    return here
  }
}
