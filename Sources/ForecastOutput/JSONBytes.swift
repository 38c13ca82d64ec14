import UTCTime

/// A JSON text built byte by byte, for answers written on every request: numbers and times
/// are formatted by hand into one growing buffer, with no intermediate string per value
/// (what `JSONText` allocates) and no `DateFormatter`.
struct JSONBytes {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) {
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func byte(_ byte: UInt8) { bytes.append(byte) }

  /// Bytes written before, as they are.
  mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

  /// `text` as a JSON string, escaped where needed: the text `JSONText.string` gives,
  /// written straight into the buffer. Making that string first was a sixth of a Dark Sky
  /// forecast's time, which writes a key or a text for every value.
  mutating func string(_ text: String) {
    var text = text
    bytes.append(UInt8(ascii: "\""))
    text.withUTF8 { utf8 in
      // Keys and most values need no escaping: copied whole.
      guard !utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
        bytes.append(contentsOf: utf8)
        return
      }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case ..<0x20:
          let hex = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        default: bytes.append(byte)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// `"name":`, preceded by a comma unless it is the object's first member.
  mutating func key(_ name: String, first: Bool = false) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    string(name)
    bytes.append(UInt8(ascii: ":"))
  }

  /// `key(_:first:)` for a name known when compiling, which needs no escaping: its bytes
  /// are copied as they are, with no string made for them (a document writing keys per
  /// entry writes a thousand of them).
  mutating func literalKey(_ name: StaticString, first: Bool = false) {
    if !first { bytes.append(UInt8(ascii: ",")) }
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { bytes.append(contentsOf: $0) }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
  }

  mutating func integer(_ value: Int64) {
    if value < 0 {
      bytes.append(UInt8(ascii: "-"))
      digits(value.magnitude, minimum: 1)
    } else {
      digits(UInt64(value), minimum: 1)
    }
  }

  /// `value` rounded to `decimals` places (at most 9), without trailing zeros: `21.37`,
  /// `21.3`, `21`; `null` for nil and non-finite values. The same text as
  /// `JSONText.number` for every value a forecast holds.
  mutating func number(_ value: Double?, decimals: Int) {
    guard let value, value.isFinite else {
      raw("null")
      return
    }
    let places = min(max(decimals, 0), 9)
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = (value * factor).rounded()
    guard abs(scaled) < 1e15 else {
      raw(JSONText.number(value, decimals: decimals))
      return
    }
    let whole = Int64(scaled)
    if whole < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = whole.magnitude
    var divisor: UInt64 = 1
    for _ in 0..<places { divisor *= 10 }
    digits(magnitude / divisor, minimum: 1)
    magnitude %= divisor
    guard magnitude != 0 else { return }
    var places2 = places
    while magnitude % 10 == 0 {
      magnitude /= 10
      places2 -= 1
    }
    bytes.append(UInt8(ascii: "."))
    digits(magnitude, minimum: places2)
  }

  /// `items` as a JSON array, each item written by `write`.
  mutating func array<Items: Sequence>(_ items: Items, _ write: (inout JSONBytes, Items.Element) -> Void) {
    bytes.append(UInt8(ascii: "["))
    var first = true
    for item in items {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      write(&self, item)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// `value` in decimal, padded with zeros to `minimum` digits. The digits are found lowest
  /// first, dividing by the constant 10 (a multiplication once compiled, where dividing by
  /// a power of ten held in a variable is a division per digit, 8 % of a forecast request),
  /// and appended byte by byte, which is cheaper than copying a scratch buffer's slice.
  mutating func digits(_ value: UInt64, minimum: Int) {
    // UInt64's largest value has 20 digits.
    var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &scratch) { buffer in
      var rest = value
      repeat {
        buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      for _ in count..<max(count, minimum) { bytes.append(UInt8(ascii: "0")) }
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
    }
  }

  /// The local wall-clock time `instant + utcOffset` as `yyyy-MM-ddTHH:mm` (seconds cut,
  /// as Open-Meteo writes sunrise and sunset), or only its date `yyyy-MM-dd`; with no offset,
  /// as Open-Meteo writes times. OpenWeatherMap's `dt_txt` is `yyyy-MM-dd HH:mm:ss`: another
  /// `separator`, with `seconds`.
  mutating func localTime(
    _ instant: Int64, utcOffset: Int, dateOnly: Bool = false, separator: UInt8 = UInt8(ascii: "T"),
    seconds: Bool = false
  ) {
    let local = instant + Int64(utcOffset)
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let time = local - days * 86_400
    let (year, month, day) = UTC.civil(fromDays: Int(days))
    if year < 0 || year > 9999 { bytes.append(UInt8(ascii: year < 0 ? "-" : "+")) }
    digits(UInt64(year.magnitude), minimum: 4)
    bytes.append(UInt8(ascii: "-"))
    digits(UInt64(month), minimum: 2)
    bytes.append(UInt8(ascii: "-"))
    digits(UInt64(day), minimum: 2)
    guard !dateOnly else { return }
    bytes.append(separator)
    digits(UInt64(time / 3_600), minimum: 2)
    bytes.append(UInt8(ascii: ":"))
    digits(UInt64(time / 60 % 60), minimum: 2)
    guard seconds else { return }
    bytes.append(UInt8(ascii: ":"))
    digits(UInt64(time % 60), minimum: 2)
  }
}
