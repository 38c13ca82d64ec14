import FaceKit
import Places

/// Places as Open-Meteo's geocoding API writes them, for `GET /v1/search` and
/// `nwpcube places --json`.
public enum PlaceListing {
  /// `{"results": [...], "generationtime_ms": …}`; `results` is left out when there are no
  /// places, as Open-Meteo does (its clients test for the key).
  public static func json(_ places: [Place], generationMilliseconds: Double) -> String {
    var members: [(String, String)] = []
    if !places.isEmpty { members.append(("results", JSONText.array(places.map(json)))) }
    members.append(("generationtime_ms", JSONText.number(generationMilliseconds, decimals: 4)))
    return JSONText.object(members)
  }

  /// One place. `elevation` is a number of metres (`45.0`), as Open-Meteo writes it;
  /// `elevation`, `timezone` and `population` are left out when unknown, and `admin1` and
  /// `country` always, since a GeoNames cities file has their codes but not their names.
  public static func json(_ place: Place) -> String {
    var members: [(String, String)] = [
      ("id", String(place.id)), ("name", JSONText.string(place.name)),
      ("latitude", "\(place.latitude)"), ("longitude", "\(place.longitude)"),
    ]
    if let elevation = place.elevation { members.append(("elevation", "\(Double(elevation))")) }
    members.append(("feature_code", JSONText.string(place.featureCode)))
    members.append(("country_code", JSONText.string(place.countryCode)))
    if !place.timezone.isEmpty { members.append(("timezone", JSONText.string(place.timezone))) }
    if place.population > 0 { members.append(("population", String(place.population))) }
    return JSONText.object(members)
  }
}
