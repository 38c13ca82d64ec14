import UTCTime

/// The JSON writer of every answer written per request: a JSON text built byte by byte,
/// numbers (through `DecimalFormat`) and times formatted by hand into one growing buffer,
/// with no intermediate string per value and no `DateFormatter`.
///
/// The buffer is its own allocation rather than an `[UInt8]`: appending to an array checks
/// its uniqueness and capacity for every byte, which was a tenth of a Dark Sky forecast's
/// time. Here each write reserves its room once and stores through the pointer. Being
/// non-copyable, a writer has one owner, so the buffer needs no reference counting and is
/// freed when the writer ends.
///
/// Its methods are `@inlinable`: the documents of other modules call them for every byte,
/// key and number, and a call across the module boundary for each cost a forecast answer a
/// quarter of its time more than the same writer compiled into the documents' own module.
public struct JSONWriter: ~Copyable {
  @usableFromInline var start: UnsafeMutablePointer<UInt8>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int

  /// A writer whose buffer starts with room for `capacity` bytes.
  @inlinable public init(capacity: Int) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity)
  }

  deinit { start.deallocate() }

  /// The bytes written so far.
  @inlinable public var bytes: [UInt8] { Array(written) }

  /// The text written so far.
  @inlinable public var text: String { String(decoding: written, as: UTF8.self) }

  /// Lends the bytes written so far to `body`, without copying them: a response body is
  /// then made from them in one copy.
  @inlinable public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try body(UnsafeRawBufferPointer(written))
  }

  @usableFromInline var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  /// Makes room for `extra` more bytes: doubles the buffer when it is too small.
  @inlinable @inline(__always)
  mutating func reserve(_ extra: Int) {
    if extra > capacity - count { grow(to: count + extra) }
  }

  @usableFromInline mutating func grow(to needed: Int) {
    let larger = max(needed, capacity * 2)
    let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    fresh.initialize(from: start, count: count)
    start.deallocate()
    start = fresh
    capacity = larger
  }

  /// Copies `source`'s bytes to the end.
  @inlinable mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
    guard let base = source.baseAddress else { return }
    reserve(source.count)
    (start + count).initialize(from: base, count: source.count)
    count += source.count
  }

  /// `text` as it is, unescaped: JSON written before, or a literal.
  @inlinable public mutating func raw(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// One byte.
  @inlinable public mutating func byte(_ byte: UInt8) {
    reserve(1)
    start[count] = byte
    count += 1
  }

  /// Bytes written before, as they are.
  @inlinable public mutating func append(_ other: [UInt8]) { other.withUnsafeBufferPointer { append($0) } }

  /// `text` as a JSON string, escaped where needed, written straight into the buffer.
  /// Making a string first was a sixth of a Dark Sky forecast's time, which writes a key
  /// or a text for every value.
  @inlinable public mutating func string(_ text: String) {
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
  @inlinable mutating func escaped(_ character: UInt8) {
    byte(UInt8(ascii: "\\"))
    byte(character)
  }

  /// `"name":`, preceded by a comma unless it is the object's first member.
  @inlinable public mutating func key(_ name: String, first: Bool = false) {
    if !first { byte(UInt8(ascii: ",")) }
    string(name)
    byte(UInt8(ascii: ":"))
  }

  /// `key(_:first:)` for a name known when compiling, which needs no escaping: its bytes
  /// are copied as they are, with no string made for them (a document writing keys per
  /// entry writes a thousand of them).
  @inlinable public mutating func literalKey(_ name: StaticString, first: Bool = false) {
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

  /// `value` in decimal.
  @inlinable public mutating func integer(_ value: Int64) {
    if value < 0 {
      byte(UInt8(ascii: "-"))
      digits(value.magnitude, minimum: 1)
    } else {
      digits(UInt64(value), minimum: 1)
    }
  }

  /// `value` rounded to `decimals` places (0…9), without trailing zeros, as
  /// `DecimalFormat.json` writes it: `21.37`, `21.3`, `21`; `null` for nil and non-finite
  /// values.
  @inlinable public mutating func number(_ value: Double?, decimals: Int) {
    guard let value else {
      raw("null")
      return
    }
    reserve(DecimalFormat.maximumFixedLength)
    if let written = DecimalFormat.fixed(value, places: decimals, into: start + count) {
      count += written
    } else {
      raw(DecimalFormat.json(value, places: decimals))
    }
  }

  /// `items` as a JSON array, each item written by `write`.
  @inlinable public mutating func array<Items: Sequence>(
    _ items: Items, _ write: (inout JSONWriter, Items.Element) -> Void
  ) {
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
  @inlinable public mutating func digits(_ value: UInt64, minimum: Int) {
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
  @inlinable public mutating func localTime(
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
