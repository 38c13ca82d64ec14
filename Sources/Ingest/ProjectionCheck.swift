import CubeFormat
import GridGeometry

/// The check ingest makes of a domain's recorded map projection against its cell
/// coordinates, the same one a cube reader makes before it locates points through the
/// projection: so that an operator learns at ingest, not from slower queries, that the
/// analytic locator will not be used, and why.
///
/// The cube keeps the source's projection either way (see docs/cube-format.md): it is
/// provenance, and readers check it themselves.
///
/// Each grid position is checked once (`check`), and the one outcome feeds the warning,
/// the cube's record that the projection locates every cell, and its locator index: the
/// check projects every cell and every boundary between cells, which was a serial second of
/// a 3 km ingest when each of the three made it again.
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
      case .grib: Names(code: "gridType", coordinates: "the grid's latitudes/longitudes")
      }
    }
  }

  /// What the check of a plan's grid found.
  struct Outcome: Sendable {
    /// Why the plan's projection cannot locate points on its grid, as a warning naming the
    /// file; nil when it can, when no projection is recorded, or when the grid is a regular
    /// latitude/longitude lattice, which has a locator of its own. A moving grid's first
    /// position that fails is named.
    let warning: String?
    /// Whether the projection (its code and parameters) locates every cell of every
    /// position within `AnalyticLocator.tolerance`: what a version 3 cube's record says
    /// (geometry flag bit 0), so that a reader builds the analytic locator without checking
    /// the cells again.
    let locatesEveryCell: Bool
    /// The locator index a version 3 cube of a grid that does not move stores (record
    /// geometry flag bit 1): its locator, built and checked against every cell here, so
    /// that a reader maps it rather than building it again; nil for a moving grid, or a
    /// grid that gets the generic curvilinear locator (`LocatorIndex`).
    let locatorIndex: [UInt8]?
    /// Why no locator can find points on the grid, when neither a lattice's nor the
    /// projection's does and the generic one refuses it (a grid round the globe whose rows
    /// are not each one latitude, such as a global rotated one); nil otherwise. A cube of such a grid would not
    /// open, so ingest refuses it instead of publishing it.
    let unlocatable: String?
  }

  /// A projection code as a cube stores it: 0 (unknown) unless the attribute holds a whole
  /// number that fits.
  static func code(_ value: Double?) -> UInt32 {
    value.flatMap { UInt32(exactly: $0) } ?? 0
  }

  /// Checks the plan's projection against each position of its grid, in order, until the
  /// warning and the record are both known (a moving grid's later positions cannot change
  /// them once a position has failed with a warning).
  static func check(_ plan: IngestPlan, names: Names) -> Outcome {
    let positions =
      plan.motion?.positions.map { ($0.latitudes, $0.longitudes) } ?? [(plan.latitudes, plan.longitudes)]
    var warning: String?
    var locates = true
    var index: [UInt8]?
    var unlocatable: String?
    for (number, (latitudes, longitudes)) in positions.enumerated() {
      let position = check(plan, latitudes: latitudes, longitudes: longitudes, names: names)
      if unlocatable == nil, let problem = position.unlocatable {
        unlocatable = number == 0 ? problem : "grid position \(number): \(problem)"
      }
      if warning == nil, let found = position.warning {
        warning = number == 0 ? found : "grid position \(number): \(found)"
      }
      locates = locates && position.locates
      if plan.motion == nil { index = position.index }
      if !locates, warning != nil { break }
      // Without a projection no position has a warning or locates every cell, and a moving
      // grid has no index: nothing more to learn.
      if plan.motion != nil, plan.projection.code == 0 { break }
    }
    return Outcome(warning: warning, locatesEveryCell: locates, locatorIndex: index, unlocatable: unlocatable)
  }

  /// One position's outcome.
  private static func check(
    _ plan: IngestPlan, latitudes: [Float], longitudes: [Float], names: Names
  ) -> (warning: String?, locates: Bool, index: [UInt8]?, unlocatable: String?) {
    guard
      let grid = try? CurvilinearGrid(
        width: plan.width, height: plan.height, latitudes: latitudes, longitudes: longitudes)
    else { return (nil, false, nil, nil) }
    let lattice = RegularLatLonLocator(grid: grid, rows: .monotonic)
    let tried = analytic(for: plan, grid: grid, names: names)
    // A lattice has a locator of its own, whatever its projection says.
    let warning = plan.projection.code != 0 && lattice == nil ? tried.problem : nil
    // The choice a reader without an index makes (`GridLocator(grid:projection:)`).
    let locator: GridLocator? =
      if let lattice, tried.locator == nil || !GridLocator.prefersProjection(over: lattice) {
        GridLocator(grid: grid, regular: lattice)
      } else {
        tried.locator.map { GridLocator(grid: grid, analytic: $0) }
      }
    // Neither: readers build the generic locator over the cells, which must accept the grid.
    var unlocatable: String?
    if locator == nil {
      do {
        _ = try CellLocator(grid: grid)
      } catch {
        unlocatable = reason(error)
      }
    }
    return (warning, tried.problem == nil, locator.flatMap(LocatorIndex.init)?.encoded, unlocatable)
  }

  /// The analytic locator of the plan's projection over `grid`, or why it cannot locate
  /// every cell.
  private static func analytic(
    for plan: IngestPlan, grid: CurvilinearGrid, names: Names
  ) -> (locator: AnalyticLocator?, problem: String?) {
    let path = plan.steps[0].path
    let code = Int(plan.projection.code)
    let fallback = "queries use the generic locator"
    guard plan.projection.code != 0 else { return (nil, "\(path): no projection is recorded; \(fallback)") }
    guard let kind = MapProjection.Kind(rawValue: code) else {
      return (
        nil, "\(path): \(names.code) \(code) is not a projection with an analytic mapping (1, 2, 3 or 6); \(fallback)"
      )
    }
    let projection: MapProjection
    do {
      projection = try MapProjection(wrfCode: code, parameters: plan.projection.parameters, grid: grid)
    } catch {
      return (nil, "\(path): \(names.code) \(code) (\(kind.name)): \(reason(error)); \(fallback)")
    }
    let images = projection.cellImages(on: grid)
    let worst = images.mismatch
    guard worst.cells <= AnalyticLocator.tolerance else {
      return (
        nil,
        "\(path): \(names.code) \(code) (\(kind.name)) disagrees with \(names.coordinates) by \(AnalyticLocator.cells(worst.cells)) at (\(worst.i), \(worst.j)); \(fallback)"
      )
    }
    do {
      return (try AnalyticLocator(grid: grid, projection: projection, images: images), nil)
    } catch {
      return (nil, "\(path): \(reason(error)); \(fallback)")
    }
  }

  private static func reason(_ error: GeometryError) -> String {
    switch error {
    case .projectionRejected(let reason), .invalidGrid(let reason): reason
    }
  }
}
