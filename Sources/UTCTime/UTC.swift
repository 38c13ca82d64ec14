/// UTC instants as Unix seconds, with the calendar arithmetic the model conventions need.
///
/// Pure integer arithmetic (proleptic Gregorian, no leap seconds) rather than Foundation's
/// formatters: it is exact, allocation-free and behaves the same on every platform.
///
/// Every function is total: any `Int64` (a time read from a file or a request) and any
/// calendar field gives an answer or nil, never an overflow trap.
public enum UTC {
  /// Years whose days `daysFromCivil` counts without overflow, and a superset of those whose
  /// seconds fit an `Int64` (about ±292 billion years).
  static let calendarYears = -1_000_000_000_000...1_000_000_000_000

  /// Unix seconds of a calendar date and time; nil when a field is out of range or the
  /// instant is not representable in an `Int64`.
  public static func seconds(
    year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0
  ) -> Int64? {
    guard calendarYears.contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
      (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
    else { return nil }
    let days = Int64(daysFromCivil(year: year, month: month, day: day))
    let secondOfDay = Int64(hour * 3600 + minute * 60 + second)
    // Before 1970 a day's midnight can lie below Int64.min while the instant does not
    // (the last representable day): count back from the next midnight instead.
    let (wholeDays, rest) = days < 0 ? (days + 1, secondOfDay - 86_400) : (days, secondOfDay)
    let (midnight, overflow) = wholeDays.multipliedReportingOverflow(by: 86_400)
    let (instant, beyond) = midnight.addingReportingOverflow(rest)
    return overflow || beyond ? nil : instant
  }

  /// The calendar fields of Unix seconds.
  public static func components(
    _ seconds: Int64
  ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    // Floor division without forming `seconds − 86 399`, which overflows for Int64.min.
    var days = seconds / 86_400
    var secondOfDay = Int(seconds % 86_400)
    if secondOfDay < 0 {
      days -= 1
      secondOfDay += 86_400
    }
    // |days| ≤ 1.1 × 10¹⁴, far inside what `civil` computes without overflow.
    let (year, month, day) = civil(fromDays: Int(days))
    return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
  }

  /// Parses WRF's `YYYY-MM-DD_HH:MM:SS`.
  public static func parseWRF(_ text: String) -> Int64? {
    parse(text, dateTimeSeparators: ["_"])
  }

  /// Parses ISO 8601 as users type it: `2026-06-20T15:00:00Z`, `2026-06-20T15:00Z`,
  /// `2026-06-20T15Z`, `2026-06-20 15:00`, `2026-06-20` (midnight), with an optional `Z`,
  /// `+00:00` or other numeric offset.
  public static func parseISO8601(_ text: String) -> Int64? {
    var body = Substring(text)
    var offset: Int64 = 0
    if body.hasSuffix("Z") || body.hasSuffix("z") {
      body = body.dropLast()
    } else if body.count > 10, let sign = body.dropFirst(10).lastIndex(where: { $0 == "+" || $0 == "-" }) {
      let zone = body[body.index(after: sign)...].split(separator: ":")
      guard (1...2).contains(zone.count), let hours = digits(zone[0]), hours <= 14,
        let minutes = zone.count == 2 ? digits(zone[1]) : 0, minutes < 60
      else { return nil }
      offset = Int64(hours * 3600 + minutes * 60) * (body[sign] == "+" ? 1 : -1)
      body = body[..<sign]
    }
    guard let local = parse(String(body), dateTimeSeparators: ["T", "t", " "]) else { return nil }
    // `local` is within years 0…9999 and |offset| ≤ 15 h, so the difference is exact.
    return local - offset
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`; years before 0 get a minus sign (`-0001`), years after 9999
  /// more digits, as ISO 8601's expanded years.
  public static func iso8601(_ seconds: Int64) -> String {
    let c = components(seconds)
    return "\(pad(c.year, 4))-\(pad(c.month))-\(pad(c.day))T\(pad(c.hour)):\(pad(c.minute)):\(pad(c.second))Z"
  }

  /// `yyyyMMddHH`, the run identifier used in store paths.
  public static func runIdentifier(_ seconds: Int64) -> String {
    let c = components(seconds)
    return "\(pad(c.year, 4))\(pad(c.month))\(pad(c.day))\(pad(c.hour))"
  }

  private static func parse(_ text: String, dateTimeSeparators: Set<Character>) -> Int64? {
    let characters = Array(text)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= characters.count else { return nil }
      return digits(characters[range])
    }
    guard characters.count >= 10, characters[4] == "-", characters[7] == "-",
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
    else { return nil }
    if characters.count == 10 { return seconds(year: year, month: month, day: day) }
    guard dateTimeSeparators.contains(characters[10]), let hour = number(11..<13) else { return nil }
    var minute = 0
    var second = 0
    switch characters.count {
    case 13: break
    case 16:
      guard characters[13] == ":", let m = number(14..<16) else { return nil }
      minute = m
    case 19:
      guard characters[13] == ":", characters[16] == ":", let m = number(14..<16), let s = number(17..<19)
      else { return nil }
      minute = m
      second = s
    default: return nil
    }
    return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  /// The value of a field of ASCII digits only (no sign, no spaces), nil otherwise; at
  /// most 9 digits, so that it cannot overflow.
  private static func digits(_ text: some Collection<Character>) -> Int? {
    guard !text.isEmpty, text.count <= 9 else { return nil }
    var value = 0
    for character in text {
      guard let digit = character.asciiValue, digit >= 48, digit <= 57 else { return nil }
      value = value * 10 + Int(digit - 48)
    }
    return value
  }

  /// `value` with leading zeros to `width` digits, after its sign.
  private static func pad(_ value: Int, _ width: Int = 2) -> String {
    let digits = String(value.magnitude)
    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  // Howard Hinnant's days_from_civil / civil_from_days.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The proleptic Gregorian (year, month, day) `days` days after 1970-01-01.
  public static func civil(fromDays days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
  }
}
