import FaceKit
import Forecast
import Meteorology

/// A `DarkSkyAnswer` as Dark Sky wrote it: `latitude`, `longitude`, `timezone`, `offset`,
/// then the blocks `currently`, `minutely`, `hourly`, `daily`, `alerts` and `flags`, each
/// left out when excluded (and `alerts` when there are none, as Dark Sky did). A value
/// the store does not have is left out of its data point, as Dark Sky left out what it
/// did not know.
///
/// Values are converted to the query's `DarkSkyUnits` with `Meteorology`'s conversions;
/// shares are 0–1. nwpcube adds `flags.nwpcube-minutely-step`, the step (seconds) of the
/// run the minutes came from.
public struct DarkSkyDocument: Sendable {
  public let answer: DarkSkyAnswer
  /// The warnings in force, for `alerts`.
  public let alerts: [DarkSkyAlert]
  /// `hourly` and `daily` written already, from the outlook `answer` was made with.
  public let written: WrittenBlocks?

  /// `written`, when given, must have been written from the outlook of `answer` in its
  /// query's units.
  public init(answer: DarkSkyAnswer, alerts: [DarkSkyAlert] = [], written: WrittenBlocks? = nil) {
    self.answer = answer
    self.alerts = alerts
    self.written = written
  }

  /// The `hourly` and `daily` members of a document, as bytes: what an outlook gives every
  /// document made from it, written once (the two blocks are most of a document's bytes).
  public struct WrittenBlocks: Sendable {
    let hourly: [UInt8]
    let daily: [UInt8]

    /// `outlook`'s blocks in `query`'s units, as a document of `query` writes them.
    public init(_ outlook: DarkSkyOutlook, query: DarkSkyQuery) {
      var writer = Writer(units: query.units.system)
      writer.hourly(outlook.hourly, excluded: query.excluded)
      hourly = writer.out.bytes
      var dailyWriter = Writer(units: query.units.system)
      dailyWriter.daily(outlook.daily, excluded: query.excluded)
      daily = dailyWriter.out.bytes
    }
  }

  /// The document as UTF-8 JSON.
  public var jsonBytes: [UInt8] { withJSON { Array($0) } }

  /// Lends the document's UTF-8 JSON to `body` without copying it, so that a server copies
  /// it once, into its response.
  public func withJSON<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    var writer = Writer(units: answer.query.units.system)
    writer.document(self)
    return try writer.out.withBytes(body)
  }

  /// The document as JSON text.
  public var json: String { String(decoding: jsonBytes, as: UTF8.self) }
}

extension DarkSkyDocument {
  /// Writes the document, with each quantity's conversion found once.
  struct Writer: ~Copyable {
    var out = JSONBytes(capacity: 64 * 1_024)
    let temperature: UnitConversion
    let wind: UnitConversion
    let rate: UnitConversion
    let pressure: UnitConversion
    let visibility: UnitConversion
    let share: UnitConversion
    let temperatureLabel: String

    init(units: UnitSystem) {
      temperature = units.conversion(of: .temp)
      wind = units.conversion(of: .windVel)
      rate = units.conversion(of: .rain)
      pressure = units.conversion(of: .atmPress)
      visibility = units.conversion(of: .visibility)
      share = units.conversion(of: .hum)
      temperatureLabel = units.temperature.label
    }

    mutating func document(_ document: DarkSkyDocument) {
      let answer = document.answer
      let query = answer.query
      let excluded = query.excluded
      out.byte(UInt8(ascii: "{"))
      out.literalKey("latitude", first: true)
      out.number(query.request.latitude, decimals: 6)
      out.literalKey("longitude")
      out.number(query.request.longitude, decimals: 6)
      out.literalKey("timezone")
      out.string(query.timeZoneName)
      out.literalKey("offset")
      out.number(Double(query.request.timeZone.utcOffset(at: query.time)) / 3_600, decimals: 2)
      let current = answer.currently.map(DarkSkySummary.point)
      if !excluded.contains(.currently), let hour = answer.currently, let current {
        out.literalKey("currently")
        point(hour, text: current)
      }
      if let minutes = answer.minutely {
        out.literalKey("minutely")
        let type =
          answer.currently?.precipitationType ?? answer.hourly?.first(where: \.isWet)?.precipitationType
        let text = DarkSkySummary.minutes(
          minutes.map(\.precipitation), type: type,
          current: current ?? DarkSkySummary.Text(summary: "Clear", icon: "clear-day"))
        block(text, minutes) { writer, minute in
          writer.out.byte(UInt8(ascii: "{"))
          writer.out.literalKey("time", first: true)
          writer.out.integer(minute.time)
          writer.value("precipIntensity", minute.precipitation, writer.rate, decimals: 4)
          writer.value("precipProbability", minute.probability, writer.share, decimals: 2)
          writer.out.byte(UInt8(ascii: "}"))
        }
      }
      if let written = document.written {
        out.append(written.hourly)
        out.append(written.daily)
      } else {
        hourly(answer.hourly, excluded: excluded)
        daily(answer.daily, excluded: excluded)
      }
      if !excluded.contains(.alerts), !document.alerts.isEmpty {
        out.literalKey("alerts")
        out.array(document.alerts) { out, alert in Self.alert(alert, into: &out) }
      }
      if !excluded.contains(.flags) {
        out.literalKey("flags")
        out.byte(UInt8(ascii: "{"))
        out.literalKey("sources", first: true)
        out.array(answer.sources) { out, name in out.string(name) }
        out.literalKey("nearest-station")
        out.integer(0)
        out.literalKey("units")
        out.string(query.units.rawValue)
        if let step = answer.minutelyStep {
          out.literalKey("nwpcube-minutely-step")
          out.integer(step)
        }
        out.byte(UInt8(ascii: "}"))
      }
      out.byte(UInt8(ascii: "}"))
    }

    /// `,"hourly":{…}`, nothing when excluded.
    mutating func hourly(_ hours: [DarkSkyHour]?, excluded: Set<DarkSkyQuery.Block>) {
      guard let hours, !excluded.contains(.hourly) else { return }
      out.literalKey("hourly")
      block(DarkSkySummary.hours(hours), hours) { writer, hour in writer.point(hour, text: DarkSkySummary.point(hour)) }
    }

    /// `,"daily":{…}`, nothing when excluded.
    mutating func daily(_ days: [DarkSkyDay]?, excluded: Set<DarkSkyQuery.Block>) {
      guard let days, !excluded.contains(.daily) else { return }
      out.literalKey("daily")
      let week = days.map { day in
        DarkSkySummary.Day(
          date: day.day.date, precipitation: day.precipitation, type: day.precipType, text: day.text,
          high: day.temperatureHigh.map { temperature($0.value) })
      }
      block(DarkSkySummary.week(week, temperatureUnit: temperatureLabel), days) { writer, day in writer.day(day) }
    }

    /// `{"summary":…,"icon":…,"data":[…]}`, each item written by `write`.
    mutating func block<Item>(_ text: DarkSkySummary.Text, _ items: [Item], _ write: (inout Writer, Item) -> Void) {
      out.byte(UInt8(ascii: "{"))
      out.literalKey("summary", first: true)
      out.string(text.summary)
      out.literalKey("icon")
      out.string(text.icon)
      out.literalKey("data")
      out.byte(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { out.byte(UInt8(ascii: ",")) }
        write(&self, item)
      }
      out.byte(UInt8(ascii: "]"))
      out.byte(UInt8(ascii: "}"))
    }

    /// `,"name":value` converted, nothing when the value is unknown.
    mutating func value(_ name: StaticString, _ value: Double?, _ conversion: UnitConversion, decimals: Int) {
      guard let value, value.isFinite else { return }
      out.literalKey(name)
      out.number(conversion(value), decimals: decimals)
    }

    mutating func integer(_ name: StaticString, _ value: Double?) {
      guard let value, value.isFinite, abs(value) < 1e15 else { return }
      out.literalKey(name)
      out.integer(Int64(value.rounded()))
    }

    mutating func time(_ name: StaticString, _ extreme: DarkSkyDay.Extreme?) {
      guard let extreme else { return }
      out.literalKey(name)
      out.integer(extreme.time)
    }

    /// `currently` or an hour of `hourly`.
    mutating func point(_ hour: DarkSkyHour, text: DarkSkySummary.Text) {
      out.byte(UInt8(ascii: "{"))
      out.literalKey("time", first: true)
      out.integer(hour.time)
      out.literalKey("summary")
      out.string(text.summary)
      out.literalKey("icon")
      out.string(text.icon)
      value("precipIntensity", hour.precipitation, rate, decimals: 4)
      value("precipProbability", hour.probability, share, decimals: 2)
      if let type = hour.precipitationType {
        out.literalKey("precipType")
        out.string(type.rawValue)
      }
      value("temperature", hour.temperature, temperature, decimals: 2)
      value("apparentTemperature", hour.apparentTemperature, temperature, decimals: 2)
      value("dewPoint", hour.dewPoint, temperature, decimals: 2)
      value("humidity", hour.humidity, share, decimals: 2)
      value("pressure", hour.pressure, pressure, decimals: 1)
      value("windSpeed", hour.windSpeed, wind, decimals: 2)
      value("windGust", hour.windGust, wind, decimals: 2)
      integer("windBearing", hour.windBearing.map { $0.rounded() == 360 ? 0 : $0 })
      value("cloudCover", hour.cloudCover, share, decimals: 2)
      integer("uvIndex", hour.uvIndex.map(Double.init))
      value("visibility", hour.visibility, visibility, decimals: 2)
      out.byte(UInt8(ascii: "}"))
    }

    mutating func day(_ day: DarkSkyDay) {
      out.byte(UInt8(ascii: "{"))
      out.literalKey("time", first: true)
      out.integer(day.day.start)
      out.literalKey("summary")
      out.string(day.text.summary)
      out.literalKey("icon")
      out.string(day.text.icon)
      if let sunrise = day.sunrise {
        out.literalKey("sunriseTime")
        out.integer(sunrise)
      }
      if let sunset = day.sunset {
        out.literalKey("sunsetTime")
        out.integer(sunset)
      }
      value("moonPhase", day.moonPhase, .identity, decimals: 2)
      value("precipIntensity", day.precipIntensity, rate, decimals: 4)
      value("precipIntensityMax", day.precipIntensityMax?.value, rate, decimals: 4)
      time("precipIntensityMaxTime", day.precipIntensityMax)
      value("precipProbability", day.precipProbability, share, decimals: 2)
      if let type = day.precipType {
        out.literalKey("precipType")
        out.string(type.rawValue)
      }
      extreme("temperatureHigh", "temperatureHighTime", day.temperatureHigh)
      extreme("temperatureLow", "temperatureLowTime", day.temperatureLow)
      extreme("apparentTemperatureHigh", "apparentTemperatureHighTime", day.apparentTemperatureHigh)
      extreme("apparentTemperatureLow", "apparentTemperatureLowTime", day.apparentTemperatureLow)
      value("dewPoint", day.dewPoint, temperature, decimals: 2)
      value("humidity", day.humidity, share, decimals: 2)
      value("pressure", day.pressure, pressure, decimals: 1)
      value("windSpeed", day.windSpeed, wind, decimals: 2)
      value("windGust", day.windGust?.value, wind, decimals: 2)
      time("windGustTime", day.windGust)
      integer("windBearing", day.windBearing.map { $0.rounded() == 360 ? 0 : $0 })
      value("cloudCover", day.cloudCover, share, decimals: 2)
      integer("uvIndex", day.uvIndex?.value)
      time("uvIndexTime", day.uvIndex)
      value("visibility", day.visibility, visibility, decimals: 2)
      extreme("temperatureMin", "temperatureMinTime", day.temperatureMin)
      extreme("temperatureMax", "temperatureMaxTime", day.temperatureMax)
      extreme("apparentTemperatureMin", "apparentTemperatureMinTime", day.apparentTemperatureMin)
      extreme("apparentTemperatureMax", "apparentTemperatureMaxTime", day.apparentTemperatureMax)
      out.byte(UInt8(ascii: "}"))
    }

    /// A temperature and its time, `name` and `timeName` (`name` + `Time`: spelt out, since
    /// joining them made a string for every value).
    mutating func extreme(_ name: StaticString, _ timeName: StaticString, _ extreme: DarkSkyDay.Extreme?) {
      value(name, extreme?.value, temperature, decimals: 2)
      time(timeName, extreme)
    }

    static func alert(_ alert: DarkSkyAlert, into out: inout JSONBytes) {
      out.byte(UInt8(ascii: "{"))
      out.literalKey("title", first: true)
      out.string(alert.title)
      out.literalKey("regions")
      out.array(alert.regions) { out, region in out.string(region) }
      out.literalKey("severity")
      out.string(alert.severity)
      out.literalKey("time")
      out.integer(alert.time)
      out.literalKey("expires")
      out.integer(alert.expires)
      out.literalKey("description")
      out.string(alert.description)
      out.literalKey("uri")
      out.string(alert.uri)
      out.byte(UInt8(ascii: "}"))
    }
  }
}
