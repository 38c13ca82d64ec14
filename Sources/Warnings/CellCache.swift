import Forecast
import PointQuery
import Store

/// The cells of one evaluation, each outlined once: a point's warnings nearly always come
/// from one or two cubes.
struct CellCache {
  let store: ForecastStore
  private var cells: [Provenance: WarningCell] = [:]

  init(store: ForecastStore) {
    self.store = store
  }

  /// The cell `provenance` names, outlined from its cube's grid; nil when the cube has left
  /// the store since the forecast was read.
  mutating func cell(_ provenance: Provenance) -> WarningCell? {
    if let known = cells[provenance] { return known }
    guard
      let cube = store.catalog.cubes.first(where: {
        $0.run == provenance.run && $0.header.model == provenance.model && $0.header.domain == provenance.domain
      })
    else { return nil }
    let outline = CellOutline(grid: cube.locator.grid, wraps: cube.locator.isGlobal)
    let cell = WarningCell(
      provenance: provenance, runStart: cube.header.runStart, corners: outline.corners(i: provenance.i, j: provenance.j)
    )
    cells[provenance] = cell
    return cell
  }
}
