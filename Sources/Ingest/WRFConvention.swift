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
    let reference = try grid(at: inventory.steps[0], reader: reader)
    _ = try reference.validated()
    try requireOneGrid(inventory, reference: reference, reader: reader)
    let (latitudes, longitudes) = (reference.latitudes, reference.longitudes)
    let derivation = try WRFDerivation(
      DerivationInput(
        available: Set(inventory.variables.keys), attributes: inventory.globalAttributes,
        stepSeconds: inventory.stepSeconds, startsAtRunStart: inventory.startsAtRunStart,
        label: inventory.firstPath),
      longitudes: longitudes)
    let attributes = inventory.globalAttributes
    let terrain = try terrain(inventory, reader: reader)
    return IngestPlan(
      domain: inventory.domain, steps: inventory.steps, stepSeconds: inventory.stepSeconds,
      runStart: inventory.runStart, width: inventory.width, height: inventory.height, latitudes: latitudes,
      longitudes: longitudes,
      projection: CubeProjection(
        code: ProjectionCheck.code(attributes["MAP_PROJ"]?.number),
        parameters: ["TRUELAT1", "TRUELAT2", "STAND_LON", "CEN_LAT", "CEN_LON", "POLE_LAT", "POLE_LON", "DX"]
          .map { attributes[$0]?.number ?? .nan }),
      gridSpacing: attributes["DX"]?.number ?? 0, metrics: derivation.metrics,
      warnings: derivation.warnings + terrain.warnings, terrain: terrain.terrain, levels: inventory.levels,
      screen: derivation.screen,
      derive: { [steps = inventory.steps] (index) throws(IngestError) in
        try derivation.derive(index, of: steps, reader: reader)
      })
  }

  /// HGT and LANDMASK (else XLAND, 1 land and 2 water) at the first step.
  private static func terrain(
    _ inventory: WRFInventory, reader: WRFFieldReader
  ) throws(IngestError) -> (terrain: CubeTerrain?, warnings: [String]) {
    let first = inventory.steps[0]
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

  /// Refuses a run whose files, or steps when XLAT has a Time dimension, do not share the
  /// first step's grid. Reads two fields per step (per file without a Time dimension), one
  /// step at a time.
  private static func requireOneGrid(
    _ inventory: WRFInventory, reference: InputGrid, reader: WRFFieldReader
  ) throws(IngestError) {
    let perStep = inventory.variables["XLAT"]?.dimensions.first == "Time"
    var seen: Set<String> = [reference.path]
    for step in inventory.steps.dropFirst() where perStep || !seen.contains(step.path) {
      seen.insert(step.path)
      try grid(at: step, reader: reader).requireSame(as: reference, step: perStep ? step : nil)
    }
  }
}
