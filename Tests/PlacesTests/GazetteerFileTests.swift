import Foundation
import Places
import Testing
import _TestSupport

/// A malformed gazetteer file is refused with the file, the line and the column at fault.
@Suite struct GazetteerFileTests {
  /// Lisbon's line as GeoNames writes it (alternate names cut short).
  static let lisbon = [
    "2267057", "Lisbon", "Lisbon", "Lisboa,Lissabon", "38.71667", "-9.13333", "P", "PPLC", "PT", "", "14", "1106",
    "110653", "", "517802", "", "45", "Europe/Lisbon", "2018-02-10",
  ]
  static let porto = [
    "2735943", "Porto", "Porto", "Oporto", "41.14961", "-8.61099", "P", "PPLA", "PT", "", "17", "1312", "131212", "",
    "249633", "", "97", "Europe/Lisbon", "2018-03-15",
  ]

  static func write(_ lines: [[String]], named name: String) throws -> String {
    try write(Array((lines.map { $0.joined(separator: "\t") }.joined(separator: "\n") + "\n").utf8), named: name)
  }

  static func write(_ bytes: [UInt8], named name: String) throws -> String {
    let path = "\(SampleFiles.temporaryDirectory("places"))/\(name)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func error(reading path: String) -> String {
    do {
      let places = try GazetteerFile.read(path)
      return "read \(places.count) places"
    } catch {
      return error.description
    }
  }

  @Test func aWellFormedFileReadsAsGeoNamesWroteIt() throws {
    let path = try Self.write([Self.lisbon, Self.porto], named: "good.txt")
    let places = try GazetteerFile.read(path)
    #expect(places.map(\.id) == [2_267_057, 2_735_943])
    #expect(places[0].alternateNames == ["Lisboa", "Lissabon"])
    #expect(places[1].population == 249_633 && places[1].elevation == 97 && places[1].admin1Code == "17")
  }

  @Test func theBundledExtractHoldsEveryPlaceOfPortugalAndSpain() throws {
    let places = try GazetteerFile.read(SampleFiles.grid("places/cities1000_PT_ES.txt"))
    #expect(places.count == 7_775)
    #expect(Set(places.map(\.countryCode)) == ["PT", "ES"])
    #expect(Set(places.map(\.id)).count == places.count)
  }

  @Test func aLineWithTheWrongNumberOfColumnsIsNamed() throws {
    let path = try Self.write([Self.lisbon, Self.porto, Array(Self.porto.dropLast())], named: "short.txt")
    let message = Self.error(reading: path)
    #expect(message.hasPrefix("\(path):3: 18 tab-separated columns; GeoNames' cities format has 19 (geonameid, name,"))
  }

  @Test(arguments: [
    (4, "abc", "column 5 (latitude): 'abc' is not a decimal number of degrees in -90…90"),
    (4, "91.5", "column 5 (latitude): '91.5' is not a decimal number of degrees in -90…90"),
    (5, "nan", "column 6 (longitude): 'nan' is not a decimal number of degrees in -180…180"),
    (0, "x12", "column 1 (geonameid): 'x12' is not an integer in 1…"),
    (0, "-4", "column 1 (geonameid): '-4' is not an integer in 1…"),
    (14, "many", "column 15 (population): 'many' is not an integer in 0…"),
    (16, "1e3", "column 17 (dem): '1e3' is not an integer in -100000…100000"),
    (1, "", "column 2 (name): empty; every place needs a name"),
  ])
  func aBadValueIsNamedByLineAndColumn(column: Int, value: String, problem: String) throws {
    var bad = Self.porto
    bad[column] = value
    let path = try Self.write([Self.lisbon, bad], named: "bad-\(column).txt")
    let message = Self.error(reading: path)
    #expect(message.hasPrefix("\(path):2: \(problem)"), "\(message)")
  }

  @Test func aRepeatedIDAndInvalidUTF8AreNamed() throws {
    let repeated = try Self.write([Self.lisbon, Self.porto, Self.lisbon], named: "repeated.txt")
    #expect(
      Self.error(reading: repeated)
        == "\(repeated):3: column 1 (geonameid): 2267057 is also the id on line 1; each place needs its own id")
    var bytes = Array((Self.lisbon.joined(separator: "\t") + "\n").utf8)
    bytes +=
      Array("2735943\tPor".utf8) + [0xFF] + Array(("to\t" + Self.porto.dropFirst(2).joined(separator: "\t")).utf8)
    let invalid = try Self.write(bytes, named: "invalid.txt")
    #expect(Self.error(reading: invalid) == "\(invalid):2: column 2 (name): not valid UTF-8")
  }

  @Test func aMissingFileIsNamed() {
    let message = Self.error(reading: "/nonexistent/cities.txt")
    #expect(message.hasPrefix("/nonexistent/cities.txt: cannot read the gazetteer: "))
  }
}
