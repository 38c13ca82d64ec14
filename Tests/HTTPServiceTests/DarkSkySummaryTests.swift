import DarkSkyFace
import Forecast
import Meteorology
import Testing

/// The summary rules of docs/darksky.md against hand-made hours.
@Suite struct DarkSkySummaryTests {
  /// 2026-06-22 00:00 UTC, a Monday; the hours below are in UTC (offset 0).
  static let midnight: Int64 = 1_782_086_400

  /// `count` hours from `first` (local hour of the Monday), dry and partly cloudy unless
  /// `rain` gives an hour's rate.
  static func hours(
    from first: Int, count: Int, cloud: Double = 50, rain: (Int) -> Double = { _ in 0 }, code: WeatherCode? = nil
  ) -> [DarkSkyHour] {
    (0..<count).map { index in
      var hour = DarkSkyHour(time: midnight + Int64(first + index) * 3_600, isDay: true)
      hour.cloudCover = cloud
      hour.windSpeed = 3
      hour.precipitation = rain(first + index)
      hour.snow = 0
      hour.weatherCode = code
      return hour
    }
  }

  @Test func aDataPointTakesItsWeatherCodesDarkSkyConditionByDayOrNight() {
    var hour = DarkSkyHour(time: Self.midnight, isDay: false)
    hour.weatherCode = .partlyCloudy
    #expect(DarkSkySummary.point(hour) == .init(summary: "Partly Cloudy", icon: "partly-cloudy-night"))
    hour.isDay = true
    #expect(DarkSkySummary.point(hour).icon == "partly-cloudy-day")
    hour.windSpeed = 12
    #expect(DarkSkySummary.point(hour) == .init(summary: "Windy and Partly Cloudy", icon: "wind"))
    hour.weatherCode = .slightRain
    hour.precipitation = 0.8
    #expect(DarkSkySummary.point(hour) == .init(summary: "Light Rain", icon: "rain"))
    #expect(hour.precipitationType == .rain)
    hour.snow = 0.8
    #expect(hour.precipitationType == .snow)
    hour.snow = 0.3
    #expect(hour.precipitationType == .sleet)
    hour.precipitation = 0.05
    #expect(hour.precipitationType == nil)
    for code in WeatherCode.allCases {
      for isDay in [true, false] {
        var hour = DarkSkyHour(time: Self.midnight, isDay: isDay)
        hour.weatherCode = code
        #expect(DarkSkySummary.icons.contains(DarkSkySummary.point(hour).icon), "\(code)")
      }
    }
  }

  @Test func theMinutelySummarySaysWhenPrecipitationStartsOrStops() {
    let current = DarkSkySummary.Text(summary: "Partly Cloudy", icon: "partly-cloudy-day")
    func minutes(_ wet: Range<Int>, rate: Double = 1) -> [Double?] { (0..<61).map { wet.contains($0) ? rate : 0 } }
    #expect(
      DarkSkySummary.minutes(minutes(0..<0), type: nil, current: current)
        == .init(summary: "Partly cloudy for the hour.", icon: "partly-cloudy-day"))
    #expect(
      DarkSkySummary.minutes(minutes(0..<25), type: .rain, current: current)
        == .init(summary: "Light rain stopping in 25 min.", icon: "rain"))
    #expect(
      DarkSkySummary.minutes(minutes(15..<61, rate: 3), type: .rain, current: current).summary
        == "Rain starting in 15 min.")
    #expect(
      DarkSkySummary.minutes(minutes(0..<61, rate: 9), type: .snow, current: current)
        == .init(summary: "Heavy snow for the hour.", icon: "snow"))
    #expect(
      DarkSkySummary.minutes(minutes(15..<45), type: .rain, current: current).summary
        == "Light rain starting in 15 min., stopping 30 min. later.")
    var gaps = minutes(0..<10)
    gaps[40] = 1
    #expect(
      DarkSkySummary.minutes(gaps, type: .rain, current: current).summary
        == "Light rain stopping in 10 min., starting again 30 min. later.")
  }

  @Test func theHourlySummaryPlacesPrecipitationInDayParts() {
    // From 09:00: rain from 14:00 on.
    let starting = Self.hours(from: 9, count: 24, rain: { $0 >= 14 ? 1 : 0 })
    #expect(DarkSkySummary.hours(starting) == .init(summary: "Light rain starting this afternoon.", icon: "rain"))
    // Rain now, stopping at 19:00.
    let stopping = Self.hours(from: 9, count: 24, rain: { $0 < 19 ? 4 : 0 })
    #expect(DarkSkySummary.hours(stopping).summary == "Rain until this evening.")
    // Rain 14–16 only.
    let afternoon = Self.hours(from: 9, count: 24, rain: { (14...16).contains($0) ? 1 : 0 })
    #expect(DarkSkySummary.hours(afternoon).summary == "Light rain this afternoon.")
    // Rain from 10 to 15, dry from 16: it stops in the afternoon.
    let spanning = Self.hours(from: 9, count: 24, rain: { (10...15).contains($0) ? 1 : 0 })
    #expect(DarkSkySummary.hours(spanning).summary == "Light rain from this morning until this afternoon.")
    // Rain starting after midnight belongs to tonight; after 06:00 the next day, to tomorrow.
    let tonight = Self.hours(from: 18, count: 24, rain: { $0 >= 26 ? 1 : 0 })
    #expect(DarkSkySummary.hours(tonight).summary == "Light rain starting tonight.")
    let tomorrow = Self.hours(from: 18, count: 24, rain: { $0 >= 32 ? 1 : 0 })
    #expect(DarkSkySummary.hours(tomorrow).summary == "Light rain starting tomorrow morning.")
    // Dry hours: the sky.
    #expect(
      DarkSkySummary.hours(Self.hours(from: 9, count: 24))
        == .init(summary: "Partly cloudy throughout the day.", icon: "partly-cloudy-day"))
    var clearing = Self.hours(from: 9, count: 24, cloud: 90)
    for index in 15..<24 { clearing[index].cloudCover = 5 }
    #expect(DarkSkySummary.hours(clearing) == .init(summary: "Overcast until tonight.", icon: "cloudy"))
    var clouding = Self.hours(from: 9, count: 24, cloud: 5)
    for index in 3..<24 { clouding[index].cloudCover = 90 }
    #expect(DarkSkySummary.hours(clouding).summary == "Overcast starting this afternoon.")
  }

  @Test func aDaysSummaryUsesPlainDayParts() {
    let day = Self.hours(from: 0, count: 24, rain: { (13...17).contains($0) ? 1 : 0 })
    #expect(DarkSkySummary.day(day) == .init(summary: "Light rain in the afternoon.", icon: "rain"))
    let morning = Self.hours(from: 0, count: 24, rain: { $0 >= 8 ? 1 : 0 })
    #expect(DarkSkySummary.day(morning).summary == "Light rain starting in the morning.")
    let untilNoon = Self.hours(from: 0, count: 24, rain: { $0 < 12 ? 1 : 0 })
    #expect(DarkSkySummary.day(untilNoon).summary == "Light rain until afternoon.")
    #expect(
      DarkSkySummary.day(Self.hours(from: 0, count: 24, rain: { _ in 1 })).summary == "Light rain throughout the day.")
  }

  @Test func theWeeksSummaryNamesTheWetDaysAndWhereTheHighsPeak() {
    let monday = LocalDate(daysSinceEpoch: Int(Self.midnight / 86_400))
    let dry = DarkSkySummary.Text(summary: "Clear throughout the day.", icon: "clear-day")
    let wet = DarkSkySummary.Text(summary: "Rain throughout the day.", icon: "rain")
    func week(_ rain: [Double], highs: [Double]) -> [DarkSkySummary.Day] {
      zip(rain, highs).enumerated().map { index, day in
        DarkSkySummary.Day(
          date: monday.adding(days: index), precipitation: day.0, type: day.0 > 0 ? .rain : nil,
          text: day.0 >= 1 ? wet : dry, high: day.1)
      }
    }
    let highs: [Double] = [18, 19, 20, 21, 24.2, 22, 21, 20]
    #expect(
      DarkSkySummary.week(week([0, 2, 5, 3, 0.2, 0, 0, 0], highs: highs), temperatureUnit: "°C")
        == .init(
          summary: "Rain tomorrow through Thursday, with high temperatures peaking at 24°C on Friday.", icon: "rain"))
    #expect(
      DarkSkySummary.week(week([0, 0, 0, 4, 0, 0, 7, 0], highs: highs), temperatureUnit: "°F").summary
        == "Rain on Thursday and on Sunday, with high temperatures peaking at 24°F on Friday.")
    #expect(
      DarkSkySummary.week(
        week([0, 0, 0, 0, 0, 0, 0, 0], highs: [25, 23, 22, 21, 20, 18, 19, 20]), temperatureUnit: "°C")
        == .init(
          summary: "No precipitation throughout the week, with high temperatures falling to 18°C on Saturday.",
          icon: "clear-day"))
    #expect(
      DarkSkySummary.week(week([1, 2, 3, 4, 5, 6, 7, 8], highs: highs), temperatureUnit: "°C").summary
        == "Rain throughout the week, with high temperatures peaking at 24°C on Friday.")
    // A week whose only rain is light still names it, as the day's own summary does.
    #expect(
      DarkSkySummary.week(week([0, 0, 0.4, 0, 0, 0.3, 0, 0], highs: highs), temperatureUnit: "°C")
        == .init(
          summary: "Light rain on Wednesday and on Saturday, with high temperatures peaking at 24°C on Friday.",
          icon: "rain"))
    // A Time Machine answer's one day is "the day", not "the week".
    #expect(
      DarkSkySummary.week(Array(week([0, 2], highs: highs).prefix(1)), temperatureUnit: "°C").summary
        == "No precipitation throughout the day.")
    #expect(
      DarkSkySummary.week(Array(week([3], highs: highs)), temperatureUnit: "°C").summary
        == "Rain throughout the day.")
  }
}
