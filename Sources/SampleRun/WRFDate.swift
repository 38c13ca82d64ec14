/// A UTC date and time as WRF writes it (`2026-06-20_00:00:00`).
///
/// The generator only ever adds whole minutes to the run start, so plain proleptic
/// Gregorian arithmetic on the fields is enough and keeps Foundation's calendars (and
/// their time zones) out of the file names.
struct WRFDate: Equatable, Sendable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second: Int

  /// Parses `YYYY-MM-DD_HH:MM:SS`, rejecting anything that is not a real date.
  init?(wrf text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 19 else { return nil }
    let separators: [(Int, UInt8)] = [(4, 45), (7, 45), (10, 95), (13, 58), (16, 58)]
    guard separators.allSatisfy({ bytes[$0.0] == $0.1 }) else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), hour < 24, minute < 60, second < 60,
      day >= 1, day <= Self.daysIn(month: month, year: year)
    else { return nil }
    self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }

  init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// This date `minutes` later (non-negative).
  func adding(minutes: Int) -> WRFDate {
    var date = self
    let total = date.minute + max(minutes, 0)
    date.minute = total % 60
    let hours = date.hour + total / 60
    date.hour = hours % 24
    var days = hours / 24
    // Walking a month at a time is plenty for runs of days to months.
    while days > 0 {
      let left = Self.daysIn(month: date.month, year: date.year) - date.day
      if days <= left {
        date.day += days
        days = 0
      } else {
        days -= left + 1
        date.day = 1
        date.month += 1
        if date.month > 12 {
          date.month = 1
          date.year += 1
        }
      }
    }
    return date
  }

  /// The form of `Times`, `START_DATE` and the wrfout file names.
  var wrfString: String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))_\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
  }

  /// The form WRF puts after "minutes since" in `XTIME`'s units.
  var unitsString: String {
    "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
  }

  /// Day of the year, 1 on 1 January.
  var dayOfYear: Int {
    (1..<month).reduce(day) { $0 + Self.daysIn(month: $1, year: year) }
  }

  /// Hours since midnight UTC, with the fraction.
  var hourOfDay: Double {
    Double(hour) + Double(minute) / 60 + Double(second) / 3600
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
