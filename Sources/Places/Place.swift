/// One place of a gazetteer, as GeoNames describes it in its `cities*.txt` files.
public struct Place: Sendable, Equatable {
  /// GeoNames' id (`geonameid`), which clients use to tell places apart.
  public var id: Int
  /// The name in its own language and script (`Évora`).
  public var name: String
  /// The name in plain ASCII (`Evora`).
  public var asciiName: String
  /// Other names and spellings (`Lisboa`, `Lissabon`, airport codes), as GeoNames lists them.
  public var alternateNames: [String]
  /// Degrees north, WGS 84.
  public var latitude: Double
  /// Degrees east, WGS 84.
  public var longitude: Double
  /// GeoNames' feature class (`P` for populated places).
  public var featureClass: String
  /// GeoNames' feature code (`PPLC` for a capital, `PPLA` for a first-order seat).
  public var featureCode: String
  /// ISO 3166 two-letter country code (`PT`).
  public var countryCode: String
  /// GeoNames' first-order administrative division code (`14`), empty when unknown.
  public var admin1Code: String
  /// People living there; 0 when GeoNames does not know.
  public var population: Int
  /// Metres above sea level: GeoNames' surveyed elevation when it has one, otherwise its
  /// digital elevation model's; nil when neither is known.
  public var elevation: Int?
  /// The IANA time zone (`Europe/Lisbon`), empty when unknown.
  public var timezone: String

  public init(
    id: Int, name: String, asciiName: String = "", alternateNames: [String] = [], latitude: Double,
    longitude: Double, featureClass: String = "P", featureCode: String = "PPL", countryCode: String = "",
    admin1Code: String = "", population: Int = 0, elevation: Int? = nil, timezone: String = ""
  ) {
    self.id = id
    self.name = name
    self.asciiName = asciiName
    self.alternateNames = alternateNames
    self.latitude = latitude
    self.longitude = longitude
    self.featureClass = featureClass
    self.featureCode = featureCode
    self.countryCode = countryCode
    self.admin1Code = admin1Code
    self.population = population
    self.elevation = elevation
    self.timezone = timezone
  }
}
