import Forecast
import Foundation
import Meteorology
import OpenWeatherMapFace
import PointQuery
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// `/data/2.5/forecast` and `/data/2.5/weather` on a real server, against the library's own
/// hourly values converted with factors written here.
@Suite struct OpenWeatherMapEndpointTests {
  typealias Service = OpenWeatherMapService

  /// The library's values at the point in SI units, at each of `instants`.
  static func library(
    _ metrics: [Metric], at instants: [Int64], latitude: Double = Service.latitude,
    longitude: Double = Service.longitude, forecaster: Forecaster? = Service.forecaster
  ) throws -> [Metric: [Double?]] {
    let forecaster = try #require(forecaster)
    let series = try forecaster.hourly(
      ForecastRequest(latitude: latitude, longitude: longitude, cellSelection: .land), metrics: metrics,
      instants: instants)
    return Dictionary(uniqueKeysWithValues: metrics.map { ($0, series.values(of: $0) ?? []) })
  }

  static func get(_ target: String, server: LiveServer? = nil) async throws -> [String: Any] {
    let live: LiveServer
    if let server { live = server } else { live = try await Service.server() }
    let answer = try await live.client.get(target)
    #expect(answer.status == 200, "\(target): \(answer.body.prefix(300))")
    #expect(answer.mediaType == "application/json")
    return try #require(answer.json as? [String: Any], "\(target): \(answer.body.prefix(300))")
  }

  static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

  /// `yyyy-MM-dd HH:mm:ss` in UTC, by Foundation rather than the server's own writer.
  static func utcText(_ time: Int64) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: Date(timeIntervalSince1970: Double(time)))
  }

  static let point = "lat=\(Service.latitude)&lon=\(Service.longitude)"
  /// 12 UTC on the run's first day: the first 3-hour boundary after 10:07.
  static let firstEntry = Service.runStart + 12 * 3_600

  @Test func aStoreCoveringFiveDaysGivesFortyEntriesThreeHoursApartFromTheNextBoundary() async throws {
    let document = try await Self.get("/data/2.5/forecast?\(Self.point)")
    #expect(document["cod"] as? String == "200")
    #expect(Self.number(document["message"]) == 0)
    let list = try #require(document["list"] as? [[String: Any]])
    #expect(document["cnt"] as? Int == 40)
    #expect(list.count == 40)
    for (index, entry) in list.enumerated() {
      let time = Int64(index) * 10_800 + Self.firstEntry
      #expect(entry["dt"] as? Int == Int(time), "entry \(index)")
      #expect(entry["dt_txt"] as? String == Self.utcText(time), "entry \(index)")
    }
  }

  /// Kelvin, Fahrenheit and miles per hour from °C and m/s, with the defining factors.
  static func temperature(_ celsius: Double, _ units: String) -> Double {
    switch units {
    case "standard": celsius + 273.15
    case "imperial": celsius * 1.8 + 32
    default: celsius
    }
  }

  static func speed(_ metresPerSecond: Double, _ units: String) -> Double {
    // A mile is 1609.344 m exactly: 1 mph = 0.44704 m/s.
    units == "imperial" ? metresPerSecond / 0.44704 : metresPerSecond
  }

  @Test(arguments: ["standard", "metric", "imperial"])
  func mainAndWindAgreeWithTheLibraryInEachUnitSystem(units: String) async throws {
    let document = try await Self.get("/data/2.5/forecast?\(Self.point)&units=\(units)")
    let list = try #require(document["list"] as? [[String: Any]])
    let hours = (0..<120).map { Self.firstEntry - 2 * 3_600 + Int64($0) * 3_600 }
    let values = try Self.library(
      [.temp, .apparentTemp, .atmPress, .sfcPress, .hum, .cloud, .windVel, .windDir, .windGusts, .visibility],
      at: hours)
    func at(_ metric: Metric, _ hour: Int) throws -> Double { try #require(values[metric]?[hour]) }
    // Two decimals: half a hundredth, and a hair for the binary representation.
    let hundredth = 0.005 + 1e-9
    for (index, entry) in list.enumerated() {
      let hour = index * 3 + 2
      let main = try #require(entry["main"] as? [String: Any])
      let wind = try #require(entry["wind"] as? [String: Any])
      func expect(_ value: Any?, _ expected: Double, within tolerance: Double, _ name: String) {
        let got = Self.number(value)
        #expect(
          got.map { abs($0 - expected) <= tolerance } == true,
          "entry \(index) \(name): \(String(describing: got)) ≠ \(expected)")
      }
      expect(main["temp"], Self.temperature(try at(.temp, hour), units), within: hundredth, "temp")
      expect(main["feels_like"], Self.temperature(try at(.apparentTemp, hour), units), within: hundredth, "feels_like")
      let window = try (hour - 2...hour).map { try at(.temp, $0) }
      expect(main["temp_min"], Self.temperature(window.min() ?? .nan, units), within: hundredth, "temp_min")
      expect(main["temp_max"], Self.temperature(window.max() ?? .nan, units), within: hundredth, "temp_max")
      expect(main["pressure"], try at(.atmPress, hour), within: 0.5, "pressure")
      expect(main["sea_level"], try at(.atmPress, hour), within: 0.5, "sea_level")
      expect(main["grnd_level"], try at(.sfcPress, hour), within: 0.5, "grnd_level")
      expect(main["humidity"], try at(.hum, hour), within: 0.5, "humidity")
      #expect(main["temp_kf"] as? Int == 0)
      expect((entry["clouds"] as? [String: Any])?["all"], try at(.cloud, hour), within: 0.5, "clouds.all")
      expect(wind["speed"], Self.speed(try at(.windVel, hour), units), within: hundredth, "wind.speed")
      expect(wind["deg"], try at(.windDir, hour), within: 0.5, "wind.deg")
      expect(wind["gust"], Self.speed(try at(.windGusts, hour), units), within: hundredth, "wind.gust")
      expect(entry["visibility"], min(try at(.visibility, hour), 10_000), within: 0.5, "visibility")
      // Integers where OpenWeatherMap gives integers.
      #expect(main["pressure"] is Int && main["humidity"] is Int && entry["visibility"] is Int, "entry \(index)")
    }
  }

  @Test func popRainSnowAndWeatherComeFromTheThreeHoursEndingAtEachEntry() async throws {
    let document = try await Self.get("/data/2.5/forecast?\(Self.point)")
    let list = try #require(document["list"] as? [[String: Any]])
    let hours = (0..<120).map { Self.firstEntry - 2 * 3_600 + Int64($0) * 3_600 }
    let values = try Self.library([.precipitationProbability, .rain, .snow, .weatherCode, .isDay], at: hours)
    var sawRain = false
    for (index, entry) in list.enumerated() {
      let window = (index * 3)...(index * 3 + 2)
      let probability = window.compactMap { values[.precipitationProbability]?[$0] ?? nil }.max() ?? 0
      #expect(
        Self.number(entry["pop"]).map { abs($0 - probability / 100) <= 0.005 + 1e-9 } == true,
        "entry \(index) pop \(String(describing: entry["pop"])) ≠ \(probability) %")
      let snow = window.map { values[.snow]?[$0].flatMap { $0 } ?? 0 }.reduce(0, +)
      let liquid = window.map { hour in
        max(0, (values[.rain]?[hour].flatMap { $0 } ?? 0) - (values[.snow]?[hour].flatMap { $0 } ?? 0))
      }.reduce(0, +)
      for (name, amount) in [("rain", liquid), ("snow", snow)] {
        let shown = (entry[name] as? [String: Any])?["3h"]
        if (amount * 100).rounded() == 0 {
          #expect(entry[name] == nil, "entry \(index): \(name) of \(amount) mm is left out")
        } else {
          sawRain = sawRain || name == "rain"
          #expect(
            Self.number(shown).map { abs($0 - amount) <= 0.005 + 1e-9 } == true,
            "entry \(index) \(name).3h \(String(describing: shown)) ≠ \(amount)")
        }
      }
      let codes = window.compactMap {
        values[.weatherCode]?[$0].flatMap { $0 }.flatMap { WeatherCode(rawValue: Int($0)) }
      }
      let code = try #require(codes.max { $0.significance < $1.significance })
      let isDay = values[.isDay]?[window.upperBound].flatMap { $0 } == 1
      let weather = try #require((entry["weather"] as? [[String: Any]])?.first)
      let condition = code.openWeatherMap
      #expect(weather["id"] as? Int == condition.id, "entry \(index)")
      #expect(weather["main"] as? String == condition.main)
      #expect(weather["description"] as? String == condition.description)
      #expect(weather["icon"] as? String == condition.iconBase + (isDay ? "d" : "n"), "entry \(index)")
      #expect((entry["sys"] as? [String: Any])?["pod"] as? String == (isDay ? "d" : "n"), "entry \(index)")
    }
    #expect(sawRain, "the sample run rains somewhere in five days, so rain.3h is exercised")
  }

  @Test func cityIsTheNearestPlaceWithItsZoneOffsetAndTheSunsTimes() async throws {
    let document = try await Self.get("/data/2.5/forecast?lat=38.72&lon=-9.14&cnt=1")
    let city = try #require(document["city"] as? [String: Any])
    #expect(city["id"] as? Int == Service.lisbonID)
    #expect(city["name"] as? String == "Lisbon")
    #expect(city["country"] as? String == "PT")
    #expect((city["population"] as? Int ?? 0) > 500_000)
    // Lisbon keeps summer time (WEST, UTC+1) in June.
    #expect(city["timezone"] as? Int == 3_600)
    let coord = try #require(city["coord"] as? [String: Any])
    #expect(Self.number(coord["lat"]).map { abs($0 - Service.latitude) < 1e-4 } == true)
    #expect(Self.number(coord["lon"]).map { abs($0 - Service.longitude) < 1e-4 } == true)
    // Lisbon's sun on 20 June: up about 05:12 UTC, down about 20:05 UTC.
    let sunrise = try #require(city["sunrise"] as? Int)
    let sunset = try #require(city["sunset"] as? Int)
    #expect((Service.runStart + 5 * 3_600...Service.runStart + 5 * 3_600 + 1_800).contains(Int64(sunrise)))
    #expect((Service.runStart + 19 * 3_600 + 3_000...Service.runStart + 20 * 3_600 + 1_200).contains(Int64(sunset)))
  }

  @Test(arguments: ["q=Lisboa", "q=lisboa,PT", "q=LISBOA,pt", "q=Lisbon", "q=lisb%C3%B3a", "id=2267057"])
  func aCityByNameOrIDResolves(place: String) async throws {
    let forecast = try await Self.get("/data/2.5/forecast?\(place)&cnt=2")
    let city = try #require(forecast["city"] as? [String: Any])
    #expect(city["id"] as? Int == Service.lisbonID, "\(place)")
    #expect(city["name"] as? String == "Lisbon")
    let weather = try await Self.get("/data/2.5/weather?\(place)")
    #expect(weather["id"] as? Int == Service.lisbonID, "\(place)")
    #expect(weather["name"] as? String == "Lisbon")
  }

  @Test func aPlusInANameIsASpaceAsClientsEncodeIt() async throws {
    for query in ["q=Vila+Nova+de+Gaia", "q=vila%20nova%20de%20gaia,pt"] {
      let document = try await Self.get("/data/2.5/weather?\(query)")
      #expect(document["id"] as? Int == 2_732_544, "\(query)")
      #expect(document["name"] as? String == "Vila Nova de Gaia")
    }
  }

  @Test(arguments: [
    ("q=Atlantis", "city not found: q names no place called 'Atlantis' in the gazetteer"),
    ("q=Lisboa,ES", "city not found: q names no place called 'Lisboa' in country ES in the gazetteer"),
    ("q=Lisb", "city not found: q names no place called 'Lisb' in the gazetteer"),
    ("id=1", "city not found: id 1 is not a GeoNames id in the gazetteer"),
  ])
  func anUnknownCityGetsOpenWeatherMapsNotFound(query: String, message: String) async throws {
    for path in ["/data/2.5/forecast", "/data/2.5/weather"] {
      let answer = try await Service.server().client.get("\(path)?\(query)")
      #expect(answer.status == 404, "\(path)?\(query)")
      #expect(answer.openWeatherMapMessage == message, "\(path)?\(query): \(answer.body)")
      #expect(answer.body.hasPrefix(#"{"cod":"404","message":"city not found"#))
    }
  }

  @Test func cntLimitsTheEntries() async throws {
    let document = try await Self.get("/data/2.5/forecast?\(Self.point)&cnt=5")
    #expect(document["cnt"] as? Int == 5)
    #expect((document["list"] as? [[String: Any]])?.count == 5)
  }

  @Test func aStoreCoveringLessGivesTheEntriesItCovers() async throws {
    // The sample run ends 2026-06-23 00 UTC; its server's now is 2026-06-21 10:07, so the
    // entries are 12 UTC on the 21st to 00 UTC on the 23rd: 13.
    let server = try await SampleService.server()
    let document = try await Self.get("/data/2.5/forecast?lat=38.72&lon=-9.14", server: server)
    let list = try #require(document["list"] as? [[String: Any]])
    #expect(document["cnt"] as? Int == 13)
    #expect(list.count == 13)
    let first = try #require(UTC.seconds(year: 2026, month: 6, day: 21, hour: 12, minute: 0))
    #expect(list.first?["dt"] as? Int == Int(first))
    #expect(list.last?["dt"] as? Int == Int(first + 36 * 3_600))
  }

  @Test func theCurrentWeatherIsTheQuarterHourNowWithTheLocalDaysRange() async throws {
    let document = try await Self.get("/data/2.5/weather?\(Self.point)&units=metric")
    let now = Service.runStart + 10 * 3_600
    #expect(document["dt"] as? Int == Int(now))
    #expect(document["cod"] as? Int == 200)
    #expect(document["base"] as? String == "model")
    #expect(document["name"] as? String == "Lisbon")
    #expect(document["id"] as? Int == Service.lisbonID)
    #expect(document["timezone"] as? Int == 3_600)
    #expect((document["sys"] as? [String: Any])?["country"] as? String == "PT")
    let values = try Self.library([.temp, .apparentTemp, .atmPress, .hum, .windVel, .cloud], at: [now])
    let main = try #require(document["main"] as? [String: Any])
    #expect(Self.number(main["temp"]).map { abs($0 - (values[.temp]?[0].flatMap { $0 } ?? .nan)) <= 0.0051 } == true)
    #expect(
      Self.number(main["feels_like"]).map { abs($0 - (values[.apparentTemp]?[0].flatMap { $0 } ?? .nan)) <= 0.0051 }
        == true)
    // The local day in Lisbon (UTC+1): 23 UTC on the 19th to 23 UTC on the 20th; the run
    // starts at 00 UTC, so its hours from 00 to 22 UTC.
    let day = (0...22).map { Service.runStart + Int64($0) * 3_600 }
    let temperatures = try Self.library([.temp], at: day)[.temp]?.compactMap { $0 } ?? []
    #expect(Self.number(main["temp_min"]).map { abs($0 - (temperatures.min() ?? .nan)) <= 0.0051 } == true)
    #expect(Self.number(main["temp_max"]).map { abs($0 - (temperatures.max() ?? .nan)) <= 0.0051 } == true)
    let coord = try #require(document["coord"] as? [String: Any])
    #expect(Self.number(coord["lat"]).map { abs($0 - Service.latitude) < 1e-4 } == true)
  }

  @Test(arguments: [
    ("lat=91&lon=0", 400, "wrong latitude: lat '91' is out of range; give decimal degrees north, −90…90"),
    ("lat=abc&lon=0", 400, "wrong latitude: lat 'abc' is not a decimal number; give decimal degrees north, −90…90"),
    ("lat=38&lon=181", 400, "wrong longitude: lon '181' is out of range; give decimal degrees east, −180…180"),
    ("lat=38", 400, "wrong longitude: lon is missing; give decimal degrees east, −180…180, with lat and lon together"),
    (
      "", 400,
      "Nothing to geocode: give lat and lon (decimal degrees), q (a city name, e.g. q=Lisboa or q=Lisboa,PT) or id "
        + "(a GeoNames id, e.g. id=2267057)"
    ),
    ("q=Lisboa&lat=38&lon=-9", 400, "lat and lon and q both name a place; give only one of lat and lon, q or id"),
    ("id=abc", 400, "id: 'abc' is not a GeoNames id; give a whole number such as 2267057 (Lisbon)"),
    (
      "q=", 400,
      "q: empty; give a city name, optionally with a comma and a two-letter country code, e.g. Lisboa or Lisboa,PT"
    ),
    (
      "q=Lisboa,Portugal", 400,
      "q: 'Portugal' after the comma is not a two-letter country code; give a city name, optionally with a comma and a "
        + "two-letter country code, e.g. Lisboa or Lisboa,PT"
    ),
    (
      "lat=38&lon=-9&units=kelvin", 400,
      "units: 'kelvin' is not allowed; give standard or metric or imperial"
    ),
    (
      "lat=38&lon=-9&lang=de", 400,
      "lang: 'de' is not supported; descriptions are in English only: give en or leave lang out"
    ),
    ("lat=38&lon=-9&mode=xml", 400, "mode: 'xml' is not supported; give json or leave mode out"),
    ("lat=38&lon=-9&cnt=0", 400, "cnt: 0 is out of range; give an integer in 1…40"),
    ("lat=38&lon=-9&cnt=41", 400, "cnt: 41 is out of range; give an integer in 1…40"),
    (
      "lat=38&lon=-9&exclude=hourly", 400,
      "exclude: unknown parameter; allowed: lat, lon, q, id, units, lang, mode, cnt"
    ),
  ])
  func aBadForecastRequestIsRefusedInOpenWeatherMapsShape(query: String, status: Int, message: String) async throws {
    let answer = try await Service.server().client.get("/data/2.5/forecast?\(query)")
    #expect(answer.status == status, "\(query): \(answer.body)")
    #expect(answer.openWeatherMapMessage == message, "\(query): \(answer.body)")
  }

  @Test func cntIsTheForecastsOnly() async throws {
    let answer = try await Service.server().client.get("/data/2.5/weather?\(Self.point)&cnt=3")
    #expect(answer.status == 400)
    #expect(answer.openWeatherMapMessage == "cnt: unknown parameter; allowed: lat, lon, q, id, units, lang, mode")
  }

  @Test func aPointOutsideEveryDomainOrATimeNoRunCoversGets404() async throws {
    let client = try await Service.server().client
    for path in ["/data/2.5/forecast", "/data/2.5/weather"] {
      let outside = try await client.get("\(path)?lat=60&lon=20")
      #expect(outside.status == 404)
      #expect(outside.openWeatherMapMessage?.contains("outside") == true, "\(outside.body)")
    }
    // A clock past the sample run's end: nothing to forecast.
    let later = try #require(UTC.seconds(year: 2026, month: 7, day: 1, hour: 0, minute: 0))
    let server = try await LiveServer.start(
      ServiceSettings(store: SampleService.store, clock: { later }, places: SampleService.places))
    for path in ["/data/2.5/forecast", "/data/2.5/weather"] {
      let answer = try await server.client.get("\(path)?q=Lisboa")
      #expect(answer.status == 404, "\(path): \(answer.body)")
      #expect(answer.openWeatherMapMessage?.hasPrefix("no run covers 2026-07-01T") == true, "\(path): \(answer.body)")
    }
    try await server.stop()
  }

  @Test func withoutAGazetteerCityIsThePointAndNamesAreRefused() async throws {
    let server = try await LiveServer.start(ServiceSettings(store: Service.store, clock: { Service.now }))
    let document = try await Self.get("/data/2.5/forecast?\(Self.point)&cnt=1", server: server)
    let city = try #require(document["city"] as? [String: Any])
    #expect(city["id"] as? Int == 0)
    #expect(city["name"] as? String == "")
    #expect(city["country"] as? String == "")
    #expect(city["timezone"] as? Int == 0)
    #expect(Self.number((city["coord"] as? [String: Any])?["lat"]) == Service.latitude.rounded(toPlaces: 4))
    let named = try await server.client.get("/data/2.5/weather?q=Lisboa")
    #expect(named.status == 404)
    #expect(
      named.openWeatherMapMessage
        == "city not found: q needs a gazetteer, and this server has none (start nwpcube serve with --places FILE); "
        + "give lat and lon instead")
    try await server.stop()
  }
}

extension Double {
  fileprivate func rounded(toPlaces places: Int) -> Double {
    let factor = (0..<places).reduce(1.0) { value, _ in value * 10 }
    return (self * factor).rounded() / factor
  }
}
