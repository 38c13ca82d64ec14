import FaceKit
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
    out.literalKey("list")
    out.array(answer.entries) { out, entry in writeForecastEntry(entry, into: &out) }
    out.literalKey("city")
    writeCity(into: &out)
    out.byte(UInt8(ascii: "}"))
    return out.bytes
  }

  /// The current weather document.
  public func weatherJSON() -> [UInt8] {
    var out = JSONBytes(capacity: 1_024)
    let city = answer.query.city
    out.byte(UInt8(ascii: "{"))
    out.literalKey("coord", first: true)
    writeCoordinates(into: &out)
    if let entry = answer.entries.first {
      out.literalKey("weather")
      writeWeather(entry, into: &out)
      out.literalKey("base")
      out.string("model")
      out.literalKey("main")
      writeMain(entry, forecast: false, into: &out)
      writeConditions(entry, amountKey: "1h", into: &out)
      out.literalKey("dt")
      out.integer(entry.time)
    }
    out.literalKey("sys")
    out.byte(UInt8(ascii: "{"))
    out.literalKey("country", first: true)
    out.string(city.country)
    writeSun(into: &out)
    out.byte(UInt8(ascii: "}"))
    out.literalKey("timezone")
    out.integer(Int64(city.utcOffset))
    out.literalKey("id")
    out.integer(Int64(city.id))
    out.literalKey("name")
    out.string(city.name)
    out.literalKey("cod")
    out.integer(200)
    out.byte(UInt8(ascii: "}"))
    return out.bytes
  }

  func writeForecastEntry(_ entry: OpenWeatherMapAnswer.Entry, into out: inout JSONBytes) {
    out.byte(UInt8(ascii: "{"))
    out.literalKey("dt", first: true)
    out.integer(entry.time)
    out.literalKey("main")
    writeMain(entry, forecast: true, into: &out)
    out.literalKey("weather")
    writeWeather(entry, into: &out)
    writeConditions(entry, amountKey: "3h", into: &out)
    if let probability = entry.precipitationProbability {
      out.literalKey("pop")
      out.number(probability, decimals: 2)
    }
    out.literalKey("sys")
    out.raw(entry.isDay ? #"{"pod":"d"}"# : #"{"pod":"n"}"#)
    out.literalKey("dt_txt")
    out.byte(UInt8(ascii: "\""))
    out.localTime(entry.time, utcOffset: 0, separator: UInt8(ascii: " "), seconds: true)
    out.byte(UInt8(ascii: "\""))
    out.byte(UInt8(ascii: "}"))
  }

  /// `main`; the forecast's has OpenWeatherMap's `temp_kf`, always 0 (no correction).
  func writeMain(_ entry: OpenWeatherMapAnswer.Entry, forecast: Bool, into out: inout JSONBytes) {
    out.byte(UInt8(ascii: "{"))
    out.literalKey("temp", first: true)
    out.number(entry.temperature, decimals: Self.decimals)
    out.literalKey("feels_like")
    out.number(entry.feelsLike, decimals: Self.decimals)
    out.literalKey("temp_min")
    out.number(entry.temperatureMinimum, decimals: Self.decimals)
    out.literalKey("temp_max")
    out.number(entry.temperatureMaximum, decimals: Self.decimals)
    out.literalKey("pressure")
    out.number(entry.seaLevelPressure, decimals: 0)
    out.literalKey("sea_level")
    out.number(entry.seaLevelPressure, decimals: 0)
    out.literalKey("grnd_level")
    out.number(entry.groundPressure, decimals: 0)
    out.literalKey("humidity")
    out.number(entry.humidity, decimals: 0)
    if forecast {
      out.literalKey("temp_kf")
      out.integer(0)
    }
    out.byte(UInt8(ascii: "}"))
  }

  /// `weather`: one condition, or none when the store has no weather code.
  func writeWeather(_ entry: OpenWeatherMapAnswer.Entry, into out: inout JSONBytes) {
    guard let condition = entry.condition else {
      out.raw("[]")
      return
    }
    out.append(Self.conditions[condition.significance * 2 + (entry.isDay ? 1 : 0)])
  }

  /// Every code's `weather` array by night and by day, at `significance · 2 + (day ? 1 : 0)`,
  /// written once: a forecast writes forty of them.
  static let conditions: [[UInt8]] = {
    var table = [[UInt8]](repeating: [], count: WeatherCode.allCases.count * 2)
    for code in WeatherCode.allCases {
      let condition = code.openWeatherMap
      for isDay in [false, true] {
        var out = JSONBytes(capacity: 128)
        out.raw(#"[{"id":"#)
        out.integer(Int64(condition.id))
        out.literalKey("main")
        out.string(condition.main)
        out.literalKey("description")
        out.string(condition.description)
        out.literalKey("icon")
        out.string(condition.icon(isDay: isDay))
        out.raw("}]")
        table[code.significance * 2 + (isDay ? 1 : 0)] = out.bytes
      }
    }
    return table
  }()

  /// `clouds`, `wind`, `visibility`, then `rain` and `snow` under `amountKey` when they
  /// are not zero.
  func writeConditions(_ entry: OpenWeatherMapAnswer.Entry, amountKey: StaticString, into out: inout JSONBytes) {
    out.literalKey("clouds")
    out.raw(#"{"all":"#)
    out.number(entry.cloud, decimals: 0)
    out.byte(UInt8(ascii: "}"))
    out.literalKey("wind")
    out.raw(#"{"speed":"#)
    out.number(entry.windSpeed, decimals: Self.decimals)
    out.literalKey("deg")
    out.number(entry.windDirection, decimals: 0)
    if let gust = entry.windGust {
      out.literalKey("gust")
      out.number(gust, decimals: Self.decimals)
    }
    out.byte(UInt8(ascii: "}"))
    if let visibility = entry.visibility {
      out.literalKey("visibility")
      out.number(visibility, decimals: 0)
    }
    for (name, amount) in [("rain" as StaticString, entry.rain), ("snow", entry.snow)] {
      guard let amount, (amount * 100).rounded() > 0 else { continue }
      out.literalKey(name)
      out.byte(UInt8(ascii: "{"))
      out.literalKey(amountKey, first: true)
      out.number(amount, decimals: Self.decimals)
      out.byte(UInt8(ascii: "}"))
    }
  }

  /// `/weather`'s `coord`: the point answered (the forecast's `city.coord` is the place's).
  func writeCoordinates(into out: inout JSONBytes) {
    out.raw(#"{"lon":"#)
    out.number(answer.query.request.longitude, decimals: Self.coordinateDecimals)
    out.literalKey("lat")
    out.number(answer.query.request.latitude, decimals: Self.coordinateDecimals)
    out.byte(UInt8(ascii: "}"))
  }

  /// `sunrise` and `sunset`, each left out on a day without one.
  func writeSun(into out: inout JSONBytes) {
    let city = answer.query.city
    if let sunrise = city.sunrise {
      out.literalKey("sunrise")
      out.integer(sunrise)
    }
    if let sunset = city.sunset {
      out.literalKey("sunset")
      out.integer(sunset)
    }
  }

  func writeCity(into out: inout JSONBytes) {
    let city = answer.query.city
    out.byte(UInt8(ascii: "{"))
    out.literalKey("id", first: true)
    out.integer(Int64(city.id))
    out.literalKey("name")
    out.string(city.name)
    out.literalKey("coord")
    out.raw(#"{"lat":"#)
    out.number(city.latitude, decimals: Self.coordinateDecimals)
    out.literalKey("lon")
    out.number(city.longitude, decimals: Self.coordinateDecimals)
    out.byte(UInt8(ascii: "}"))
    out.literalKey("country")
    out.string(city.country)
    out.literalKey("population")
    out.integer(Int64(city.population))
    out.literalKey("timezone")
    out.integer(Int64(city.utcOffset))
    writeSun(into: &out)
    out.byte(UInt8(ascii: "}"))
  }
}
