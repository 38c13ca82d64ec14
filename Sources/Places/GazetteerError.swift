/// Why a gazetteer file could not be read: which file, which line and which column.
public enum GazetteerError: Error, Equatable, CustomStringConvertible {
  /// The file could not be opened or read.
  case unreadable(file: String, reason: String)
  /// A line does not have GeoNames' 19 tab-separated columns.
  case columnCount(file: String, line: Int, found: Int)
  /// One column's value is unusable.
  case badValue(file: String, line: Int, column: Int, name: String, problem: String)
  /// Two lines give the same geonameid.
  case duplicateID(file: String, line: Int, id: Int, firstLine: Int)

  public var description: String {
    switch self {
    case .unreadable(let file, let reason):
      "\(file): cannot read the gazetteer: \(reason)"
    case .columnCount(let file, let line, let found):
      "\(file):\(line): \(found) tab-separated columns; GeoNames' cities format has \(GazetteerFile.columns.count) "
        + "(\(GazetteerFile.columns.joined(separator: ", ")))"
    case .badValue(let file, let line, let column, let name, let problem):
      "\(file):\(line): column \(column) (\(name)): \(problem)"
    case .duplicateID(let file, let line, let id, let firstLine):
      "\(file):\(line): column 1 (geonameid): \(id) is also the id on line \(firstLine); each place needs its own id"
    }
  }
}
