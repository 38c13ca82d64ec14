import Forecast
import Foundation
import Meteorology
import Testing
import UTCTime
import _TestSupport

@testable import FaceKit
@testable import HTTPService
@testable import OpenMeteoFace

/// `/v1/forecast` as Open-Meteo's clients see it, against a real server over the sample run
/// (clock 2026-06-21 10:07 UTC): Open-Meteo's names give nwpcube's numbers, times are local
/// without an offset or Unix seconds, units and defaults are Open-Meteo's, and errors have
/// its shape.
@Suite struct OpenMeteoCompatibilityTests {
  static let point = "latitude=38.1294&longitude=-8.9341"
  static let day = "start_date=2026-06-21&end_date=2026-06-21"

  static func get(_ query: String, server: LiveServer? = nil) async throws -> [String: Any] {
    var live = server
    if live == nil { live = try await SampleService.server() }
    guard let live else { throw HTTPTestError.serverDidNotStart("no server") }
    let answer = try await live.client.get("/v1/forecast?\(query)")
    #expect(answer.status == 200, "\(query): \(answer.body.prefix(300))")
    return try #require(answer.json as? [String: Any], "\(answer.body.prefix(300))")
  }

  static func column(_ object: [String: Any], _ block: String, _ name: String) throws -> [Double?] {
    let values = try #require((object[block] as? [String: Any])?[name] as? [Any], "\(block).\(name)")
    return values.map { ($0 as? NSNumber)?.doubleValue }
  }

  /// The same numbers with Open-Meteo's names as with nwpcube's, in the same units. Not
  /// `precipitation` and nwpcube's `rain`: on /v1/forecast `rain` is Open-Meteo's (the
  /// non-convective part), which `derivedVariablesFollowTheirDefinitions` checks.
  @Test func openMeteoNamesGiveTheNumbersOfNwpcubesNames() async throws {
    let pairs = [
      ("temperature_2m", "temp"), ("relative_humidity_2m", "hum"), ("dew_point_2m", "dew_point"),
      ("apparent_temperature", "apparent_temp"), ("showers", "showers"),
      ("snowfall", "snowfall"), ("weather_code", "weather_code"), ("pressure_msl", "atm_press"),
      ("surface_pressure", "sfc_press"), ("cloud_cover", "cloud"), ("cloud_cover_low", "cloud_low"),
      ("cloud_cover_mid", "cloud_mid"), ("cloud_cover_high", "cloud_high"), ("visibility", "visibility"),
      ("wind_speed_10m", "wind_vel"), ("wind_direction_10m", "wind_dir"), ("wind_gusts_10m", "wind_gusts"),
      ("is_day", "is_day"), ("precipitation_probability", "precipitation_probability"),
    ]
    let om = try await Self.get(
      "\(Self.point)&\(Self.day)&hourly=\(pairs.map(\.0).joined(separator: ","))"
        + "&current=\(pairs.map(\.0).joined(separator: ","))")
    let own = try await Self.get(
      "\(Self.point)&\(Self.day)&hourly=\(pairs.map(\.1).joined(separator: ","))"
        + "&current=\(pairs.map(\.1).joined(separator: ","))")
    for (name, alias) in pairs {
      let values = try Self.column(om, "hourly", name)
      #expect(values.count == 24)
      #expect(values == (try Self.column(own, "hourly", alias)), "\(name) vs \(alias)")
      #expect(values.contains { $0 != nil }, "\(name) is all null")
      #expect(
        (om["current"] as? [String: Any])?[name] as? NSNumber == (own["current"] as? [String: Any])?[alias] as? NSNumber
      )
      #expect((om["hourly_units"] as? [String: String])?[name] == (own["hourly_units"] as? [String: String])?[alias])
    }
    let dailyPairs = [
      ("temperature_2m_max", "temp_max"), ("temperature_2m_min", "temp_min"),
      ("wind_direction_10m_dominant", "wind_dir_dominant"), ("wind_speed_10m_max", "wind_vel_max"),
      ("precipitation_hours", "precipitation_hours"), ("sunrise", "sunrise"),
    ]
    let omDaily = try await Self.get(
      "\(Self.point)&start_date=2026-06-20&end_date=2026-06-22&daily=\(dailyPairs.map(\.0).joined(separator: ","))")
    let ownDaily = try await Self.get(
      "\(Self.point)&start_date=2026-06-20&end_date=2026-06-22&daily=\(dailyPairs.map(\.1).joined(separator: ","))")
    for (name, alias) in dailyPairs {
      let a = (omDaily["daily"] as? [String: Any])?[name] as? [Any]
      let b = (ownDaily["daily"] as? [String: Any])?[alias] as? [Any]
      #expect(a != nil && a.map { "\($0)" } == b.map { "\($0)" }, "\(name) vs \(alias)")
    }
  }

  /// Lists given as repeated keys, commas or both are the same request, as Open-Meteo's
  /// SDKs send them; a single value given twice takes the last; zero counts go with a date
  /// range; a zone per location; `location_id` comes back in errors.
  @Test func parametersAreReadAsOpenMeteoReadsThem() async throws {
    let client = try await SampleService.server().client
    func body(_ query: String) async throws -> String {
      let answer = try await client.get("/v1/forecast?\(query)&\(Self.day)")
      #expect(answer.status == 200, "\(query): \(answer.body.prefix(300))")
      // The time spent differs from one request to the next.
      return answer.body.replacing(/"generationtime_ms":[0-9.]+/, with: "")
    }
    let commas = try await body(
      "latitude=38.1294,38.7223&longitude=-8.9341,-9.1393&hourly=temperature_2m,precipitation,wind_speed_10m")
    let repeated = try await body(
      "latitude=38.1294&latitude=38.7223&longitude=-8.9341&longitude=-9.1393"
        + "&hourly=temperature_2m&hourly=precipitation&hourly=wind_speed_10m")
    let mixed = try await body(
      "latitude=38.1294&latitude=38.7223&longitude=-8.9341,-9.1393&hourly=temperature_2m,precipitation"
        + "&hourly[]=wind_speed_10m")
    #expect(commas.hasPrefix("[{"))
    #expect(repeated == commas)
    #expect(mixed == commas)
    let lastWins = try await body("\(Self.point)&hourly=temperature_2m&wind_speed_unit=mph&wind_speed_unit=ms")
    #expect(lastWins == (try await body("\(Self.point)&hourly=temperature_2m&wind_speed_unit=ms")))
    let zeros = try await body("\(Self.point)&hourly=temperature_2m&forecast_days=0&past_days=0")
    #expect(zeros == (try await body("\(Self.point)&hourly=temperature_2m")))
    let zones = try await client.get(
      "/v1/forecast?latitude=38.1294,38.7223&longitude=-8.9341,-9.1393&hourly=temperature_2m"
        + "&timezone=Europe/Lisbon&timezone=Atlantic/Azores&\(Self.day)")
    let names = (zones.json as? [[String: Any]])?.map { $0["timezone"] as? String }
    #expect(names == ["Europe/Lisbon", "Atlantic/Azores"])
    let failed = try await client.get(
      "/v1/forecast?latitude=38.1294,0&longitude=-8.9341,0&location_id=17,42&hourly=temperature_2m&\(Self.day)")
    #expect(failed.openMeteoReason?.hasPrefix("location_id 42 (latitude 0.0, longitude 0.0)") == true, "\(failed.body)")
  }

  /// Every Open-Meteo name the table maps is answered, keyed as asked, with its unit.
  @Test func everyOpenMeteoVariableIsAnswered() async throws {
    let hourly = OpenMeteoNames.hourly.map(\.name)
    let daily = OpenMeteoNames.daily.map(\.name)
    #expect(hourly.count == 23 && daily.count == 18)
    let object = try await Self.get(
      "\(Self.point)&start_date=2026-06-20&end_date=2026-06-22&hourly=\(hourly.joined(separator: ","))"
        + "&daily=\(daily.joined(separator: ","))&current=\(hourly.joined(separator: ","))")
    let units = try #require(object["hourly_units"] as? [String: String])
    // The sample run is WRF output without SNOWH: snow_depth is null, and says why.
    let reasons = try #require(object["unavailable"] as? [String: String], "\(object.keys)")
    #expect(reasons.keys.sorted() == ["snow_depth"], "\(reasons)")
    #expect(
      reasons["snow_depth"]?.hasPrefix("not in this cube: derived from SNOWH, which the WRF input lacked") == true)
    for name in hourly {
      let values = try Self.column(object, "hourly", name)
      #expect(values.count == 72 && values.contains { $0 != nil } == (name != "snow_depth"), "hourly \(name)")
      #expect(units[name] != nil, "hourly_units \(name)")
      #expect((object["current"] as? [String: Any])?[name] != nil, "current \(name)")
    }
    let dailyObject = try #require(object["daily"] as? [String: Any])
    for name in daily {
      let values = try #require(dailyObject[name] as? [Any], "daily \(name)")
      #expect(values.count == 3 && values.contains { !($0 is NSNull) }, "daily \(name)")
    }
    let expected = [
      "temperature_2m": "°C", "relative_humidity_2m": "%", "precipitation": "mm", "snowfall": "cm",
      "weather_code": "wmo code", "pressure_msl": "hPa", "cloud_cover": "%", "visibility": "m",
      "wind_speed_10m": "km/h", "wind_direction_10m": "°", "shortwave_radiation": "W/m²", "is_day": "",
      "snow_depth": "m",
    ]
    for (name, unit) in expected { #expect(units[name] == unit, "\(name): \(units[name] ?? "none")") }
    let dailyUnits = try #require(object["daily_units"] as? [String: String])
    #expect(dailyUnits["shortwave_radiation_sum"] == "MJ/m²" && dailyUnits["daylight_duration"] == "s")
    #expect(dailyUnits["sunrise"] == "iso8601" && dailyUnits["precipitation_hours"] == "h")
    for value in try Self.column(object, "hourly", "is_day") { #expect(value == 0 || value == 1) }
  }

  /// `rain` is the liquid non-convective part; `shortwave_radiation` the mean of the hour.
  @Test func derivedVariablesFollowTheirDefinitions() async throws {
    let object = try await Self.get(
      "\(Self.point)&start_date=2026-06-20&end_date=2026-06-21&hourly=rain,precipitation,showers,snow,"
        + "shortwave_radiation,shortwave&daily=rain_sum,shortwave_radiation_sum,shortwave_sum")
    let (liquid, total, showers, snow) = try (
      Self.column(object, "hourly", "rain"), Self.column(object, "hourly", "precipitation"),
      Self.column(object, "hourly", "showers"), Self.column(object, "hourly", "snow")
    )
    for hour in liquid.indices {
      let expected = try max(0, #require(total[hour]) - #require(showers[hour]) - #require(snow[hour]))
      #expect(abs(try #require(liquid[hour]) - expected) < 0.006, "hour \(hour)")
    }
    let (mean, flux) = try (
      Self.column(object, "hourly", "shortwave_radiation"), Self.column(object, "hourly", "shortwave")
    )
    for hour in 1..<mean.count {
      let expected = (try #require(flux[hour - 1]) + #require(flux[hour])) / 2
      #expect(abs(try #require(mean[hour]) - expected) < 0.06, "hour \(hour)")
    }
    let sums = try Self.column(object, "daily", "shortwave_sum")
    let energy = try Self.column(object, "daily", "shortwave_radiation_sum")
    for day in sums.indices { #expect(abs(try #require(energy[day]) - #require(sums[day]) * 0.0036) < 0.006) }
  }

  /// Times are local wall-clock `yyyy-MM-ddTHH:mm` without an offset, or Unix seconds.
  @Test func timesAreLocalWithoutAnOffsetOrUnixSeconds() async throws {
    let query = "\(Self.point)&hourly=temperature_2m&daily=sunrise,sunset&current=temperature_2m&timezone=Europe/Lisbon"
    let iso = try await Self.get(query + "&forecast_days=2")
    let times = try #require((iso["hourly"] as? [String: Any])?["time"] as? [String])
    let pattern = #/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$/#
    #expect(times.count == 48 && times.allSatisfy { $0.wholeMatch(of: pattern) != nil })
    #expect(times.first == "2026-06-21T00:00")
    let daily = try #require(iso["daily"] as? [String: Any])
    #expect(daily["time"] as? [String] == ["2026-06-21", "2026-06-22"])
    for sunrise in daily["sunrise"] as? [String] ?? [] { #expect(sunrise.wholeMatch(of: pattern) != nil) }
    let unix = try await Self.get(query + "&forecast_days=2&timeformat=unixtime")
    let instants = try #require((unix["hourly"] as? [String: Any])?["time"] as? [Int])
    let midnight = try #require(UTC.seconds(year: 2026, month: 6, day: 20, hour: 23))
    #expect(instants == (0..<48).map { Int(midnight) + $0 * 3600 })
    #expect((unix["hourly_units"] as? [String: String])?["time"] == "unixtime")
    #expect((unix["current"] as? [String: Any])?["time"] as? Int == Int(SampleService.now - SampleService.now % 900))
    let sunrises = try #require((unix["daily"] as? [String: Any])?["sunrise"] as? [Int])
    // Sunrise at 38° N in June is about 06:10 local, 05:10 UTC.
    #expect(sunrises.count == 2 && sunrises.allSatisfy { ($0 - Int(midnight)) % 86_400 > 5 * 3600 })
  }

  /// `forecast_hours` and `past_hours` count from the current hour; `start_hour`/`end_hour`
  /// are local and inclusive; `minutely_15` says how it was made.
  @Test func hourWindowsAndQuarterHours() async throws {
    let window = try await Self.get("\(Self.point)&hourly=temperature_2m&forecast_hours=5&past_hours=2")
    #expect(
      (window["hourly"] as? [String: Any])?["time"] as? [String] == [
        "2026-06-21T08:00", "2026-06-21T09:00", "2026-06-21T10:00", "2026-06-21T11:00", "2026-06-21T12:00",
        "2026-06-21T13:00", "2026-06-21T14:00",
      ])
    let range = try await Self.get(
      "\(Self.point)&hourly=temperature_2m&timezone=Europe/Lisbon&start_hour=2026-06-21T06:00&end_hour=2026-06-21T09:00&timeformat=unixtime"
    )
    let five = try #require(UTC.seconds(year: 2026, month: 6, day: 21, hour: 5))
    #expect((range["hourly"] as? [String: Any])?["time"] as? [Int] == (0..<4).map { Int(five) + $0 * 3600 })
    let quarters = try await Self.get(
      "\(Self.point)&minutely_15=temperature_2m,precipitation&hourly=temperature_2m,precipitation&\(Self.day)")
    let times = try #require((quarters["minutely_15"] as? [String: Any])?["time"] as? [String])
    #expect(times.count == 96 && times[1] == "2026-06-21T00:15")
    #expect(
      (quarters["minutely_15_interpolation"] as? String)?.hasPrefix("interpolated from the model's 60 min") == true)
    let hourlyTemperature = try Self.column(quarters, "hourly", "temperature_2m")
    let quarterTemperature = try Self.column(quarters, "minutely_15", "temperature_2m")
    let hourlyRain = try Self.column(quarters, "hourly", "precipitation")
    let quarterRain = try Self.column(quarters, "minutely_15", "precipitation")
    for hour in 0..<23 {
      #expect(quarterTemperature[hour * 4] == hourlyTemperature[hour])
      let a = try #require(hourlyTemperature[hour]), b = try #require(hourlyTemperature[hour + 1])
      #expect(abs(try #require(quarterTemperature[hour * 4 + 2]) - (a + b) / 2) < 0.006)
      // The hour ending at h+1 spread over its quarters.
      let rain = try #require(hourlyRain[hour + 1])
      #expect(abs(try #require(quarterRain[hour * 4 + 2]) - rain / 4) < 0.006)
    }
  }

  /// Open-Meteo's defaults and unit labels.
  @Test func unitsAndDefaultsAreOpenMeteos() async throws {
    let kmh = try await Self.get("\(Self.point)&\(Self.day)&hourly=wind_speed_10m,snowfall,precipitation")
    let ms = try await Self.get("\(Self.point)&\(Self.day)&hourly=wind_speed_10m&wind_speed_unit=ms")
    #expect(kmh["timezone"] as? String == "GMT" && kmh["timezone_abbreviation"] as? String == "GMT")
    #expect(kmh["utc_offset_seconds"] as? Int == 0)
    #expect((kmh["hourly_units"] as? [String: String])?["wind_speed_10m"] == "km/h")
    for (fast, slow) in zip(
      try Self.column(kmh, "hourly", "wind_speed_10m"), try Self.column(ms, "hourly", "wind_speed_10m"))
    {
      #expect(abs(try #require(fast) - #require(slow) * 3.6) < 0.02)
    }
    let imperial = try await Self.get(
      "\(Self.point)&\(Self.day)&hourly=wind_speed_10m,snowfall,precipitation&wind_speed_unit=mph&precipitation_unit=inch"
    )
    let units = try #require(imperial["hourly_units"] as? [String: String])
    #expect(units["wind_speed_10m"] == "mp/h" && units["snowfall"] == "inch" && units["precipitation"] == "inch")
    for (inch, mm) in zip(
      try Self.column(imperial, "hourly", "precipitation"), try Self.column(kmh, "hourly", "precipitation"))
    {
      #expect(abs(try #require(inch) - #require(mm) / 25.4) < 0.001)
    }
    let accepted = try await Self.get(
      "\(Self.point)&\(Self.day)&hourly=temperature_2m&apikey=anything&cell_selection=sea&elevation=nan&models=best_match"
    )
    #expect(accepted["hourly"] != nil)
    let byDomain = try await Self.get("\(Self.point)&\(Self.day)&hourly=temperature_2m&models=wrf/d01")
    #expect((byDomain["sources"] as? [[String: Any]])?.first?["domain"] as? String == "d01")
  }

  /// Errors on /v1/ routes are `{"error":true,"reason":"…"}`; the legacy routes keep theirs.
  @Test func errorsHaveOpenMeteosShapeOnlyOnV1() async throws {
    let client = try await SampleService.server().client
    let unknown = try await client.get("/v1/forecast?\(Self.point)&hourly=temperature_2m,uv_index")
    #expect(unknown.status == 400)
    #expect(
      unknown.body.hasPrefix(
        "{\"error\":true,\"reason\":\"hourly: unknown variable 'uv_index'; supported: temperature_2m, relative_humidity_2m,"
      ))
    let daily = try await client.get("/v1/forecast?\(Self.point)&daily=uv_index_max")
    #expect(
      daily.openMeteoReason?.hasPrefix(
        "daily: unknown variable 'uv_index_max'; supported: weather_code, temperature_2m_max") == true)
    let uncovered = try await client.get(
      "/v1/forecast?\(Self.point)&hourly=temperature_2m&start_date=2026-07-01&end_date=2026-07-01")
    #expect(uncovered.status == 404 && uncovered.openMeteoReason?.hasPrefix("no run covers") == true)
    let noRoute = try await client.get("/v1/nothing")
    #expect(noRoute.status == 404 && noRoute.openMeteoReason?.hasPrefix("no route for GET /v1/nothing") == true)
    let legacy = try await client.get("/QuickPrevByDate.php?lat=38.1294&lon=-8.9341&date=2026")
    #expect(
      legacy.status == 400 && legacy.legacyErrorMessage != nil && legacy.body.hasPrefix("{\"error\":{\"message\":"))
  }

  /// With a gazetteer (`--places`), `timezone=auto` is the zone of the place nearest the
  /// point, Lisbon's and Madrid's on either side of the border; without one it is refused,
  /// saying what is missing.
  @Test func automaticZoneFromTheGazetteer() async throws {
    let places = try #require(SampleService.places)
    for (latitude, longitude, zone) in [(38.72, -9.14, "Europe/Lisbon"), (38.88, -6.97, "Europe/Madrid")] {
      let nearest = try #require(places.nearest(latitude: latitude, longitude: longitude))
      #expect(nearest.timezone == zone, "the gazetteer's nearest place to \(latitude), \(longitude)")
      let object = try await Self.get(
        "latitude=\(latitude)&longitude=\(longitude)&hourly=temperature_2m&timezone=auto&\(Self.day)")
      #expect(object["timezone"] as? String == zone)
    }
    var settings = SampleService.settings
    settings.places = nil
    let server = try await LiveServer.start(settings)
    defer { Task { try? await server.stop() } }
    let refused = try await server.client.get("/v1/forecast?\(Self.point)&hourly=temperature_2m&timezone=auto")
    #expect(refused.status == 400)
    #expect(refused.openMeteoReason?.hasPrefix("timezone: 'auto' needs a map of places") == true, "\(refused.body)")
  }

  /// `timezone=auto` asks the injected finder; on a DST day the hours, their local times,
  /// offsets and abbreviations around the change are exact.
  @Test func automaticZoneOnDaylightSavingDays() async throws {
    var settings = SampleService.settings
    settings.zoneFinder = ZoneFinder(source: "a test's map") { latitude, _ in latitude > 0 ? "Europe/Lisbon" : nil }
    let server = try await LiveServer.start(settings)
    defer { Task { try? await server.stop() } }
    let object = try await Self.get("\(Self.point)&hourly=temperature_2m&timezone=auto&forecast_days=1", server: server)
    #expect(object["timezone"] as? String == "Europe/Lisbon")
    #expect(object["timezone_abbreviation"] as? String == "WEST" && object["utc_offset_seconds"] as? Int == 3600)
    #expect(((object["hourly"] as? [String: Any])?["time"] as? [String])?.first == "2026-06-21T00:00")
    let south = try await server.client.get(
      "/v1/forecast?latitude=-10&longitude=-8.9&hourly=temperature_2m&timezone=auto")
    #expect(south.status == 400 && south.openMeteoReason?.contains("'auto' found no zone for latitude -10.0") == true)

    // The days themselves (no run covers March or October): the parameters' hours and the
    // document's writing of them.
    for (date, count, around) in [
      ("2026-03-29", 23, ["2026-03-29T00:00", "2026-03-29T02:00", "2026-03-29T03:00"]),
      ("2026-10-25", 25, ["2026-10-25T00:00", "2026-10-25T01:00", "2026-10-25T01:00", "2026-10-25T02:00"]),
    ] {
      let query = try QueryParameters(
        "\(Self.point)&hourly=temperature_2m&timezone=auto&start_date=\(date)&end_date=\(date)", maximumBytes: 8192)
      let parameters = try ForecastParameters(
        query, limits: (ServiceLimits().locations, ServiceLimits().days), now: SampleService.now,
        zoneFinder: settings.zoneFinder)
      let hours = try #require(parameters.queries.first?.hours)
      #expect(hours.count == count, "\(date)")
      let texts = hours.map { hour in
        var out = JSONBytes(capacity: 16)
        out.localTime(hour.instant, utcOffset: hour.utcOffset)
        return out.text
      }
      #expect(Array(texts.prefix(around.count)) == around, "\(date): \(texts.prefix(5))")
      #expect(zip(hours, hours.dropFirst()).allSatisfy { $1.instant - $0.instant == 3600 })
      let zone = try LocalTimeZone(identifier: "Europe/Lisbon")
      let change = try #require(hours.first { $0.utcOffset != hours[0].utcOffset })
      #expect(zone.abbreviation(at: change.instant - 3600) == (count == 23 ? "WET" : "WEST"))
      #expect(zone.abbreviation(at: change.instant) == (count == 23 ? "WEST" : "WET"))
      #expect(change.instant % 86_400 == 3600, "the change is at 01:00 UTC")
    }
    #expect((try LocalTimeZone(identifier: "UTC")).abbreviation(at: 0) == "GMT")
  }
}
