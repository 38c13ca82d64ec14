import Foundation
import Meteorology
import Testing
import UTCTime

@testable import FaceKit
@testable import OpenWeatherMapFace

/// The `weather` entry every weather code gets, by day and by night, against the ranges of
/// OpenWeatherMap's condition table (openweathermap.org/weather-conditions, CLIENTS.md §2)
/// written out here.
@Suite struct OpenWeatherMapConditionTests {
  /// The condition ids and the icon a code's kind of weather may have.
  static func expected(_ code: WeatherCode) -> (ids: ClosedRange<Int>, icon: String) {
    switch code.rawValue {
    case 0: (800...800, "01")
    case 1: (801...801, "02")
    case 2: (802...802, "03")
    case 3: (803...804, "04")
    case 45, 48: (701...741, "50")
    case 51, 53, 55: (300...321, "09")
    case 56, 57, 66, 67: (511...511, "13")
    case 61, 63, 65: (500...504, "10")
    case 71, 73, 75, 77: (600...602, "13")
    case 80, 81, 82: (520...522, "09")
    case 85, 86: (620...622, "13")
    case 95, 96, 99: (200...232, "11")
    default: (0...0, "?")
    }
  }

  /// The `weather` array of an entry whose three hours have `codes`, at a time the sun is
  /// up (`isDay`) or not, as the document writes it.
  static func weather(_ codes: [WeatherCode], isDay: Bool) throws -> [String: Any] {
    // Noon and midnight in Lisbon (UTC+1) on 21 June.
    let time = try #require(UTC.seconds(year: 2026, month: 6, day: 21, hour: isDay ? 12 : 23, minute: 0))
    let entry = OpenWeatherMapAnswer.Entry(time: time, window: 0..<codes.count, latitude: 38.7, longitude: -9.1) {
      metric, hour in metric == .weatherCode ? Double(codes[hour].rawValue) : nil
    }
    #expect(entry.isDay == isDay)
    let document = OpenWeatherMapDocument(
      answer: OpenWeatherMapAnswer(
        query: OpenWeatherMapQuery(
          request: .init(latitude: 38.7, longitude: -9.1), now: 0,
          city: OpenWeatherMapCity(
            id: 0, name: "", latitude: 38.7, longitude: -9.1, country: "", population: 0, utcOffset: 0, sunrise: nil,
            sunset: nil)),
        entries: [entry]))
    var out = JSONBytes(capacity: 256)
    document.writeWeather(entry, into: &out)
    let array = try #require(try JSONSerialization.jsonObject(with: Data(out.bytes)) as? [[String: Any]])
    #expect(array.count == 1)
    return try #require(array.first)
  }

  @Test(arguments: WeatherCode.allCases)
  func everyCodeGetsAnIdAndIconOfItsKindByDayAndByNight(code: WeatherCode) throws {
    let (ids, icon) = Self.expected(code)
    for isDay in [true, false] {
      let weather = try Self.weather([code], isDay: isDay)
      let id = try #require(weather["id"] as? Int)
      #expect(ids.contains(id), "\(code) (\(code.rawValue)): id \(id) is not in \(ids)")
      #expect(weather["icon"] as? String == icon + (isDay ? "d" : "n"), "\(code)")
      #expect((weather["main"] as? String)?.isEmpty == false)
      #expect((weather["description"] as? String)?.isEmpty == false)
    }
  }

  @Test func rainIdsRiseWithIntensity() throws {
    let ids = try [WeatherCode.slightRain, .moderateRain, .heavyRain].map {
      try #require(try Self.weather([$0], isDay: true)["id"] as? Int)
    }
    #expect(ids == ids.sorted() && Set(ids).count == 3)
  }

  @Test func anEntrysWeatherIsItsWindowsMostSignificant() throws {
    let weather = try Self.weather([.slightRain, .thunderstorm, .clearSky], isDay: false)
    #expect(weather["id"] as? Int == WeatherCode.thunderstorm.openWeatherMap.id)
    #expect(weather["icon"] as? String == "11n")
  }
}
