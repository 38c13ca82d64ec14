import DarkSkyFace
import FaceKit
import Foundation
import Meteorology
import OpenWeatherMapFace
import Testing

/// The columns of the weather-code table (FaceKit's shared ones and each face's own), checked against the wording each API publishes,
/// transcribed here independently of the code.
@Suite struct WeatherCodePresentationTests {
  /// Open-Meteo's WMO table (open-meteo.com/en/docs, "WMO Weather interpretation codes").
  static let openMeteo: [Int: String] = [
    0: "Clear sky", 1: "Mainly clear", 2: "Partly cloudy", 3: "Overcast", 45: "Fog", 48: "Depositing rime fog",
    51: "Light drizzle", 53: "Moderate drizzle", 55: "Dense drizzle", 56: "Light freezing drizzle",
    57: "Dense freezing drizzle", 61: "Slight rain", 63: "Moderate rain", 65: "Heavy rain",
    66: "Light freezing rain", 67: "Heavy freezing rain", 71: "Slight snow fall", 73: "Moderate snow fall",
    75: "Heavy snow fall", 77: "Snow grains", 80: "Slight rain showers", 81: "Moderate rain showers",
    82: "Violent rain showers", 85: "Slight snow showers", 86: "Heavy snow showers", 95: "Thunderstorm",
    96: "Thunderstorm with slight hail", 99: "Thunderstorm with heavy hail",
  ]

  /// OpenWeatherMap's published conditions (openweathermap.org/weather-conditions): id →
  /// main, description, icon without its d/n.
  static let openWeatherMap: [Int: (main: String, description: String, icon: String)] = [
    200: ("Thunderstorm", "thunderstorm with light rain", "11"), 201: ("Thunderstorm", "thunderstorm with rain", "11"),
    202: ("Thunderstorm", "thunderstorm with heavy rain", "11"), 210: ("Thunderstorm", "light thunderstorm", "11"),
    211: ("Thunderstorm", "thunderstorm", "11"), 212: ("Thunderstorm", "heavy thunderstorm", "11"),
    221: ("Thunderstorm", "ragged thunderstorm", "11"), 230: ("Thunderstorm", "thunderstorm with light drizzle", "11"),
    231: ("Thunderstorm", "thunderstorm with drizzle", "11"),
    232: ("Thunderstorm", "thunderstorm with heavy drizzle", "11"),
    300: ("Drizzle", "light intensity drizzle", "09"), 301: ("Drizzle", "drizzle", "09"),
    302: ("Drizzle", "heavy intensity drizzle", "09"), 310: ("Drizzle", "light intensity drizzle rain", "09"),
    311: ("Drizzle", "drizzle rain", "09"), 312: ("Drizzle", "heavy intensity drizzle rain", "09"),
    313: ("Drizzle", "shower rain and drizzle", "09"), 314: ("Drizzle", "heavy shower rain and drizzle", "09"),
    321: ("Drizzle", "shower drizzle", "09"), 500: ("Rain", "light rain", "10"), 501: ("Rain", "moderate rain", "10"),
    502: ("Rain", "heavy intensity rain", "10"), 503: ("Rain", "very heavy rain", "10"),
    504: ("Rain", "extreme rain", "10"), 511: ("Rain", "freezing rain", "13"),
    520: ("Rain", "light intensity shower rain", "09"), 521: ("Rain", "shower rain", "09"),
    522: ("Rain", "heavy intensity shower rain", "09"), 531: ("Rain", "ragged shower rain", "09"),
    600: ("Snow", "light snow", "13"), 601: ("Snow", "snow", "13"), 602: ("Snow", "heavy snow", "13"),
    611: ("Snow", "sleet", "13"), 612: ("Snow", "light shower sleet", "13"), 613: ("Snow", "shower sleet", "13"),
    615: ("Snow", "light rain and snow", "13"), 616: ("Snow", "rain and snow", "13"),
    620: ("Snow", "light shower snow", "13"), 621: ("Snow", "shower snow", "13"),
    622: ("Snow", "heavy shower snow", "13"), 701: ("Mist", "mist", "50"), 711: ("Smoke", "smoke", "50"),
    721: ("Haze", "haze", "50"), 731: ("Dust", "sand/dust whirls", "50"), 741: ("Fog", "fog", "50"),
    751: ("Sand", "sand", "50"), 761: ("Dust", "dust", "50"), 762: ("Ash", "volcanic ash", "50"),
    771: ("Squall", "squalls", "50"), 781: ("Tornado", "tornado", "50"), 800: ("Clear", "clear sky", "01"),
    801: ("Clouds", "few clouds", "02"), 802: ("Clouds", "scattered clouds", "03"),
    803: ("Clouds", "broken clouds", "04"), 804: ("Clouds", "overcast clouds", "04"),
  ]

  /// Dark Sky's icon values (darksky.net/dev/docs/response).
  static let darkSkyIcons: Set<String> = [
    "clear-day", "clear-night", "rain", "snow", "sleet", "wind", "fog", "cloudy", "partly-cloudy-day",
    "partly-cloudy-night",
  ]

  /// nwpcube's own icon scheme as docs/weather-codes.md lists it.
  static let iconScheme: Set<String> = [
    "clear-day", "clear-night", "mostly-clear-day", "mostly-clear-night", "partly-cloudy-day", "partly-cloudy-night",
    "cloudy", "fog", "drizzle", "rain", "freezing-rain", "snow", "showers-day", "showers-night", "snow-showers-day",
    "snow-showers-night", "thunderstorm", "hail",
  ]

  @Test func everyCodeHasOpenMeteosDescriptionAndASummary() {
    #expect(Set(Self.openMeteo.keys) == Set(WeatherCode.allCases.map(\.rawValue)))
    for code in WeatherCode.allCases {
      let row = code.presentation
      #expect(row.description == Self.openMeteo[code.rawValue], "\(code.rawValue)")
      #expect(!row.summary.isEmpty && row.summary.count <= 32, "\(code.rawValue)")
      #expect(!code.darkSky.summary.isEmpty, "\(code.rawValue)")
    }
  }

  /// Each OpenWeatherMap condition is one OpenWeatherMap publishes, with its own group,
  /// description and icon, and in the group of the code's weather.
  @Test func everyOpenWeatherMapConditionIsPublishedAndOfTheRightGroup() throws {
    for code in WeatherCode.allCases {
      let owm = code.openWeatherMap
      let published = try #require(Self.openWeatherMap[owm.id], "\(code.rawValue): id \(owm.id)")
      #expect(owm.main == published.main, "\(code.rawValue)")
      #expect(owm.description == published.description, "\(code.rawValue)")
      #expect(owm.icon(isDay: true) == published.icon + "d", "\(code.rawValue)")
      #expect(owm.icon(isDay: false) == published.icon + "n", "\(code.rawValue)")
      let group: ClosedRange<Int> =
        switch code.rawValue {
        case 0...3: 800...804
        case 45, 48: 700...799
        case 51...55: 300...399
        case 56, 57, 61...67, 80...82: 500...599
        case 71...77, 85, 86: 600...699
        default: 200...299
        }
      #expect(group.contains(owm.id), "\(code.rawValue): \(owm.id)")
    }
    // Freezing precipitation is OpenWeatherMap's freezing rain whatever its rate.
    for code in [WeatherCode.lightFreezingDrizzle, .denseFreezingDrizzle, .lightFreezingRain, .heavyFreezingRain] {
      #expect(code.openWeatherMap.id == 511)
    }
  }

  @Test func everyIconIsInItsSchemeAndFitsTheDayOrNight() {
    var used: Set<String> = []
    for code in WeatherCode.allCases {
      let row = code.presentation
      for (icon, scheme) in [
        (row.dayIcon, Self.iconScheme), (row.nightIcon, Self.iconScheme), (code.darkSky.dayIcon, Self.darkSkyIcons),
        (code.darkSky.nightIcon, Self.darkSkyIcons),
      ] {
        #expect(scheme.contains(icon), "\(code.rawValue): \(icon)")
      }
      for (day, night) in [(row.dayIcon, row.nightIcon), (code.darkSky.dayIcon, code.darkSky.nightIcon)] {
        #expect(!day.hasSuffix("-night") && !night.hasSuffix("-day"), "\(code.rawValue)")
        // A pair differs only in its day/night suffix.
        let stem = { (icon: String) in
          icon.replacingOccurrences(of: "-day", with: "").replacingOccurrences(of: "-night", with: "")
        }
        #expect(stem(day) == stem(night), "\(code.rawValue)")
      }
      #expect(row.icon(isDay: true) == row.dayIcon && row.icon(isDay: false) == row.nightIcon)
      used.formUnion([row.dayIcon, row.nightIcon])
    }
    // The documented scheme has no name the table never uses.
    #expect(used == Self.iconScheme)
  }

  /// docs/weather-codes.md shows the code's table, row for row.
  @Test func theDocsTableIsTheCodesTable() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/weather-codes.md")
    let lines = Set(try String(contentsOf: docs, encoding: .utf8).split(separator: "\n").map(String.init))
    for code in WeatherCode.allCases {
      let row = code.presentation
      let owm = code.openWeatherMap
      let line =
        "| \(code.rawValue) | \(row.description) | \(row.summary) | `\(row.dayIcon)` | `\(row.nightIcon)` | "
        + "\(owm.id) | \(owm.main) | \(owm.description) | `\(owm.icon(isDay: true))` `\(owm.icon(isDay: false))` | "
        + "`\(code.darkSky.dayIcon)` `\(code.darkSky.nightIcon)` | \(code.darkSky.summary) |"
      let documented = lines.contains(line)
      #expect(documented, "docs/weather-codes.md lacks: \(line)")
    }
  }
}
