import Forecast
import Meteorology

/// An `OpenWeatherMapAnswer` as OpenWeatherMap 2.5 writes it: the 5 day / 3 hour
/// forecast's `{"cod":"200","message":0,"cnt":…,"list":[…],"city":{…}}`, or the current
/// weather's object with `cod` 200.
///
/// Key names, nesting, types and rounding are OpenWeatherMap's: temperatures and speeds
/// with two decimals, pressure, humidity, cloud cover, wind direction and visibility as
/// integers, `pop` 0–1 with two decimals, `dt_txt` as `yyyy-MM-dd HH:mm:ss` in UTC. `rain`
/// and `snow` are left out when they round to zero, `wind.gust`, `visibility` and `pop`
/// when the store has no value; a value of `main` the store lacks is null.
public struct OpenWeatherMapDocument: Sendable {
  public let answer: OpenWeatherMapAnswer

  public init(answer: OpenWeatherMapAnswer) {
    self.answer = answer
  }

  /// Decimal places of temperatures and wind speeds, as OpenWeatherMap gives them.
  static let decimals = 2
  /// Decimal places of coordinates.
  static let coordinateDecimals = 4

  /// The forecast document.
  public func forecastJSON() -> [UInt8] {
    var out = JSONBytes(capacity: 512 + 640 * answer.entries.count)
    out.raw(#"{"cod":"200","message":0,"cnt":"#)
    out.integer(Int64(answer.entries.count))
    out.key("list")
    out.array(answer.entries) { out, entry in writeForecastEntry(entry, into: &out) }
    out.key("city")
    writeCity(into: &out)
    out.byte(UInt8(ascii: "}"))
    return out.bytes
  }

  /// The current weather document.
  public func weatherJSON() -> [UInt8] {
    var out = JSONBytes(capacity: 1_024)
    let city = answer.query.city
    out.byte(UInt8(ascii: "{"))
    out.key("coord", first: true)
    writeCoordinates(into: &out)
    if let entry = answer.entries.first {
      out.key("weather")
      writeWeather(entry, into: &out)
      out.key("base")
      out.string("model")
      out.key("main")
      writeMain(entry, forecast: false, into: &out)
      writeConditions(entry, amountKey: "1h", into: &out)
      out.key("dt")
      out.integer(entry.time)
    }
    out.key("sys")
    out.byte(UInt8(ascii: "{"))
    out.key("country", first: true)
    out.string(city.country)
    writeSun(into: &out)
    out.byte(UInt8(ascii: "}"))
    out.key("timezone")
    out.integer(Int64(city.utcOffset))
    out.key("id")
    out.integer(Int64(city.id))
    out.key("name")
    out.string(city.name)
    out.key("cod")
    out.integer(200)
    out.byte(UInt8(ascii: "}"))
    return out.bytes
  }

  func writeForecastEntry(_ entry: OpenWeatherMapAnswer.Entry, into out: inout JSONBytes) {
    out.byte(UInt8(ascii: "{"))
    out.key("dt", first: true)
    out.integer(entry.time)
    out.key("main")
    writeMain(entry, forecast: true, into: &out)
    out.key("weather")
    writeWeather(entry, into: &out)
    writeConditions(entry, amountKey: "3h", into: &out)
    if let probability = entry.precipitationProbability {
      out.key("pop")
      out.number(probability, decimals: 2)
    }
    out.key("sys")
    out.raw(entry.isDay ? #"{"pod":"d"}"# : #"{"pod":"n"}"#)
    out.key("dt_txt")
    out.byte(UInt8(ascii: "\""))
    out.localTime(entry.time, utcOffset: 0, separator: UInt8(ascii: " "), seconds: true)
    out.byte(UInt8(ascii: "\""))
    out.byte(UInt8(ascii: "}"))
  }

  /// `main`; the forecast's has OpenWeatherMap's `temp_kf`, always 0 (no correction).
  func writeMain(_ entry: OpenWeatherMapAnswer.Entry, forecast: Bool, into out: inout JSONBytes) {
    out.byte(UInt8(ascii: "{"))
    out.key("temp", first: true)
    out.number(entry.temperature, decimals: Self.decimals)
    out.key("feels_like")
    out.number(entry.feelsLike, decimals: Self.decimals)
    out.key("temp_min")
    out.number(entry.temperatureMinimum, decimals: Self.decimals)
    out.key("temp_max")
    out.number(entry.temperatureMaximum, decimals: Self.decimals)
    out.key("pressure")
    out.number(entry.seaLevelPressure, decimals: 0)
    out.key("sea_level")
    out.number(entry.seaLevelPressure, decimals: 0)
    out.key("grnd_level")
    out.number(entry.groundPressure, decimals: 0)
    out.key("humidity")
    out.number(entry.humidity, decimals: 0)
    if forecast {
      out.key("temp_kf")
      out.integer(0)
    }
    out.byte(UInt8(ascii: "}"))
  }

  /// `weather`: one condition, or none when the store has no weather code.
  func writeWeather(_ entry: OpenWeatherMapAnswer.Entry, into out: inout JSONBytes) {
    guard let condition = entry.condition?.presentation.openWeatherMap else {
      out.raw("[]")
      return
    }
    out.raw(#"[{"id":"#)
    out.integer(Int64(condition.id))
    out.key("main")
    out.string(condition.main)
    out.key("description")
    out.string(condition.description)
    out.key("icon")
    out.string(condition.icon(isDay: entry.isDay))
    out.raw("}]")
  }

  /// `clouds`, `wind`, `visibility`, then `rain` and `snow` under `amountKey` when they
  /// are not zero.
  func writeConditions(_ entry: OpenWeatherMapAnswer.Entry, amountKey: String, into out: inout JSONBytes) {
    out.key("clouds")
    out.raw(#"{"all":"#)
    out.number(entry.cloud, decimals: 0)
    out.byte(UInt8(ascii: "}"))
    out.key("wind")
    out.raw(#"{"speed":"#)
    out.number(entry.windSpeed, decimals: Self.decimals)
    out.key("deg")
    out.number(entry.windDirection, decimals: 0)
    if let gust = entry.windGust {
      out.key("gust")
      out.number(gust, decimals: Self.decimals)
    }
    out.byte(UInt8(ascii: "}"))
    if let visibility = entry.visibility {
      out.key("visibility")
      out.number(visibility, decimals: 0)
    }
    for (name, amount) in [("rain", entry.rain), ("snow", entry.snow)] {
      guard let amount, (amount * 100).rounded() > 0 else { continue }
      out.key(name)
      out.byte(UInt8(ascii: "{"))
      out.key(amountKey, first: true)
      out.number(amount, decimals: Self.decimals)
      out.byte(UInt8(ascii: "}"))
    }
  }

  /// `/weather`'s `coord`: the point answered (the forecast's `city.coord` is the place's).
  func writeCoordinates(into out: inout JSONBytes) {
    out.raw(#"{"lon":"#)
    out.number(answer.query.request.longitude, decimals: Self.coordinateDecimals)
    out.key("lat")
    out.number(answer.query.request.latitude, decimals: Self.coordinateDecimals)
    out.byte(UInt8(ascii: "}"))
  }

  /// `sunrise` and `sunset`, each left out on a day without one.
  func writeSun(into out: inout JSONBytes) {
    let city = answer.query.city
    if let sunrise = city.sunrise {
      out.key("sunrise")
      out.integer(sunrise)
    }
    if let sunset = city.sunset {
      out.key("sunset")
      out.integer(sunset)
    }
  }

  func writeCity(into out: inout JSONBytes) {
    let city = answer.query.city
    out.byte(UInt8(ascii: "{"))
    out.key("id", first: true)
    out.integer(Int64(city.id))
    out.key("name")
    out.string(city.name)
    out.key("coord")
    out.raw(#"{"lat":"#)
    out.number(city.latitude, decimals: Self.coordinateDecimals)
    out.key("lon")
    out.number(city.longitude, decimals: Self.coordinateDecimals)
    out.byte(UInt8(ascii: "}"))
    out.key("country")
    out.string(city.country)
    out.key("population")
    out.integer(Int64(city.population))
    out.key("timezone")
    out.integer(Int64(city.utcOffset))
    writeSun(into: &out)
    out.byte(UInt8(ascii: "}"))
  }
}
