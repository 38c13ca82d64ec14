import Foundation
import Places
import Testing
import _TestSupport

/// Search by name on the bundled extract of GeoNames (Portugal and Spain), against the ids
/// GeoNames gives and against a brute-force scan that folds names its own way.
@Suite struct GazetteerSearchTests {
  static let file = SampleFiles.grid("places/cities1000_PT_ES.txt")
  static let gazetteer: Gazetteer? = try? Gazetteer(contentsOf: file)

  static func bundled() throws -> Gazetteer { try #require(gazetteer, "\(file) does not load") }

  @Test(arguments: [
    ("lisboa", 2_267_057, "Lisbon"), ("Lisbon", 2_267_057, "Lisbon"), ("evora", 2_268_406, "Évora"),
    ("porto", 2_735_943, "Porto"), ("ÉVORA", 2_268_406, "Évora"), ("  Porto ", 2_735_943, "Porto"),
  ])
  func namedPlacesResolveToTheirGeoNamesIDs(query: String, id: Int, name: String) throws {
    let first = try #require(try Self.bundled().search(query).first, "\(query): nothing found")
    #expect(first.id == id, "\(query) → \(first.name) \(first.id)")
    #expect(first.name == name)
  }

  @Test func lisbonCarriesGeoNamesFields() throws {
    let lisbon = try #require(try Self.bundled().search("Lisbon", count: 1).first)
    #expect(lisbon.latitude == 38.71667 && lisbon.longitude == -9.13333)
    #expect(lisbon.featureCode == "PPLC" && lisbon.countryCode == "PT" && lisbon.admin1Code == "14")
    #expect(lisbon.population == 517_802 && lisbon.timezone == "Europe/Lisbon")
    // GeoNames has no surveyed elevation for Lisbon; its elevation model's 45 m stands in.
    #expect(lisbon.elevation == 45)
  }

  /// The oracle's folding: Foundation's case- and diacritic-insensitive folding, a
  /// different mechanism from the index's decomposition, plus the letters that have no
  /// decomposition.
  static func oracleFold(_ text: String) -> String {
    var folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    for (letter, plain) in [
      "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i", "þ": "th", "ð": "d",
    ] {
      folded = folded.replacingOccurrences(of: letter, with: plain)
    }
    return folded
  }

  @Test(arguments: ["san", "vil", "ma", "c", "torre", "la ", "puerto", "o", "zz", "ciudad real"])
  func resultsAreTheMostPopulousMatchesEachOnceAsABruteForceScanFindsThem(query: String) throws {
    let gazetteer = try Self.bundled()
    // Spaces around the query are not part of it: "la " is "la".
    let prefix = Self.oracleFold(query.trimmingCharacters(in: .whitespaces))
    let expected = gazetteer.places
      .filter { place in
        ([place.name, place.asciiName] + place.alternateNames).contains { Self.oracleFold($0).hasPrefix(prefix) }
      }
      .sorted { $0.population != $1.population ? $0.population > $1.population : $0.id < $1.id }
      .prefix(25).map(\.id)
    let found = gazetteer.search(query, count: 25)
    #expect(found.map(\.id) == Array(expected), "\(query)")
    #expect(Set(found.map(\.id)).count == found.count, "\(query): a place came twice")
    #expect(zip(found, found.dropFirst()).allSatisfy { $0.population >= $1.population }, "\(query)")
  }

  @Test func rankingIsByPopulationWhateverTheOrderOfTheFile() {
    let places = [
      Place(id: 3, name: "Vila Pequena", latitude: 39, longitude: -8, population: 1_200),
      Place(id: 1, name: "Vila Grande", latitude: 39, longitude: -8, population: 90_000),
      Place(id: 2, name: "Vilamoura", latitude: 37, longitude: -8, population: 15_000),
      Place(id: 4, name: "Outra", alternateNames: ["Vila Velha"], latitude: 40, longitude: -8, population: 40_000),
    ]
    let gazetteer = Gazetteer(places: places)
    #expect(gazetteer.search("vila").map(\.id) == [1, 4, 2, 3])
    #expect(gazetteer.search("vila v").map(\.id) == [4])
    #expect(gazetteer.search("vila p").map(\.id) == [3])
    #expect(gazetteer.search("vilam").map(\.id) == [2])
  }

  @Test func caseAndDiacriticsAreIgnoredOnBothSides() {
    let gazetteer = Gazetteer(places: [
      Place(id: 1, name: "Évora", latitude: 38.6, longitude: -7.9, population: 55_000),
      Place(id: 2, name: "Ærøskøbing", latitude: 54.9, longitude: 10.4, population: 900),
      Place(id: 3, name: "Straßburg", latitude: 48.6, longitude: 7.8, population: 280_000),
      Place(
        id: 4, name: "A Coruña", asciiName: "A Coruna", alternateNames: ["Coruña"], latitude: 43.4, longitude: -8.4),
      Place(id: 5, name: "São João da Madeira", latitude: 40.9, longitude: -8.5, population: 21_000),
    ])
    for (query, id) in [
      ("evora", 1), ("EVÓRA", 1), ("e\u{301}vora", 1), ("aeroskobing", 2), ("ÆRØ", 2), ("strassb", 3),
      ("STRAẞ", 3), ("corun", 4), ("coruña", 4), ("a coruna", 4), ("sao joao", 5), ("SÃO JOÃO DA M", 5),
    ] {
      #expect(gazetteer.search(query).map(\.id) == [id], "\(query)")
    }
    #expect(gazetteer.search("evoras").isEmpty)
    #expect(gazetteer.search("").isEmpty)
    #expect(gazetteer.search("   ").isEmpty)
  }

  @Test func theCountLimitsTheResults() throws {
    let gazetteer = try Self.bundled()
    #expect(gazetteer.search("a", count: 5).count == 5)
    #expect(gazetteer.search("a").count == 10)
    #expect(gazetteer.search("a", count: 100).count == 100)
    #expect(gazetteer.search("a", count: 1_000).count == Gazetteer.maximumCount)
    #expect(gazetteer.search("a", count: 0).isEmpty)
    #expect(gazetteer.search("a", count: -3).isEmpty)
    #expect(gazetteer.search("a", count: 5).map(\.id) == gazetteer.search("a", count: 100).prefix(5).map(\.id))
  }
}
