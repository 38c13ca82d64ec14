/// A request's query string (or form body), decoded strictly: names and values
/// percent-decoded as UTF-8, and each parameter given at most once unless the caller says
/// otherwise.
///
/// Strict by default, because a lenient reading answers a different question than the one
/// asked: `lat=38&lat=-9` or `lat=38%ZZ` has no single meaning, and a guess would come back
/// as a forecast for the wrong place. Every refusal names the parameter. `+` is not read as
/// a space: no parameter here has spaces, and `Etc/GMT+1` keeps its sign.
///
/// An API whose original reads repeated keys says how (`Repeats`): Open-Meteo's lists
/// gather every value given (`hourly=a&hourly=b,c` is `a`, `b`, `c`), and its single values
/// take the last one given, as its query decoder (Vapor's) does.
public struct QueryParameters: Sendable {
  /// What a parameter given more than once means.
  public enum Repeats: Sendable {
    /// Refused, naming the parameter, except for the list parameters `lists`.
    case refused(except: Set<String> = [])
    /// List parameters in `lists` gather every value; any other takes the last value.
    case lastWins(lists: Set<String> = [])

    var lists: Set<String> {
      switch self {
      case .refused(let lists), .lastWins(let lists): lists
      }
    }
  }

  private let pairs: [(name: String, value: String)]

  /// Decodes `query` (the text after `?`, or a form body; nil when there is none).
  /// - Parameters:
  ///   - repeats: what a parameter given more than once means.
  ///   - keyNames: the key parameters (`apikey`, `appid`), whose values no message quotes.
  /// - Throws: `FaceError` `.tooLong` when the query is longer than `maximumBytes`,
  ///   `.badParameter` for malformed percent-encoding, a parameter without a name, or one
  ///   given twice where `repeats` refuses it.
  public init(
    _ query: String?, maximumBytes: Int, repeats: Repeats = .refused(), keyNames: [String] = []
  ) throws(FaceError) {
    guard let query, !query.isEmpty else {
      pairs = []
      return
    }
    guard query.utf8.count <= maximumBytes else {
      throw FaceError(
        .tooLong, "the query string is \(query.utf8.count) bytes long; at most \(maximumBytes) are accepted")
    }
    var pairs: [(name: String, value: String)] = []
    let lists = repeats.lists
    // Split on bytes: `&` and `=` are ASCII, and walking UTF-8 is much cheaper than walking
    // characters (this runs on every request).
    for part in query.utf8.split(separator: UInt8(ascii: "&")) {
      let equals = part.firstIndex(of: UInt8(ascii: "="))
      let rawName = equals.map { part[..<$0] } ?? part
      let rawValue = equals.map { part[part.index(after: $0)...] } ?? part[part.endIndex...]
      guard var name = Self.percentDecoded(rawName), let value = Self.percentDecoded(rawValue) else {
        // Quoted as the log writes it: a key's value is a secret even when malformed.
        let quoted = KeyLocation.query(String(decoding: part, as: UTF8.self), redacting: keyNames)
        throw FaceError(
          .badParameter,
          "the query string has malformed percent-encoding in \(Self.quoted(quoted)); "
            + "encode bytes as %XX with two hexadecimal digits, in UTF-8")
      }
      guard !name.isEmpty else {
        throw FaceError(
          .badParameter,
          "the query string has a value without a parameter name: \(Self.quoted(String(decoding: part, as: UTF8.self)))"
        )
      }
      // `hourly[]=…`, as form encoders of some languages write a list, is `hourly`.
      if name.hasSuffix("[]"), lists.contains(String(name.dropLast(2))) { name = String(name.dropLast(2)) }
      if case .refused = repeats, !lists.contains(name), pairs.contains(where: { $0.name == name }) {
        throw FaceError.parameter(Self.shortened(name), "given more than once; give each parameter once")
      }
      pairs.append((name, value))
    }
    self.pairs = pairs
  }

  /// The names given, in order.
  public var names: [String] { pairs.map(\.name) }

  /// The value of `name` (the last, where a repeat is allowed), or nil when it is not given.
  public subscript(_ name: String) -> String? {
    pairs.last { $0.name == name }?.value
  }

  /// The items of the list parameter `name`: every value given for it, in order, each split
  /// at commas (and at `|`, which Open-Meteo's decoder also splits at); nil when it is not
  /// given. An empty value is one empty item.
  public func list(_ name: String) -> [Substring]? {
    var items: [Substring]?
    for pair in pairs where pair.name == name {
      // Split on bytes, as the query itself is: both separators are ASCII, and splitting
      // characters walks grapheme clusters, several per cent of a forecast request.
      let split = pair.value.utf8.split(omittingEmptySubsequences: false) {
        $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "|")
      }
      items = (items ?? []) + split.map { Substring($0) }
    }
    return items
  }

  /// The value of the key parameter `name` (lower case), whatever the ASCII case it was
  /// sent in (`KeyLocation.query`).
  /// - Throws: `FaceError` 400 when it is given more than once, whatever `Repeats` says of
  ///   other parameters: a key decides who is answered, and two keys have no single meaning.
  public func key(_ name: String) throws(FaceError) -> String? {
    let values = pairs.filter { KeyLocation.isKeyName($0.name, name) }
    guard values.count <= 1 else {
      throw FaceError.parameter(name, "given more than once; give each parameter once")
    }
    return values.first?.value
  }

  /// Refuses parameters outside `allowed`, which are most often misspellings
  /// (`forecast_day`) that would otherwise be ignored in silence.
  /// - Parameter listed: the names the message lists, `allowed` when nil.
  public func rejectUnknown(allowed: [String], listed: [String]? = nil) throws(FaceError) {
    for name in names where !allowed.contains(name) {
      throw FaceError.parameter(
        Self.shortened(name), "unknown parameter; allowed: \((listed ?? allowed).joined(separator: ", "))")
    }
  }

  /// The value of a parameter that must be given.
  /// - Parameter expected: what a good value looks like, for the message.
  public func required(_ name: String, expected: String) throws(FaceError) -> String {
    guard let value = self[name] else { throw FaceError.parameter(name, "missing; give \(expected)") }
    guard !value.isEmpty else { throw FaceError.parameter(name, "empty; give \(expected)") }
    return value
  }

  /// A decimal number in `range`, or nil when `name` is not given.
  public func number(_ name: String, in range: ClosedRange<Double>, expected: String) throws(FaceError) -> Double? {
    guard let text = self[name] else { return nil }
    return try Self.number(text, name: name, in: range, expected: expected)
  }

  /// A parameter whose value is one of a fixed set of names; `default` when it is not given.
  public func choice<Choice: RawRepresentable & CaseIterable>(
    _ name: String, default: Choice
  ) throws(FaceError) -> Choice where Choice.RawValue == String {
    guard let text = self[name] else { return `default` }
    guard let choice = Choice(rawValue: text) else {
      let allowed = Choice.allCases.map(\.rawValue).joined(separator: " or ")
      throw FaceError.parameter(name, "\(Self.quoted(text)) is not allowed; give \(allowed)")
    }
    return choice
  }

  /// An integer in `range`, or nil when `name` is not given.
  public func integer(_ name: String, in range: ClosedRange<Int>) throws(FaceError) -> Int? {
    guard let text = self[name] else { return nil }
    let allowed = "an integer in \(range.lowerBound)…\(range.upperBound)"
    guard let value = Int(text) else {
      throw FaceError.parameter(name, "\(Self.quoted(text)) is not an integer; give \(allowed)")
    }
    guard range.contains(value) else {
      throw FaceError.parameter(name, "\(value) is out of range; give \(allowed)")
    }
    return value
  }

  /// `text` as a finite decimal number in `range`.
  ///
  /// Plain decimal notation only (`38.1294`, `-8.9341`, `1e-3`): `Double(_:)` alone would
  /// also take `nan`, `inf` and hexadecimal floats, none of which is a coordinate.
  public static func number(
    _ text: String, name: String, in range: ClosedRange<Double>, expected: String
  ) throws(FaceError) -> Double {
    let decimal =
      !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
          || byte == UInt8(ascii: "E")
      }
    guard decimal, let value = Double(text), value.isFinite else {
      throw FaceError.parameter(name, "\(quoted(text)) is not a decimal number; give \(expected)")
    }
    guard range.contains(value) else {
      throw FaceError.parameter(name, "\(quoted(text)) is out of range; give \(expected)")
    }
    return value
  }

  /// `text` in single quotes for a message, shortened when long: a message quotes what
  /// it refuses, but should not echo a kilobyte of it.
  public static func quoted(_ text: String) -> String { "'\(shortened(text))'" }

  /// `text` cut to `limit` characters, with an ellipsis when cut.
  public static func shortened(_ text: String, limit: Int = 60) -> String {
    text.count <= limit ? text : "\(text.prefix(limit))…"
  }

  /// `text` with `%XX` escapes decoded; nil when an escape is malformed or the bytes are
  /// not UTF-8.
  public static func percentDecoded(_ text: Substring.UTF8View) -> String? {
    // The query is a valid String and `&` and `=` are ASCII, so a slice without escapes is
    // valid UTF-8 as it stands.
    guard text.contains(UInt8(ascii: "%")) else { return String(decoding: text, as: UTF8.self) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count)
    var iterator = text.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
