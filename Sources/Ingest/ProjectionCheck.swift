import CubeFormat
import GridGeometry

/// The check ingest makes of a domain's recorded map projection against its cell
/// coordinates, the same one a cube reader makes before it locates points through the
/// projection: so that an operator learns at ingest, not from slower queries, that the
/// analytic locator will not be used, and why.
///
/// The cube keeps the source's projection either way (see docs/cube-format.md): it is
/// provenance, and readers check it themselves.
enum ProjectionCheck {
  /// The names a convention gives the projection code and the cell coordinates.
  struct Names {
    let code: String
    let coordinates: String

    static func of(_ convention: Convention) -> Names {
      switch convention {
      case .wrf, .auto: Names(code: "MAP_PROJ", coordinates: "XLAT/XLONG")
      case .mm5: Names(code: "map_proj_code", coordinates: "latitcrs/longicrs")
      case .cf: Names(code: "projection", coordinates: "the latitude/longitude coordinates")
      }
    }
  }

  /// A projection code as a cube stores it: 0 (unknown) unless the attribute holds a whole
  /// number that fits.
  static func code(_ value: Double?) -> UInt32 {
    value.flatMap { UInt32(exactly: $0) } ?? 0
  }

  /// Why the plan's projection cannot locate points on its grid, as a warning naming the
  /// file; nil when it can, when no projection is recorded, or when the grid is a regular
  /// latitude/longitude lattice, which has a locator of its own. A moving grid's every
  /// position is checked, as a reader checks each before it locates points in it; the
  /// first that fails is named.
  static func warning(for plan: IngestPlan, names: Names) -> String? {
    guard let motion = plan.motion else {
      return warning(for: plan, latitudes: plan.latitudes, longitudes: plan.longitudes, names: names)
    }
    for (index, position) in motion.positions.enumerated() {
      if let warning = warning(
        for: plan, latitudes: position.latitudes, longitudes: position.longitudes, names: names)
      {
        return index == 0 ? warning : "grid position \(index): \(warning)"
      }
    }
    return nil
  }

  /// Whether the plan's projection (its code and parameters) locates every cell of every
  /// position of its grid within `AnalyticLocator.tolerance`: what a version 3 cube's
  /// record says (geometry flag bit 0), so that a reader builds the analytic locator
  /// without checking the cells again.
  static func locatesEveryCell(_ plan: IngestPlan) -> Bool {
    let positions =
      plan.motion?.positions.map { ($0.latitudes, $0.longitudes) } ?? [(plan.latitudes, plan.longitudes)]
    return positions.allSatisfy { latitudes, longitudes in
      guard
        let grid = try? CurvilinearGrid(
          width: plan.width, height: plan.height, latitudes: latitudes, longitudes: longitudes)
      else { return false }
      return problem(for: plan, grid: grid, names: .of(.wrf)) == nil
    }
  }

  /// The locator index a version 3 cube of a grid that does not move stores (record
  /// geometry flag bit 1): its locator built and checked against every cell once, here,
  /// so that a reader maps it rather than building it again; nil for a moving grid, or a
  /// grid that gets the generic curvilinear locator (`LocatorIndex.encode`).
  static func locatorIndex(for plan: IngestPlan) -> [UInt8]? {
    guard plan.motion == nil,
      let grid = try? CurvilinearGrid(
        width: plan.width, height: plan.height, latitudes: plan.latitudes, longitudes: plan.longitudes)
    else { return nil }
    let projection =
      plan.projection.code == 0
      ? nil
      : try? MapProjection(wrfCode: Int(plan.projection.code), parameters: plan.projection.parameters, grid: grid)
    return LocatorIndex.encode(grid: grid, projection: projection)
  }

  private static func warning(
    for plan: IngestPlan, latitudes: [Float], longitudes: [Float], names: Names
  ) -> String? {
    guard plan.projection.code != 0,
      let grid = try? CurvilinearGrid(
        width: plan.width, height: plan.height, latitudes: latitudes, longitudes: longitudes),
      RegularLatLonLocator(grid: grid) == nil
    else { return nil }
    return problem(for: plan, grid: grid, names: names)
  }

  /// Why the plan's projection does not locate every cell of `grid`; nil when it does.
  private static func problem(for plan: IngestPlan, grid: CurvilinearGrid, names: Names) -> String? {
    let path = plan.steps[0].path
    let code = Int(plan.projection.code)
    let fallback = "queries use the generic locator"
    guard plan.projection.code != 0 else { return "\(path): no projection is recorded; \(fallback)" }
    guard let kind = MapProjection.Kind(rawValue: code) else {
      return "\(path): \(names.code) \(code) is not a projection with an analytic mapping (1, 2, 3 or 6); \(fallback)"
    }
    let projection: MapProjection
    do {
      projection = try MapProjection(wrfCode: code, parameters: plan.projection.parameters, grid: grid)
    } catch {
      return "\(path): \(names.code) \(code) (\(kind.name)): \(reason(error)); \(fallback)"
    }
    let worst = projection.largestMismatch(on: grid)
    guard worst.cells <= AnalyticLocator.tolerance else {
      return
        "\(path): \(names.code) \(code) (\(kind.name)) disagrees with \(names.coordinates) by \(AnalyticLocator.cells(worst.cells)) at (\(worst.i), \(worst.j)); \(fallback)"
    }
    do {
      _ = try AnalyticLocator(grid: grid, projection: projection)
      return nil
    } catch {
      return "\(path): \(reason(error)); \(fallback)"
    }
  }

  private static func reason(_ error: GeometryError) -> String {
    switch error {
    case .projectionRejected(let reason), .invalidGrid(let reason): reason
    }
  }
}
