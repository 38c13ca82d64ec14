import Forecast
import Meteorology

/// The English `summary` and `icon` of every Dark Sky data point and block, made from
/// the hourly conditions by the rules in docs/darksky.md: nothing is written per request.
///
/// A data point's text is its weather code's Dark Sky condition
/// (`WeatherCode.darkSky`) by day or night, "Windy" when a dry hour's wind
/// reaches `windy`. Blocks describe the hours' precipitation when any is wet, their sky
/// otherwise, and say when it changes in day parts (night 0–6 h, morning 6–12 h,
/// afternoon 12–18 h, evening 18–24 h local).
public enum DarkSkySummary {
  /// A summary and its icon.
  public struct Text: Sendable, Equatable {
    public let summary: String
    /// One of `icons`.
    public let icon: String

    public init(summary: String, icon: String) {
      self.summary = summary
      self.icon = icon
    }
  }

  /// Dark Sky's ten icons: every icon written is one of them.
  public static let icons: Set<String> = [
    "clear-day", "clear-night", "rain", "snow", "sleet", "wind", "fog", "cloudy", "partly-cloudy-day",
    "partly-cloudy-night",
  ]

  /// Sustained wind (m/s) from which a dry hour is windy: Beaufort 6, a strong breeze.
  public static let windy = 10.8
  /// Rates (mm/h) from which precipitation is not light, and from which it is heavy (the
  /// American Meteorological Society's rain intensities).
  public static let moderate = 2.5
  public static let heavy = 7.6
  /// Cloud cover (%) from which a dry hour is partly cloudy, and from which it is overcast.
  public static let partlyCloudy = 25.0
  public static let overcast = 75.0
  /// A day's precipitation (mm) from which it counts as a wet day in the week's summary.
  public static let wetDay = 1.0

  // MARK: Data points

  /// The icons of a dry sky, which a strong wind replaces with `wind`. Made once: built
  /// for every hour, the set was a hash table per data point.
  static let dryIcons: Set<String> = ["clear-day", "clear-night", "partly-cloudy-day", "partly-cloudy-night", "cloudy"]

  /// The text of one data point (`currently`, an hour of `hourly`).
  public static func point(_ hour: DarkSkyHour) -> Text {
    var text: Text
    if let code = hour.weatherCode {
      let condition = code.darkSky
      text = Text(summary: condition.summary, icon: condition.icon(isDay: hour.isDay))
    } else if let type = hour.precipitationType {
      text = Text(summary: title(of: intensity(hour.precipitation ?? 0) + noun(type)), icon: type.rawValue)
    } else {
      let sky = Sky(hour)
      text = Text(summary: title(of: sky.words), icon: sky.icon(isDay: hour.isDay))
    }
    if dryIcons.contains(text.icon), (hour.windSpeed ?? 0) >= windy {
      let clear = text.icon.hasPrefix("clear")
      text = Text(summary: clear ? "Windy" : "Windy and \(text.summary)", icon: "wind")
    }
    return text
  }

  // MARK: Blocks

  /// The `minutely` block's text from its minutes' rates (mm/h): when precipitation starts
  /// or stops within the hour, or the current conditions "for the hour" when none falls.
  /// - Parameters:
  ///   - type: the precipitation's type (that of the hour it falls in).
  ///   - current: the current data point's text.
  public static func minutes(_ rates: [Double?], type: DarkSkyPrecipitation?, current: Text) -> Text {
    let wet = rates.map { ($0 ?? 0) >= Metric.wetHour }
    guard let firstWet = wet.firstIndex(of: true) else {
      return Text(summary: "\(sentence(current.summary)) for the hour.", icon: current.icon)
    }
    let type = type ?? .rain
    let peak = rates.compactMap { $0 }.max() ?? 0
    let words = title(of: intensity(peak) + noun(type))
    let icon = type.rawValue
    if firstWet == 0 {
      guard let dry = wet.firstIndex(of: false) else { return Text(summary: "\(words) for the hour.", icon: icon) }
      guard let again = wet[dry...].firstIndex(of: true) else {
        return Text(summary: "\(words) stopping in \(dry) min.", icon: icon)
      }
      return Text(summary: "\(words) stopping in \(dry) min., starting again \(again - dry) min. later.", icon: icon)
    }
    guard let stop = wet[firstWet...].firstIndex(of: false) else {
      return Text(summary: "\(words) starting in \(firstWet) min.", icon: icon)
    }
    return Text(summary: "\(words) starting in \(firstWet) min., stopping \(stop - firstWet) min. later.", icon: icon)
  }

  /// The `hourly` block's text, from its first 24 hours, in day parts relative to the
  /// first hour ("this afternoon", "tonight", "tomorrow morning").
  public static func hours(_ hours: [DarkSkyHour]) -> Text {
    let hours = Array(hours.prefix(24))
    return period(hours, phrases: Phrases(relativeTo: hours.first), isDay: hours.first?.isDay ?? true)
  }

  /// A `daily` data point's text, from its local day's hours, in plain day parts ("in the
  /// afternoon", "overnight").
  public static func day(_ hours: [DarkSkyHour]) -> Text {
    period(hours, phrases: Phrases(relativeTo: nil), isDay: true)
  }

  /// What the week's summary needs to know of one day.
  public struct Day: Sendable {
    public var date: LocalDate
    /// The day's precipitation, mm.
    public var precipitation: Double
    /// Its most frequent type among its wet hours.
    public var type: DarkSkyPrecipitation?
    /// The day's own text.
    public var text: Text
    /// Its high temperature in the request's units.
    public var high: Double?

    public init(date: LocalDate, precipitation: Double, type: DarkSkyPrecipitation?, text: Text, high: Double?) {
      self.date = date
      self.precipitation = precipitation
      self.type = type
      self.text = text
      self.high = high
    }
  }

  /// The `daily` block's text: the days with precipitation (at least `wetDay` mm, or when
  /// no day has that much, any wet hour, as "Light rain"), then
  /// where the highs peak (or, when they peak today, where they fall to), e.g. "Rain on
  /// Tuesday through Thursday, with high temperatures peaking at 24°C on Friday."
  /// - Parameter temperatureUnit: the symbol of the highs' unit, e.g. `°C`.
  public static func week(_ days: [Day], temperatureUnit: String) -> Text {
    guard let first = days.first else { return Text(summary: "No forecast.", icon: "cloudy") }
    func name(_ index: Int) -> String {
      index == 0 ? "today" : index == 1 ? "tomorrow" : weekday(first.date.adding(days: index))
    }
    func on(_ index: Int) -> String { index <= 1 ? name(index) : "on \(name(index))" }
    // The days with at least `wetDay` mm; when there are none, the days with any wet hour,
    // as light precipitation: a week whose only rain is a day's light shower must not say
    // "No precipitation" beside that day's own "Light rain overnight."
    let heavy = days.indices.filter { days[$0].precipitation >= wetDay }
    let light = heavy.isEmpty ? days.indices.filter { days[$0].type != nil } : []
    let wetDays = heavy.isEmpty ? light : heavy
    // A Time Machine answer has one day.
    let span = days.count == 1 ? "the day" : "the week"
    var summary: String
    var icon: String
    if wetDays.isEmpty {
      summary = "No precipitation throughout \(span)"
      icon = mostFrequent(days.map(\.text.icon)) ?? "cloudy"
    } else {
      let types = wetDays.compactMap { days[$0].type }
      let type = mostFrequent(types) ?? .rain
      let kind = Set(types).count > 1 ? "mixed precipitation" : Self.noun(type)
      let noun = title(of: light.isEmpty ? kind : "light " + kind)
      icon = type.rawValue
      if wetDays.count == days.count {
        summary = "\(noun) throughout \(span)"
      } else {
        // Runs of consecutive wet days: "today", "on Tuesday and Wednesday", "on Tuesday through Friday".
        var runs: [ClosedRange<Int>] = []
        for index in wetDays {
          if let last = runs.last, last.upperBound == index - 1 {
            runs[runs.count - 1] = last.lowerBound...index
          } else {
            runs.append(index...index)
          }
        }
        let phrases = runs.map { run in
          switch run.count {
          case 1: on(run.lowerBound)
          case 2: "\(on(run.lowerBound)) and \(name(run.upperBound))"
          default: "\(on(run.lowerBound)) through \(name(run.upperBound))"
          }
        }
        summary = "\(noun) \(list(phrases))"
      }
    }
    let highs = days.indices.compactMap { index in days[index].high.map { (index, $0) } }
    if highs.count > 1, let peak = highs.max(by: { $0.1 < $1.1 }), let trough = highs.min(by: { $0.1 < $1.1 }) {
      if peak.0 > 0 {
        summary += ", with high temperatures peaking at \(degrees(peak.1))\(temperatureUnit) \(on(peak.0))"
      } else {
        summary += ", with high temperatures falling to \(degrees(trough.1))\(temperatureUnit) \(on(trough.0))"
      }
    }
    return Text(summary: summary + ".", icon: icon)
  }

  // MARK: Rules

  /// A dry hour's sky, or its fog or wind.
  enum Sky: Hashable {
    case clear, partlyCloudy, overcast, fog, wind

    init(_ hour: DarkSkyHour) {
      if hour.weatherCode?.darkSky.dayIcon == "fog" {
        self = .fog
      } else if (hour.windSpeed ?? 0) >= DarkSkySummary.windy {
        self = .wind
      } else if let cloud = hour.cloudCover {
        self =
          cloud >= DarkSkySummary.overcast ? .overcast : cloud >= DarkSkySummary.partlyCloudy ? .partlyCloudy : .clear
      } else {
        switch hour.weatherCode {
        case .overcast: self = .overcast
        case .partlyCloudy: self = .partlyCloudy
        default: self = .clear
        }
      }
    }

    var words: String {
      switch self {
      case .clear: "clear"
      case .partlyCloudy: "partly cloudy"
      case .overcast: "overcast"
      case .fog: "foggy"
      case .wind: "windy"
      }
    }

    func icon(isDay: Bool) -> String {
      switch self {
      case .clear: isDay ? "clear-day" : "clear-night"
      case .partlyCloudy: isDay ? "partly-cloudy-day" : "partly-cloudy-night"
      case .overcast: "cloudy"
      case .fog: "fog"
      case .wind: "wind"
      }
    }
  }

  /// A span of hours' text: its precipitation when any hour is wet, its sky otherwise.
  static func period(_ hours: [DarkSkyHour], phrases: Phrases, isDay: Bool) -> Text {
    guard !hours.isEmpty else { return Text(summary: "No forecast.", icon: "cloudy") }
    let wet = hours.map(\.isWet)
    if let first = wet.firstIndex(of: true), let last = wet.lastIndex(of: true) {
      let type = mostFrequent(hours.compactMap(\.precipitationType)) ?? .rain
      let peak = hours.compactMap(\.precipitation).max() ?? 0
      let words = title(of: intensity(peak) + noun(type))
      let end = hours.count - 1
      let when: String =
        switch (first == 0, last == end) {
        case (true, true): "throughout the day"
        case (true, false): phrases.until(hours[last + 1])
        case (false, true): phrases.starting(hours[first])
        case (false, false):
          phrases.part(hours[first]) == phrases.part(hours[last])
            ? phrases.during(hours[first]) : "\(phrases.from(hours[first])) \(phrases.until(hours[last + 1]))"
        }
      return Text(summary: "\(words) \(when).", icon: type.rawValue)
    }
    let skies = hours.map(Sky.init)
    let dominant = mostFrequent(skies) ?? .clear
    let icon = dominant.icon(isDay: isDay)
    let changes = skies.indices.dropFirst().filter { skies[$0] != skies[$0 - 1] }
    guard changes.count == 1, let change = changes.first else {
      return Text(summary: "\(title(of: dominant.words)) throughout the day.", icon: icon)
    }
    // One change: say the longer-lasting sky and when the change comes.
    if change >= hours.count - change {
      return Text(summary: "\(title(of: skies[0].words)) \(phrases.until(hours[change])).", icon: icon)
    }
    return Text(summary: "\(title(of: skies[change].words)) \(phrases.starting(hours[change])).", icon: icon)
  }

  /// How a span's summary names day parts: relative to a first hour ("this afternoon",
  /// "tomorrow night"), or within one day ("in the afternoon", "overnight").
  struct Phrases {
    /// The day (shifted back six hours, so that a night belongs to the evening before it)
    /// that "this" refers to; nil for a single day's plain parts.
    let reference: Int64?

    init(relativeTo first: DarkSkyHour?) {
      reference = first.map(Self.shiftedDay)
    }

    static func shiftedDay(_ hour: DarkSkyHour) -> Int64 {
      let local = hour.time + Int64(hour.utcOffset) - 6 * 3_600
      return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    /// 0 night (0–6 h), 1 morning, 2 afternoon, 3 evening.
    func part(_ hour: DarkSkyHour) -> Int { hour.localHour / 6 }

    private static let parts = ["night", "morning", "afternoon", "evening"]

    /// The part's name relative to the reference day, nil for plain parts.
    private func relative(_ hour: DarkSkyHour) -> String? {
      guard let reference else { return nil }
      let part = part(hour)
      if Self.shiftedDay(hour) == reference { return part == 0 ? "tonight" : "this \(Self.parts[part])" }
      return "tomorrow \(Self.parts[part])"
    }

    func during(_ hour: DarkSkyHour) -> String {
      relative(hour) ?? (part(hour) == 0 ? "overnight" : "in the \(Self.parts[part(hour)])")
    }

    func until(_ hour: DarkSkyHour) -> String {
      "until " + (relative(hour) ?? (part(hour) == 0 ? "early morning" : Self.parts[part(hour)]))
    }

    func starting(_ hour: DarkSkyHour) -> String { "starting " + during(hour) }

    func from(_ hour: DarkSkyHour) -> String {
      "from " + (relative(hour) ?? (part(hour) == 0 ? "overnight" : "the \(Self.parts[part(hour)])"))
    }
  }

  /// "light " below `moderate`, "heavy " from `heavy`, nothing between.
  static func intensity(_ rate: Double) -> String {
    rate < moderate ? "light " : rate >= heavy ? "heavy " : ""
  }

  static func noun(_ type: DarkSkyPrecipitation) -> String { type.rawValue }

  /// `text` with its first letter capitalised.
  static func title(of text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

  /// A title-case summary ("Partly Cloudy") as the start of a sentence ("Partly cloudy").
  static func sentence(_ summary: String) -> String { summary.prefix(1) + summary.dropFirst().lowercased() }

  /// The most frequent item, the earliest of those tied.
  static func mostFrequent<Item: Equatable>(_ items: [Item]) -> Item? {
    // A day's few items are of a few kinds: counting them in a list of the kinds met, in
    // the order first met, costs less than hashing each (2 % of a forecast).
    var kinds: [(item: Item, count: Int)] = []
    for item in items {
      if let known = kinds.firstIndex(where: { $0.item == item }) {
        kinds[known].count += 1
      } else {
        kinds.append((item, 1))
      }
    }
    var best: (item: Item, count: Int)?
    for kind in kinds where kind.count > best?.count ?? 0 { best = kind }
    return best?.item
  }

  /// "a", "a and b", "a, b and c".
  static func list(_ items: [String]) -> String {
    guard items.count > 1, let last = items.last else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }

  /// A temperature rounded to a whole degree.
  static func degrees(_ value: Double) -> String { String(Int(value.rounded())) }

  /// The English name of the date's day of the week.
  static func weekday(_ date: LocalDate) -> String {
    // 1970-01-01 was a Thursday.
    let names = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
    return names[((date.daysSinceEpoch % 7) + 7) % 7]
  }
}
