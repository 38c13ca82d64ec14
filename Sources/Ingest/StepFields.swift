/// The fields of one step under WRF's names, over one band's rows (`RowBand`), each read
/// at most once however many metrics use it, and 3-D fields only as deep as the metrics
/// need them. Every read passes the run's `InputScreen`: a value outside its field's
/// plausible range arrives as missing, and is counted when its cell is the band's own.
final class StepFields {
  let source: any FieldSource
  let step: StepSource
  /// The rows read, and the cells counted.
  let band: RowBand
  /// Values per level: the rows' cells.
  let cells: Int
  private let screen: InputScreen
  private var surfaces: [String: [Double]] = [:]
  /// Each 3-D field read so far: its levels from the lowest up.
  private var columns: [String: (levels: Int, values: [Double])] = [:]
  private var complete: Set<String> = []
  /// Fields some metric reads whole: a request for their lowest levels reads them whole at
  /// once, rather than twice.
  private let whole: Set<String>

  init(
    _ source: any FieldSource, step: StepSource, band: RowBand, screen: InputScreen, whole: Set<String> = []
  ) {
    self.source = source
    self.step = step
    self.band = band
    self.screen = screen
    self.whole = whole
    cells = band.cells
  }

  /// The rows read.
  var rows: Range<Int> { band.rows }

  /// A surface field over the rows.
  func field(_ name: String) throws(IngestError) -> [Double] {
    if let cached = surfaces[name] { return cached }
    // A moving grid's earlier step may have no rows left in the grid: nothing to read.
    let values = rows.isEmpty ? [] : screened(name, try source.field(name, rows: rows, at: step))
    surfaces[name] = values
    return values
  }

  /// Every level of a 3-D field on the mass grid (or its vertically staggered levels).
  func volume(_ name: String) throws(IngestError) -> [Double] {
    if complete.contains(name), let cached = columns[name] { return cached.values }
    let values = screened(name, try source.volume(name, rows: rows, at: step))
    columns[name] = (values.count / max(cells, 1), values)
    complete.insert(name)
    return values
  }

  /// The lowest `count` levels of a 3-D field on the mass grid, or all it has when fewer.
  func lowest(_ name: String, _ count: Int) throws(IngestError) -> ArraySlice<Double> {
    if let cached = columns[name], cached.levels >= count || complete.contains(name) {
      return cached.values.prefix(min(count, cached.levels) * cells)
    }
    if whole.contains(name) { return try volume(name).prefix(count * cells) }
    let values = screened(name, try source.volume(name, 0..<count, rows: rows, at: step))
    let levels = values.count / max(cells, 1)
    columns[name] = (levels, values)
    if levels < count { complete.insert(name) }
    return values[...]
  }

  /// Levels of rows `rows` of a field on its own (staggered) grid of `gridRows × columns`,
  /// screened like every other read.
  func staggered(
    _ name: String, _ levels: Range<Int>, rows: Range<Int>, of gridRows: Int, columns: Int
  ) throws(IngestError) -> [Double] {
    var values = try source.levels(name, levels, rows: rows, of: gridRows, columns: columns, at: step)
    screen.screen(
      name, &values, step: step, region: .staggered(band, rows: rows, gridRows: gridRows, columns: columns))
    return values
  }

  /// `values` screened in place: taken, not copied once more per field read.
  private func screened(_ name: String, _ values: consuming [Double]) -> [Double] {
    screen.screen(name, &values, step: step, region: .rows(of: band))
    return values
  }
}
