import Foundation
import Synchronization

/// The abbreviations a zone's clocks show (`WET`, `WEST`, `CET`), read from the system's
/// zone database (`/usr/share/zoneinfo`, TZif files), since Foundation on Linux answers
/// `GMT+1` where the database says `WEST`.
///
/// Each zone's file is read once and kept: a forecast asks for the abbreviation on every
/// request.
enum ZoneAbbreviations {
  /// A zone's transitions (Unix seconds, ascending) with the abbreviation in force from
  /// each, the abbreviation before the first, and the standard and daylight abbreviations
  /// of the rule that holds after the last (the file's footer).
  struct Table: Sendable {
    var transitions: [Int64] = []
    var names: [String] = []
    var initial: String?
    var standard: String?
    var daylight: String?

    func abbreviation(at instant: Int64, daylightSaving: Bool) -> String? {
      if let last = transitions.last, instant < last || (standard == nil && daylight == nil) {
        // The last transition at or before the instant.
        var low = 0
        var high = transitions.count
        while low < high {
          let middle = (low + high) / 2
          if transitions[middle] <= instant { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initial : names[low - 1]
      }
      return daylightSaving ? (daylight ?? standard) : (standard ?? initial)
    }
  }

  private static let tables = Mutex<[String: Table?]>([:])

  /// The directory of the zone database.
  static let directory = "/usr/share/zoneinfo"

  /// The table of the zone called `identifier`, nil when the database has no file for it.
  static func table(_ identifier: String) -> Table? {
    if let known = tables.withLock({ $0[identifier] }) { return known }
    // Identifiers come from Foundation's list, but a path must never leave the directory.
    let table =
      identifier.contains("..") || identifier.hasPrefix("/")
      ? nil
      : FileManager.default.contents(atPath: "\(directory)/\(identifier)").flatMap { parse(Array($0)) }
    tables.withLock { $0[identifier] = table }
    return table
  }

  /// Parses a TZif file (RFC 8536), version 1 data or, when present, the 64-bit data and
  /// footer of versions 2 and later. Nil when the bytes are not such a file.
  static func parse(_ bytes: [UInt8]) -> Table? {
    func uint32(_ at: Int) -> Int? {
      guard at >= 0, at + 4 <= bytes.count else { return nil }
      return bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
    func int64(_ at: Int, size: Int) -> Int64? {
      guard at >= 0, at + size <= bytes.count else { return nil }
      let raw = bytes[at..<(at + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return size == 4 ? Int64(Int32(truncatingIfNeeded: raw)) : Int64(bitPattern: raw)
    }
    /// The block starting at `start` with times of `size` bytes: its table and its length.
    func block(at start: Int, size: Int) -> (Table, Int)? {
      guard bytes.count >= start + 44, bytes[start..<(start + 4)].elementsEqual("TZif".utf8),
        let utc = uint32(start + 20), let std = uint32(start + 24), let leaps = uint32(start + 28),
        let count = uint32(start + 32), let types = uint32(start + 36), let chars = uint32(start + 40),
        types > 0
      else { return nil }
      let timesAt = start + 44
      let indicesAt = timesAt + count * size
      let typesAt = indicesAt + count
      let charsAt = typesAt + types * 6
      let end = charsAt + chars + leaps * (size + 4) + std + utc
      guard end <= bytes.count else { return nil }
      func name(type: Int) -> String? {
        guard type < types else { return nil }
        let index = Int(bytes[typesAt + type * 6 + 5])
        guard index < chars else { return nil }
        let text = bytes[(charsAt + index)..<(charsAt + chars)].prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self)
      }
      var table = Table()
      for transition in 0..<count {
        guard let time = int64(timesAt + transition * size, size: size),
          let name = name(type: Int(bytes[indicesAt + transition]))
        else { return nil }
        table.transitions.append(time)
        table.names.append(name)
      }
      table.initial = name(type: 0)
      return (table, end - start)
    }
    guard let (first, length) = block(at: 0, size: 4) else { return nil }
    guard bytes.count > 4, bytes[4] >= UInt8(ascii: "2"), let second = block(at: length, size: 8) else { return first }
    var table = second.0
    // The footer: a POSIX TZ string between newlines, e.g. `WET0WEST,M3.5.0/1,M10.5.0`.
    let footer = bytes[min(bytes.count, length + second.1)...].drop { $0 == UInt8(ascii: "\n") }
      .prefix { $0 != UInt8(ascii: "\n") }
    (table.standard, table.daylight) = names(inRule: Array(footer))
    return table
  }

  /// The standard and daylight names of a POSIX TZ rule: letters, or `<…>` around a
  /// numeric name such as `+0545`.
  static func names(inRule rule: [UInt8]) -> (String?, String?) {
    var index = 0
    func name() -> String? {
      guard index < rule.count else { return nil }
      if rule[index] == UInt8(ascii: "<") {
        guard let close = rule[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        defer { index = close + 1 }
        return String(decoding: rule[(index + 1)..<close], as: UTF8.self)
      }
      let start = index
      while index < rule.count, (rule[index] | 0x20) >= UInt8(ascii: "a"), (rule[index] | 0x20) <= UInt8(ascii: "z") {
        index += 1
      }
      return index > start ? String(decoding: rule[start..<index], as: UTF8.self) : nil
    }
    let standard = name()
    let signs: Set<UInt8> = [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ":")]
    while index < rule.count,
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(rule[index]) || signs.contains(rule[index])
    {
      index += 1
    }
    return (standard, name())
  }
}
