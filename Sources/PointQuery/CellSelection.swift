/// Which grid cell a nearest-cell query answers from, Open-Meteo's `cell_selection`.
///
/// `land` and `sea` look for the nearest cell of that kind (by great-circle distance from
/// the point) among the nearest cell and its eight neighbours, the 3 × 3 block
/// `Cube.selectionRadius` cells around it, and keep the nearest cell when none is there or
/// the cube's land mask is unknown. A bilinear query ignores the selection: its value
/// blends the four cells around the point whatever their kind.
public enum CellSelection: String, Sendable, CaseIterable {
  /// The nearest cell, whatever its kind (nwpcube's behaviour before terrain was stored).
  case nearest
  /// The nearest land cell within the radius, else the nearest cell.
  case land
  /// The nearest water cell within the radius, else the nearest cell.
  case sea
}
