import Forecast
import Meteorology
import Places

/// The place an OpenWeatherMap answer is about (its `city`, or `/weather`'s `id`, `name`,
/// `sys.country` and `timezone`): the gazetteer's place, with the sun's times at the
/// forecast point.
public struct OpenWeatherMapCity: Sendable, Equatable {
  /// GeoNames' id; 0 without a place (a server without `--places`).
  public var id: Int
  /// The place's name; empty without a place.
  public var name: String
  /// The place's coordinates; the forecast point's without a place.
  public var latitude: Double
  public var longitude: Double
  /// ISO 3166 alpha-2 country code; empty without a place.
  public var country: String
  /// People living there; 0 when unknown.
  public var population: Int
  /// The zone's offset from UTC now, seconds east.
  public var utcOffset: Int
  /// Sunrise and sunset at the forecast point on the zone's local day containing now,
  /// Unix seconds; nil on a day the sun does not rise or set.
  public var sunrise: Int64?
  public var sunset: Int64?

  public init(
    id: Int, name: String, latitude: Double, longitude: Double, country: String, population: Int, utcOffset: Int,
    sunrise: Int64?, sunset: Int64?
  ) {
    (self.id, self.name, self.latitude, self.longitude) = (id, name, latitude, longitude)
    (self.country, self.population, self.utcOffset) = (country, population, utcOffset)
    (self.sunrise, self.sunset) = (sunrise, sunset)
  }

  /// `place` (nil without a gazetteer) for a forecast at the point, in `zone`, now.
  public init(place: Place?, latitude: Double, longitude: Double, zone: LocalTimeZone, now: Int64) {
    let day = zone.day(zone.date(containing: now))
    let sun = SolarEvents(latitude: latitude, longitude: longitude, from: day.start, to: day.end)
    self.init(
      id: place?.id ?? 0, name: place?.name ?? "", latitude: place?.latitude ?? latitude,
      longitude: place?.longitude ?? longitude, country: place?.countryCode ?? "", population: place?.population ?? 0,
      utcOffset: zone.utcOffset(at: now), sunrise: sun.sunrise, sunset: sun.sunset)
  }
}
