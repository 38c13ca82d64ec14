import Forecast
import Meteorology
import PointQuery

/// The cells of one evaluation, each outlined once: a point's warnings nearly always come
/// from one or two cubes, and from one position of each (a moving nest from a few).
struct CellCache {
  let catalog: RunCatalog
  private var cubes: [Provenance: Cube] = [:]
  private var cells: [Key: WarningCell] = [:]

  /// A cell is known by the forecast's provenance and the grid position it is outlined in.
  private struct Key: Hashable {
    let provenance: Provenance
    let position: Int
  }

  init(catalog: RunCatalog) {
    self.catalog = catalog
  }

  /// The cells a value of a `temporal` metric stamped at `instant` was read from: the place
  /// `provenance` names, in the grid's position at each step the value reads. One cell for
  /// a grid that does not move.
  mutating func cells(_ provenance: Provenance, at instant: Int64, temporal: Metric.Temporal) -> [WarningCell] {
    guard let cube = cube(provenance) else { return [] }
    let positions = Set(cube.stepsRead(at: instant, temporal: temporal).map { cube.position(ofStep: $0) })
    return positions.sorted().compactMap { cell(provenance, position: $0, cube: cube) }
  }

  private mutating func cube(_ provenance: Provenance) -> Cube? {
    if let known = cubes[provenance] { return known }
    let found = catalog.cubes.first {
      $0.run == provenance.run && $0.header.model == provenance.model && $0.header.domain == provenance.domain
    }
    cubes[provenance] = found
    return found
  }

  /// The cell of `provenance`'s place in `cube`'s grid at `position`, outlined from that
  /// position's cell centres. A grid that does not move has the provenance's own cell; in a
  /// moving one the place is found again, from the provenance's cell centre: WRF moves a
  /// nest by whole cells, so that centre is a centre of every position that holds it.
  private mutating func cell(_ provenance: Provenance, position: Int, cube: Cube) -> WarningCell? {
    let key = Key(provenance: provenance, position: position)
    if let known = cells[key] { return known }
    let locator = cube.locator(position: position)
    let outline = CellOutline(grid: locator.grid, wraps: locator.isGlobal)
    let cell: WarningCell
    if cube.isMoving {
      guard
        let (i, j) = locator.nearestCell(
          latitude: provenance.latitude, longitude: provenance.longitude, prefetch: { _ in })
      else { return nil }
      let index = j * locator.grid.width + i
      let longitude = Double(locator.grid.longitudes[index])
      cell = WarningCell(
        provenance: provenance, runStart: cube.header.runStart, i: i, j: j,
        latitude: Double(locator.grid.latitudes[index]),
        longitude: longitude > 180 ? longitude - 360 : longitude, corners: outline.corners(i: i, j: j))
    } else {
      cell = WarningCell(
        provenance: provenance, runStart: cube.header.runStart,
        corners: outline.corners(i: provenance.i, j: provenance.j))
    }
    cells[key] = cell
    return cell
  }
}
