import CubeFormat
import NetCDF

/// WRF-ARW wrfout files: `Times`, XLAT/XLONG mass points, the surface fields of DESIGN §3.
enum WRFConvention {
  /// One plan per domain (GRID_ID) of the files.
  /// Each domain's grid is checked against `maxMemory` (`IngestCost`) before its
  /// coordinates are read.
  static func plans(
    _ paths: [String], maxMemory: Int = IngestCost.defaultMaxMemory()
  ) throws(IngestError) -> [IngestPlan] {
    var plans: [IngestPlan] = []
    for inventory in try WRFInventory.scan(paths) {
      try IngestCost.requireGrid(
        width: inventory.width, height: inventory.height, steps: inventory.steps.count, levels: inventory.levels,
        maxMemory: maxMemory, path: inventory.firstPath)
      plans.append(try plan(inventory))
    }
    return plans
  }

  private static func plan(_ inventory: WRFInventory) throws(IngestError) -> IngestPlan {
    let reader = WRFFieldReader(width: inventory.width, height: inventory.height, inputs: inventory.inputs)
    let placed = try positions(inventory, reader: reader)
    let (latitudes, longitudes) = (placed.grids[0].latitudes, placed.grids[0].longitudes)
    var terrains: [(terrain: CubeTerrain?, warnings: [String])] = []
    for position in placed.tracker.positions {
      terrains.append(try terrain(inventory, reader: reader, at: inventory.steps[position.firstStep]))
    }
    let motion =
      placed.grids.count > 1
      ? GridMotion(
        width: inventory.width, height: inventory.height,
        positions: zip(placed.grids, zip(placed.tracker.positions, terrains)).map { grid, position in
          GridMotion.Position(
            latitudes: grid.latitudes, longitudes: grid.longitudes, terrain: position.1.terrain,
            offset: position.0.offset)
        }, stepPositions: placed.tracker.stepPositions) : nil
    let derivation = try WRFDerivation(
      DerivationInput(
        available: Set(inventory.variables.keys), attributes: inventory.globalAttributes,
        stepSeconds: inventory.stepSeconds, startsAtRunStart: inventory.startsAtRunStart,
        label: inventory.firstPath),
      longitudes: placed.grids.map(\.longitudes), motion: motion)
    let attributes = inventory.globalAttributes
    var warnings = derivation.warnings + terrains[0].warnings
    if let warning = placed.warning { warnings.append(warning) }
    if let motion { warnings += derivation.movingWarnings(motion, domain: inventory.domain, steps: inventory.steps) }
    return IngestPlan(
      domain: inventory.domain, steps: inventory.steps, stepSeconds: inventory.stepSeconds,
      runStart: inventory.runStart, width: inventory.width, height: inventory.height, latitudes: latitudes,
      longitudes: longitudes,
      projection: CubeProjection(
        code: ProjectionCheck.code(attributes["MAP_PROJ"]?.number),
        parameters: ["TRUELAT1", "TRUELAT2", "STAND_LON", "CEN_LAT", "CEN_LON", "POLE_LAT", "POLE_LON", "DX"]
          .map { attributes[$0]?.number ?? .nan }),
      gridSpacing: attributes["DX"]?.number ?? 0, metrics: derivation.metrics,
      warnings: warnings, terrain: terrains[0].terrain, levels: inventory.levels,
      screen: derivation.screen,
      derive: { [steps = inventory.steps] (index, band) throws(IngestError) in
        try derivation.derive(index, of: steps, band: band, reader: reader)
      }, motion: motion)
  }

  /// The positions of the domain's grid (`GridPositions`): XLAT/XLONG read at every step
  /// when they have a Time dimension (a moving nest's do), else once per file; and the
  /// warning naming the largest offset within the tolerance, if any.
  private static func positions(
    _ inventory: WRFInventory, reader: WRFFieldReader
  ) throws(IngestError) -> (tracker: GridPositions, grids: [InputGrid], warning: String?) {
    let perStep = inventory.variables["XLAT"]?.dimensions.first == "Time"
    var tracker = GridPositions()
    var last: InputGrid?
    for step in inventory.steps {
      let current: InputGrid
      if !perStep, let last, last.path == step.path {
        current = last
      } else {
        current = try grid(at: step, reader: reader)
      }
      last = current
      try tracker.add(current, step: step)
    }
    let (grids, warning) = try tracker.finished(steps: inventory.steps) { (index) throws(IngestError) in
      try grid(at: inventory.steps[index], reader: reader)
    }
    return (tracker, grids, warning)
  }

  /// HGT and LANDMASK (else XLAND, 1 land and 2 water) at a step (the first of its
  /// position: a moving nest's terrain moves with it).
  private static func terrain(
    _ inventory: WRFInventory, reader: WRFFieldReader, at first: StepSource
  ) throws(IngestError) -> (terrain: CubeTerrain?, warnings: [String]) {
    let has = { (name: String) in inventory.variables[name] != nil }
    var landFraction: [Double]?
    if has("LANDMASK") {
      landFraction = try reader.field("LANDMASK", at: first)
    } else if has("XLAND") {
      // XLAND is 1 over land and 2 over water: land where it is below 1.5.
      landFraction = try reader.field("XLAND", at: first).map { $0.isFinite ? ($0 < 1.5 ? 1 : 0) : .nan }
    }
    return TerrainInput(
      heights: has("HGT") ? try reader.field("HGT", at: first) : nil, landFraction: landFraction,
      path: first.path, heightNames: "HGT", maskNames: "LANDMASK or XLAND"
    ).terrain(cells: inventory.width * inventory.height)
  }

  /// XLAT/XLONG at a step.
  private static func grid(at step: StepSource, reader: WRFFieldReader) throws(IngestError) -> InputGrid {
    InputGrid(
      path: step.path, variables: "XLAT/XLONG", width: reader.width, height: reader.height,
      latitudes: try reader.field("XLAT", at: step).map(Float.init),
      longitudes: try reader.field("XLONG", at: step).map(Float.init))
  }
}
