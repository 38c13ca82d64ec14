/// The fields of one step under WRF's names, each read at most once however many metrics
/// use it, and 3-D fields only as deep as the metrics need them. Every read passes the
/// run's `InputScreen`: a value outside its field's plausible range arrives as missing.
final class StepFields {
  let source: any FieldSource
  let step: StepSource
  let cells: Int
  private let screen: InputScreen
  private var surfaces: [String: [Double]] = [:]
  /// Each 3-D field read so far: its levels from the lowest up.
  private var columns: [String: (levels: Int, values: [Double])] = [:]
  private var complete: Set<String> = []
  /// Fields some metric reads whole: a request for their lowest levels reads them whole at
  /// once, rather than twice.
  private let whole: Set<String>

  init(_ source: any FieldSource, step: StepSource, screen: InputScreen, whole: Set<String> = []) {
    self.source = source
    self.step = step
    self.screen = screen
    self.whole = whole
    cells = source.width * source.height
  }

  /// A surface field.
  func field(_ name: String) throws(IngestError) -> [Double] {
    if let cached = surfaces[name] { return cached }
    let values = screened(name, try source.field(name, at: step))
    surfaces[name] = values
    return values
  }

  /// Every level of a 3-D field on the mass grid (or its vertically staggered levels).
  func volume(_ name: String) throws(IngestError) -> [Double] {
    if complete.contains(name), let cached = columns[name] { return cached.values }
    let values = screened(name, try source.volume(name, at: step))
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
    let values = screened(name, try source.volume(name, 0..<count, at: step))
    let levels = values.count / max(cells, 1)
    columns[name] = (levels, values)
    if levels < count { complete.insert(name) }
    return values[...]
  }

  /// Levels of a field on its own (staggered) grid, screened like every other read.
  func staggered(_ name: String, _ levels: Range<Int>, rows: Int, columns: Int) throws(IngestError) -> [Double] {
    screened(name, try source.levels(name, levels, rows: rows, columns: columns, at: step), cells: rows * columns)
  }

  private func screened(_ name: String, _ values: [Double], cells: Int? = nil) -> [Double] {
    var values = values
    screen.screen(name, &values, step: step, cells: cells ?? self.cells)
    return values
  }
}
