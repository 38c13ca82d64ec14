import Foundation

/// Reads GeoNames' tab-separated `cities*.txt` format: one place a line, 19 columns, UTF-8.
///
/// Strict: a line with the wrong number of columns, an id or coordinate that is not a
/// number, or an id given twice is refused with the file, line and column, since a guess
/// would put a place somewhere it is not. Empty lines are skipped (a trailing newline).
public enum GazetteerFile {
  /// GeoNames' column names, in order.
  public static let columns = [
    "geonameid", "name", "asciiname", "alternatenames", "latitude", "longitude", "feature class",
    "feature code", "country code", "cc2", "admin1 code", "admin2 code", "admin3 code", "admin4 code",
    "population", "elevation", "dem", "timezone", "modification date",
  ]

  /// The places of the file at `path`.
  /// - Throws: `GazetteerError` naming the file, and the line and column at fault.
  public static func read(_ path: String) throws(GazetteerError) -> [Place] {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable(file: path, reason: (error as NSError).localizedDescription)
    }
    return try parse(Array(data), file: path)
  }

  /// The places of `bytes`, the contents of `file` (which the errors name).
  public static func parse(_ bytes: [UInt8], file: String) throws(GazetteerError) -> [Place] {
    var places: [Place] = []
    var lineOfID: [Int: Int] = [:]
    var lineNumber = 0
    for var line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      if line.isEmpty { continue }
      let place = try parseLine(line, file: file, line: lineNumber)
      if let first = lineOfID[place.id] {
        throw .duplicateID(file: file, line: lineNumber, id: place.id, firstLine: first)
      }
      lineOfID[place.id] = lineNumber
      places.append(place)
    }
    return places
  }

  private static func parseLine(_ bytes: ArraySlice<UInt8>, file: String, line: Int) throws(GazetteerError) -> Place {
    let raw = bytes.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
    guard raw.count == columns.count else { throw .columnCount(file: file, line: line, found: raw.count) }
    var fields: [String] = []
    fields.reserveCapacity(raw.count)
    for (index, field) in raw.enumerated() {
      guard let text = String(validating: field, as: UTF8.self) else {
        throw .badValue(file: file, line: line, column: index + 1, name: columns[index], problem: "not valid UTF-8")
      }
      fields.append(text)
    }
    func bad(_ column: Int, _ problem: String) -> GazetteerError {
      .badValue(file: file, line: line, column: column + 1, name: columns[column], problem: problem)
    }
    func integer(_ column: Int, in range: ClosedRange<Int>) throws(GazetteerError) -> Int {
      guard let value = Int(fields[column]), range.contains(value) else {
        throw bad(column, "\(quoted(fields[column])) is not an integer in \(range.lowerBound)…\(range.upperBound)")
      }
      return value
    }
    func optionalInteger(_ column: Int) throws(GazetteerError) -> Int? {
      try fields[column].isEmpty ? nil : integer(column, in: -100_000...100_000)
    }
    func degrees(_ column: Int, limit: Double) throws(GazetteerError) -> Double {
      let text = fields[column]
      let decimal =
        !text.isEmpty
        && text.utf8.allSatisfy { byte in
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        }
      guard decimal, let value = Double(text), (-limit...limit).contains(value) else {
        throw bad(column, "\(quoted(text)) is not a decimal number of degrees in -\(Int(limit))…\(Int(limit))")
      }
      return value
    }
    let id = try integer(0, in: 1...Int(Int32.max) * 16)
    guard !fields[1].isEmpty else { throw bad(1, "empty; every place needs a name") }
    let latitude = try degrees(4, limit: 90)
    let longitude = try degrees(5, limit: 180)
    // GeoNames leaves population empty for no place, but 0 means "unknown" there, so an
    // empty field is read as 0 rather than refused.
    let population = try fields[14].isEmpty ? 0 : integer(14, in: 0...20_000_000_000)
    let elevation = try optionalInteger(15)
    // GeoNames' elevation model writes -9999 where it has no value (over the sea).
    let dem = try optionalInteger(16).flatMap { $0 == -9999 ? nil : $0 }
    return Place(
      id: id, name: fields[1], asciiName: fields[2],
      alternateNames: fields[3].split(separator: ",").map(String.init), latitude: latitude, longitude: longitude,
      featureClass: fields[6], featureCode: fields[7], countryCode: fields[8], admin1Code: fields[10],
      population: population, elevation: elevation ?? dem, timezone: fields[17])
  }

  /// `text` quoted for a message, cut when long.
  private static func quoted(_ text: String) -> String {
    text.count <= 40 ? "'\(text)'" : "'\(text.prefix(40))…'"
  }
}
