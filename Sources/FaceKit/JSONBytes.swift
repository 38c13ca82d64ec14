import UTCTime

/// A JSON text built byte by byte, for answers written on every request: numbers and times
/// are formatted by hand into one growing buffer, with no intermediate string per value
/// (what `JSONText` allocates) and no `DateFormatter`.
///
/// The buffer is its own allocation rather than an `[UInt8]`: appending to an array checks
/// its uniqueness and capacity for every byte, which was a tenth of a Dark Sky forecast's
/// time. Here each write reserves its room once and stores through the pointer. Being
/// non-copyable, a writer has one owner, so the buffer needs no reference counting and is
/// freed when the writer ends.
package struct JSONBytes: ~Copyable {
  private var start: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  package init(capacity: Int) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity)
  }

  deinit { start.deallocate() }

  /// The bytes written so far.
  package var bytes: [UInt8] { Array(written) }

  /// The text written so far.
  package var text: String { String(decoding: written, as: UTF8.self) }

  private var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  /// Makes room for `extra` more bytes: doubles the buffer when it is too small.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if extra > capacity - count { grow(to: count + extra) }
  }

  private mutating func grow(to needed: Int) {
    let larger = max(needed, capacity * 2)
    let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    fresh.initialize(from: start, count: count)
    start.deallocate()
    start = fresh
    capacity = larger
  }

  /// Copies `source`'s bytes to the end.
  private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
    guard let base = source.baseAddress else { return }
    reserve(source.count)
    (start + count).initialize(from: base, count: source.count)
    count += source.count
  }

  package mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  package mutating func byte(_ byte: UInt8) {
    reserve(1)
    start[count] = byte
    count += 1
  }

  /// Bytes written before, as they are.
  package mutating func append(_ other: [UInt8]) { other.withUnsafeBufferPointer { append($0) } }

  /// `text` as a JSON string, escaped where needed: the text `JSONText.string` gives,
  /// written straight into the buffer. Making that string first was a sixth of a Dark Sky
  /// forecast's time, which writes a key or a text for every value.
  package mutating func string(_ text: String) {
    var text = text
    byte(UInt8(ascii: "\""))
    text.withUTF8 { utf8 in
      // Keys and most values need no escaping: copied whole.
      guard !utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
        append(utf8)
        return
      }
      for character in utf8 {
        switch character {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped(character)
        case UInt8(ascii: "\n"): escaped(UInt8(ascii: "n"))
        case UInt8(ascii: "\t"): escaped(UInt8(ascii: "t"))
        case UInt8(ascii: "\r"): escaped(UInt8(ascii: "r"))
        case ..<0x20:
          let hex = Array("0123456789abcdef".utf8)
          raw("\\u00")
          byte(hex[Int(character >> 4)])
          byte(hex[Int(character & 0x0F)])
        default: byte(character)
        }
      }
    }
    byte(UInt8(ascii: "\""))
  }

  /// A backslash and `character`.
  private mutating func escaped(_ character: UInt8) {
    byte(UInt8(ascii: "\\"))
    byte(character)
  }

  /// `"name":`, preceded by a comma unless it is the object's first member.
  package mutating func key(_ name: String, first: Bool = false) {
    if !first { byte(UInt8(ascii: ",")) }
    string(name)
    byte(UInt8(ascii: ":"))
  }

  /// `key(_:first:)` for a name known when compiling, which needs no escaping: its bytes
  /// are copied as they are, with no string made for them (a document writing keys per
  /// entry writes a thousand of them).
  package mutating func literalKey(_ name: StaticString, first: Bool = false) {
    let length = name.utf8CodeUnitCount
    reserve(length + 4)
    var position = count
    if !first {
      start[position] = UInt8(ascii: ",")
      position += 1
    }
    start[position] = UInt8(ascii: "\"")
    // `withUTF8Buffer` rather than `utf8Start`: a one-character name may be held as a scalar.
    let target = start + position + 1
    name.withUTF8Buffer { utf8 in
      if let base = utf8.baseAddress { target.initialize(from: base, count: length) }
    }
    position += length + 1
    start[position] = UInt8(ascii: "\"")
    start[position + 1] = UInt8(ascii: ":")
    count = position + 2
  }

  package mutating func integer(_ value: Int64) {
    if value < 0 {
      byte(UInt8(ascii: "-"))
      digits(value.magnitude, minimum: 1)
    } else {
      digits(UInt64(value), minimum: 1)
    }
  }

  /// `value` rounded to `decimals` places (at most 9), without trailing zeros: `21.37`,
  /// `21.3`, `21`; `null` for nil and non-finite values. The same text as
  /// `JSONText.number` for every value a forecast holds.
  package mutating func number(_ value: Double?, decimals: Int) {
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
    if whole < 0 { byte(UInt8(ascii: "-")) }
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
    byte(UInt8(ascii: "."))
    digits(magnitude, minimum: places2)
  }

  /// `items` as a JSON array, each item written by `write`.
  package mutating func array<Items: Sequence>(_ items: Items, _ write: (inout JSONBytes, Items.Element) -> Void) {
    byte(UInt8(ascii: "["))
    var first = true
    for item in items {
      if !first { byte(UInt8(ascii: ",")) }
      first = false
      write(&self, item)
    }
    byte(UInt8(ascii: "]"))
  }

  /// `value` in decimal, padded with zeros to `minimum` digits. The digits are counted
  /// first, then written lowest first from the end of their room, dividing by the constant
  /// 10 (a multiplication once compiled, where dividing by a power of ten held in a
  /// variable is a division per digit, 8 % of a forecast request).
  package mutating func digits(_ value: UInt64, minimum: Int) {
    var length = 1
    var probe = value
    while probe >= 10 {
      probe /= 10
      length += 1
    }
    let width = max(length, minimum)
    reserve(width)
    var position = count + width
    var rest = value
    repeat {
      position -= 1
      start[position] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    } while rest > 0
    while position > count {
      position -= 1
      start[position] = UInt8(ascii: "0")
    }
    count += width
  }

  /// The local wall-clock time `instant + utcOffset` as `yyyy-MM-ddTHH:mm` (seconds cut,
  /// as Open-Meteo writes sunrise and sunset), or only its date `yyyy-MM-dd`; with no offset,
  /// as Open-Meteo writes times. OpenWeatherMap's `dt_txt` is `yyyy-MM-dd HH:mm:ss`: another
  /// `separator`, with `seconds`.
  package mutating func localTime(
    _ instant: Int64, utcOffset: Int, dateOnly: Bool = false, separator: UInt8 = UInt8(ascii: "T"),
    seconds: Bool = false
  ) {
    let local = instant + Int64(utcOffset)
    let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    let time = local - days * 86_400
    let (year, month, day) = UTC.civil(fromDays: Int(days))
    if year < 0 || year > 9999 { byte(UInt8(ascii: year < 0 ? "-" : "+")) }
    digits(UInt64(year.magnitude), minimum: 4)
    byte(UInt8(ascii: "-"))
    digits(UInt64(month), minimum: 2)
    byte(UInt8(ascii: "-"))
    digits(UInt64(day), minimum: 2)
    guard !dateOnly else { return }
    byte(separator)
    digits(UInt64(time / 3_600), minimum: 2)
    byte(UInt8(ascii: ":"))
    digits(UInt64(time / 60 % 60), minimum: 2)
    guard seconds else { return }
    byte(UInt8(ascii: ":"))
    digits(UInt64(time % 60), minimum: 2)
  }
}
