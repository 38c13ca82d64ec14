import Places
import Testing

/// Places by GeoNames id and by whole name (OpenWeatherMap's `id=` and `q=City,CC`), on a
/// gazetteer made here, so that each rule has a place that tells it apart.
@Suite struct GazetteerLookupTests {
  static let gazetteer = Gazetteer(places: [
    Place(
      id: 10, name: "Porto", alternateNames: ["Oporto"], latitude: 41.15, longitude: -8.61, countryCode: "PT",
      population: 250_000),
    Place(id: 11, name: "Porto Salvo", latitude: 38.72, longitude: -9.30, countryCode: "PT", population: 900_000),
    Place(id: 12, name: "Porto", latitude: 42.57, longitude: 8.97, countryCode: "FR", population: 1_000),
    Place(
      id: 13, name: "Évora", asciiName: "Evora", latitude: 38.57, longitude: -7.91, countryCode: "PT",
      population: 50_000),
    Place(id: 14, name: "Porto", latitude: 40.0, longitude: -8.0, countryCode: "BR", population: 5_000_000),
  ])

  @Test func aWholeNameFindsTheMostPopulousPlaceOfThatNameNotOneItPrefixes() {
    // Porto Salvo is more populous but only starts with the name.
    #expect(Self.gazetteer.place(named: "porto")?.id == 14)
    #expect(Self.gazetteer.place(named: "Port") == nil)
    #expect(Self.gazetteer.place(named: "  PORTO salvo ")?.id == 11)
  }

  @Test func aCountryCodeChoosesAmongPlacesOfTheSameName() {
    #expect(Self.gazetteer.place(named: "Porto", countryCode: "PT")?.id == 10)
    #expect(Self.gazetteer.place(named: "porto", countryCode: "fr")?.id == 12)
    #expect(Self.gazetteer.place(named: "Porto", countryCode: "ES") == nil)
  }

  @Test func alternateAndASCIINamesAndDiacriticsMatch() {
    #expect(Self.gazetteer.place(named: "oporto")?.id == 10)
    #expect(Self.gazetteer.place(named: "EVORA")?.id == 13)
    #expect(Self.gazetteer.place(named: "évora", countryCode: "PT")?.id == 13)
    #expect(Self.gazetteer.place(named: "") == nil)
  }

  @Test func anIDFindsItsPlace() {
    #expect(Self.gazetteer.place(id: 13)?.name == "Évora")
    #expect(Self.gazetteer.place(id: 12)?.countryCode == "FR")
    #expect(Self.gazetteer.place(id: 99) == nil)
  }
}
