import JSONOutput
import Places

/// Places as Open-Meteo's geocoding API writes them, for `GET /v1/search` and
/// `nwpcube places --json`.
public enum PlaceListing {
  /// `{"results": [...], "generationtime_ms": …}`; `results` is left out when there are no
  /// places, as Open-Meteo does (its clients test for the key).
  public struct Document: Encodable, Sendable {
    public let results: [Entry]?
    /// Milliseconds, to 4 decimals.
    public let generationTime: JSONDecimal

    /// The answer listing `places`, found in `generationMilliseconds`.
    public init(_ places: [Place], generationMilliseconds: Double) {
      results = places.isEmpty ? nil : places.map(Entry.init)
      generationTime = JSONDecimal(generationMilliseconds, places: 4)
    }

    private enum CodingKeys: String, CodingKey {
      case results
      case generationTime = "generationtime_ms"
    }
  }

  /// One place. `elevation` is a number of metres (`45.0`), as Open-Meteo writes it;
  /// `elevation`, `timezone` and `population` are left out when unknown, and `admin1` and
  /// `country` always, since a GeoNames cities file has their codes but not their names.
  public struct Entry: Encodable, Sendable {
    public let place: Place

    /// `place` as the listing writes it.
    public init(_ place: Place) {
      self.place = place
    }

    private enum CodingKeys: String, CodingKey {
      case id, name, latitude, longitude, elevation
      case featureCode = "feature_code"
      case countryCode = "country_code"
      case timezone, population
    }

    /// The members in Open-Meteo's order, the unknown ones left out.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(place.id, forKey: .id)
      try container.encode(place.name, forKey: .name)
      try container.encode(place.latitude, forKey: .latitude)
      try container.encode(place.longitude, forKey: .longitude)
      try container.encodeIfPresent(place.elevation.map(Double.init), forKey: .elevation)
      try container.encode(place.featureCode, forKey: .featureCode)
      try container.encode(place.countryCode, forKey: .countryCode)
      if !place.timezone.isEmpty { try container.encode(place.timezone, forKey: .timezone) }
      if place.population > 0 { try container.encode(place.population, forKey: .population) }
    }
  }

  /// The answer as JSON text, what `nwpcube places --json` prints.
  ///
  /// - Throws: `EncodingError.invalidValue` for a place whose coordinates are not finite
  ///   (a gazetteer never holds one).
  public static func json(_ places: [Place], generationMilliseconds: Double) throws -> String {
    try OrderedJSONEncoder().text(Document(places, generationMilliseconds: generationMilliseconds))
  }
}
