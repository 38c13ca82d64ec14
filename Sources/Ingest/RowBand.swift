/// The part of a grid one derivation covers: the rows it reads and derives, and the cells
/// among them that its band owns, which the screen counts and the writer stores.
///
/// A band's cells may start and end mid-row (bands are a power of two of cells), so the
/// rows are those covering the cells, perhaps widened by the neighbourhood's halo; rows of
/// neighbouring bands overlap, and a value is counted by the band that owns its cell.
struct RowBand: Sendable, Equatable {
  /// The grid's columns and rows.
  let width: Int
  let height: Int
  /// The rows read and derived.
  let rows: Range<Int>
  /// The cells (indices in the whole grid) the band owns; inside `rows`.
  let owned: Range<Int>

  /// The whole grid, owned whole.
  static func whole(width: Int, height: Int) -> RowBand {
    RowBand(width: width, height: height, rows: 0..<height, owned: 0..<(width * height))
  }

  /// The rows covering `cells` of a `width × height` grid, owning them.
  static func covering(_ cells: Range<Int>, width: Int, height: Int) -> RowBand {
    guard !cells.isEmpty, width > 0 else { return RowBand(width: width, height: height, rows: 0..<0, owned: cells) }
    return RowBand(
      width: width, height: height, rows: cells.lowerBound / width..<((cells.upperBound - 1) / width + 1),
      owned: cells)
  }

  /// Values per level of a read of `rows`.
  var cells: Int { rows.count * width }

  /// The same band with `halo` more rows on each side, clipped to the grid.
  func widened(by halo: Int) -> RowBand {
    RowBand(
      width: width, height: height,
      rows: Swift.max(0, rows.lowerBound - halo)..<Swift.min(height, rows.upperBound + Swift.max(halo, 0)),
      owned: owned)
  }

  /// The same band reading `rows` instead (an earlier step's, shifted with a moving grid).
  func reading(_ rows: Range<Int>) -> RowBand {
    RowBand(width: width, height: height, rows: rows, owned: owned)
  }

  /// The owned cells' positions among the values of `rows` (row by row).
  var ownedInRows: Range<Int> {
    let first = rows.lowerBound * width
    return (owned.lowerBound - first)..<(owned.upperBound - first)
  }
}
