import CubeFormat
import NetCDF

/// WRF-ARW wrfout files: `Times`, XLAT/XLONG mass points, the surface fields of DESIGN §3.
enum WRFConvention {
  /// One plan per domain (GRID_ID) of the files.
  static func plans(_ paths: [String]) throws(IngestError) -> [IngestPlan] {
    var plans: [IngestPlan] = []
    for inventory in try WRFInventory.scan(paths) {
      plans.append(try plan(inventory))
    }
    return plans
  }

  private static func plan(_ inventory: WRFInventory) throws(IngestError) -> IngestPlan {
    let reader = WRFFieldReader(width: inventory.width, height: inventory.height)
    let first = inventory.steps[0]
    let latitudes = try reader.field("XLAT", at: first).map(Float.init)
    let longitudes = try reader.field("XLONG", at: first).map(Float.init)
    var derivation = try WRFDerivation(
      DerivationInput(
        available: Set(inventory.variables.keys), attributes: inventory.globalAttributes,
        stepSeconds: inventory.stepSeconds, startsAtRunStart: inventory.startsAtRunStart,
        label: inventory.firstPath),
      longitudes: longitudes)
    let attributes = inventory.globalAttributes
    return IngestPlan(
      domain: inventory.domain, steps: inventory.steps, stepSeconds: inventory.stepSeconds,
      runStart: inventory.runStart, width: inventory.width, height: inventory.height, latitudes: latitudes,
      longitudes: longitudes,
      projection: CubeProjection(
        code: ProjectionCheck.code(attributes["MAP_PROJ"]?.number),
        parameters: ["TRUELAT1", "TRUELAT2", "STAND_LON", "CEN_LAT", "CEN_LON", "POLE_LAT", "POLE_LON", "DX"]
          .map { attributes[$0]?.number ?? .nan }),
      gridSpacing: attributes["DX"]?.number ?? 0, metrics: derivation.metrics, warnings: derivation.warnings,
      derive: { (step) throws(IngestError) in try derivation.derive(step, reader: reader) })
  }
}
