/// Where a screened read lies in its field's grid and which of its values count: those of
/// the cells a band owns (`RowBand`), so that bands whose rows overlap (their halo, a row
/// two bands share) count each value once and the warnings and the refusal threshold are
/// those of a whole-grid read.
struct ReadRegion: Sendable {
  /// The grid index of the read's first value.
  let offset: Int
  /// Values per level of the read.
  let readCells: Int
  /// Columns of the field's grid (one more than the mass grid's for U).
  let columns: Int
  /// Values per level of the field's whole grid.
  let gridCells: Int
  /// The mass grid's columns and rows, onto which a staggered value maps (the extra column
  /// or row to the last cell of its row or column).
  let massWidth: Int
  let massHeight: Int
  /// The mass cells counted; nil: every value.
  let owned: Range<Int>?

  /// Every value of a read of `cells` values a level counts.
  static func whole(cells: Int) -> ReadRegion {
    ReadRegion(
      offset: 0, readCells: cells, columns: cells, gridCells: cells, massWidth: cells, massHeight: 1, owned: nil)
  }

  /// A read of `band`'s rows on the mass grid.
  static func rows(of band: RowBand) -> ReadRegion {
    staggered(band, rows: band.rows, gridRows: band.height, columns: band.width)
  }

  /// A read of rows `rows` of a field of `gridRows × columns` (staggered or not) for `band`.
  static func staggered(_ band: RowBand, rows: Range<Int>, gridRows: Int, columns: Int) -> ReadRegion {
    ReadRegion(
      offset: rows.lowerBound * columns, readCells: rows.count * columns, columns: columns,
      gridCells: gridRows * columns, massWidth: band.width, massHeight: band.height, owned: band.owned)
  }

  /// The values of `band`'s owned cells alone, in cell order.
  static func owned(by band: RowBand) -> ReadRegion {
    ReadRegion(
      offset: band.owned.lowerBound, readCells: band.owned.count, columns: band.width,
      gridCells: band.width * band.height, massWidth: band.width, massHeight: band.height, owned: band.owned)
  }

  /// The band the counts belong to: its first cell (0 for the whole grid).
  var band: Int { owned?.lowerBound ?? 0 }

  /// The index in the field's whole grid (level by level) of the read's value `index`.
  func gridIndex(of index: Int) -> Int {
    guard readCells > 0 else { return index }
    return (index / readCells) * gridCells + offset + index % readCells
  }

  /// Whether the read's value `index` is in a counted cell.
  func counts(_ index: Int) -> Bool {
    guard let owned, readCells > 0 else { return true }
    return owned.contains(massCell(offset + index % readCells))
  }

  /// How many of a read of `values` values (whole levels) are counted.
  func counted(values: Int) -> Int {
    guard let owned, readCells > 0 else { return values }
    let levels = values / readCells
    if columns == massWidth {
      // On the mass grid the counted values are one run of cells.
      let read = offset..<(offset + readCells)
      return levels * (read.clamped(to: owned)).count
    }
    var perLevel = 0
    for cell in 0..<readCells where owned.contains(massCell(offset + cell)) { perLevel += 1 }
    return levels * perLevel
  }

  private func massCell(_ gridCell: Int) -> Int {
    guard columns != massWidth else { return gridCell }
    let (row, column) = (gridCell / columns, gridCell % columns)
    return Swift.min(row, massHeight - 1) * massWidth + Swift.min(column, massWidth - 1)
  }
}
