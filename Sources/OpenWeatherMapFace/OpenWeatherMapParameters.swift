import FaceKit
import Foundation

/// The parameters of `/data/2.5/forecast` and `/data/2.5/weather`, read as OpenWeatherMap
/// reads them: a place by `lat` and `lon`, by `q=City[,CC]` or by `id` (GeoNames'), with
/// `cnt` (the forecast's only), `units`, `lang` and `mode`. Errors keep OpenWeatherMap's
/// words where it has them ("wrong latitude", "Nothing to geocode") and add which
/// parameter and why.
package struct OpenWeatherMapParameters {
  /// How the request names its place.
  package enum Location: Equatable {
    case point(latitude: Double, longitude: Double)
    /// A city's whole name, and an ISO 3166 alpha-2 country code when given.
    case name(String, countryCode: String?)
    /// A GeoNames id.
    case id(Int)
  }

  /// The parameters `/data/2.5/weather` takes; the forecast takes `cnt` too.
  package static let weatherNames = ["lat", "lon", "q", "id", "units", "lang", "mode"]
  package static let forecastNames = weatherNames + ["cnt"]
  /// The key, which the key check takes out of the query before the route reads it, in
  /// any case (pyowm's `APPID` too: `KeyLocation` matches key names whatever their case).
  package static let passedOn = ["appid"]
  /// The longest city name accepted, in UTF-8 bytes: longer than any place's name.
  package static let maximumNameBytes = 100
  /// The largest GeoNames id accepted (GeoNames' ids are below 2³¹).
  package static let maximumID = Int(Int32.max)

  package let location: Location
  package let units: OpenWeatherMapUnits
  /// Forecast entries wanted.
  package let count: Int

  /// Reads `query` for the forecast (`forecast`) or the current weather.
  /// - Throws: `FaceError` 400 naming the first parameter at fault.
  package init(_ query: QueryParameters, forecast: Bool) throws(FaceError) {
    let names = forecast ? Self.forecastNames : Self.weatherNames
    try query.rejectUnknown(allowed: names + Self.passedOn, listed: names)
    location = try Self.location(query)
    units = try query.choice("units", default: OpenWeatherMapUnits.standard)
    count =
      forecast
      ? try query.integer("cnt", in: 1...OpenWeatherMapQuery.maximumCount) ?? OpenWeatherMapQuery.maximumCount : 1
    if let language = query["lang"], language.lowercased() != "en" {
      throw FaceError.parameter(
        "lang",
        "\(QueryParameters.quoted(language)) is not supported; descriptions are in English only: give en or leave lang out"
      )
    }
    if let mode = query["mode"], mode != "json" {
      throw FaceError.parameter("mode", "\(QueryParameters.quoted(mode)) is not supported; give json or leave mode out")
    }
  }

  /// The place: exactly one of `lat` and `lon`, `q` or `id`.
  package static func location(_ query: QueryParameters) throws(FaceError) -> Location {
    let given = [
      (query["lat"] != nil || query["lon"] != nil) ? "lat and lon" : nil, query["q"] != nil ? "q" : nil,
      query["id"] != nil ? "id" : nil,
    ].compactMap { $0 }
    guard given.count <= 1 else {
      throw FaceError(
        .badParameter, "\(given.joined(separator: " and ")) both name a place; give only one of lat and lon, q or id")
    }
    if let text = query["q"] { return try name(text) }
    if let text = query["id"] {
      guard let id = Int(text), (1...maximumID).contains(id) else {
        throw FaceError.parameter(
          "id", "\(QueryParameters.quoted(text)) is not a GeoNames id; give a whole number such as 2267057 (Lisbon)")
      }
      return .id(id)
    }
    guard !given.isEmpty else {
      throw FaceError(
        .badParameter,
        "Nothing to geocode: give lat and lon (decimal degrees), q (a city name, e.g. q=Lisboa or q=Lisboa,PT) "
          + "or id (a GeoNames id, e.g. id=2267057)")
    }
    return .point(
      latitude: try coordinate(
        query, "lat", word: "latitude", in: Coordinate.latitudes, expected: "decimal degrees north, −90…90"),
      longitude: try coordinate(
        query, "lon", word: "longitude", in: Coordinate.signedLongitudes, expected: "decimal degrees east, −180…180"))
  }

  /// `lat` or `lon`; a bad one is OpenWeatherMap's "wrong latitude" with the reason.
  package static func coordinate(
    _ query: QueryParameters, _ name: String, word: String, in range: ClosedRange<Double>, expected: String
  ) throws(FaceError) -> Double {
    guard let text = query[name], !text.isEmpty else {
      throw FaceError(
        .badParameter,
        "wrong \(word): \(name) is \(query[name] == nil ? "missing" : "empty"); give \(expected), "
          + "with lat and lon together")
    }
    do {
      return try QueryParameters.number(text, name: name, in: range, expected: expected)
    } catch {
      // "lat: '91' is out of range; …" as "wrong latitude: lat '91' is out of range; …".
      throw FaceError(.badParameter, "wrong \(word): \(name) \(error.description.dropFirst(name.count + 2))")
    }
  }

  /// `q`: `City` or `City,CC`.
  package static func name(_ text: String) throws(FaceError) -> Location {
    let expected = "a city name, optionally with a comma and a two-letter country code, e.g. Lisboa or Lisboa,PT"
    guard text.utf8.count <= maximumNameBytes else {
      throw FaceError.parameter("q", "\(text.utf8.count) bytes long; at most \(maximumNameBytes) are accepted")
    }
    // A `+` is a space, as forms and clients (pyowm, through requests) encode one: no
    // place's name has a plus.
    let parts = text.replacingOccurrences(of: "+", with: " ").split(separator: ",", omittingEmptySubsequences: false)
      .map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    guard let city = parts.first, !city.isEmpty else {
      throw FaceError.parameter(
        "q", "\(text.isEmpty ? "empty" : "\(QueryParameters.quoted(text)) has no city name"); give \(expected)")
    }
    guard parts.count <= 2 else {
      throw FaceError.parameter(
        "q", "\(QueryParameters.quoted(text)) has \(parts.count) parts; state codes are not supported: give \(expected)"
      )
    }
    guard parts.count == 2 else { return .name(city, countryCode: nil) }
    let country = parts[1]
    guard country.utf8.count == 2, country.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
    else {
      throw FaceError.parameter(
        "q", "\(QueryParameters.quoted(country)) after the comma is not a two-letter country code; give \(expected)")
    }
    return .name(city, countryCode: country.uppercased())
  }
}
