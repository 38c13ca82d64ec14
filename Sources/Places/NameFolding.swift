import Foundation

/// A name as the index compares it: lower case, without diacritics, as UTF-8 bytes, so that
/// `Évora`, `EVORA` and `evora` are one key and a prefix is a byte prefix.
enum NameFolding {
  /// `name` folded. ASCII (most queries, every `asciiname`) takes a byte loop. Other
  /// characters of the Latin, Greek and Cyrillic blocks come from a table made once with
  /// Foundation's canonical decomposition (NFD, marks dropped, lower-cased), because
  /// decomposing at each call costs tens of microseconds on Linux; combining marks are
  /// dropped, and any other character is lower-cased.
  static func fold(_ name: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(name.utf8.count)
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      for byte in name.utf8 { out.append(lowered(byte)) }
      return out
    }
    for scalar in name.unicodeScalars {
      if scalar.isASCII {
        out.append(lowered(UInt8(truncatingIfNeeded: scalar.value)))
      } else if let folded = table[scalar.value] {
        out.append(contentsOf: folded)
      } else if !isMark(scalar) {
        out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
      }
    }
    return out
  }

  private static func lowered(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }

  private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: true
    default: false
    }
  }

  /// The blocks whose letters carry diacritics in place names: Latin-1 Supplement to Latin
  /// Extended-B, Greek, Cyrillic and Latin Extended Additional (Vietnamese).
  private static let blocks: [Range<UInt32>] = [0x80..<0x250, 0x370..<0x530, 0x1E00..<0x1F00]

  /// Each scalar of `blocks` folded, made once on first use.
  private static let table: [UInt32: [UInt8]] = {
    var table: [UInt32: [UInt8]] = [:]
    for block in blocks {
      for value in block {
        guard let scalar = Unicode.Scalar(value) else { continue }
        var folded = ""
        for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars where !isMark(part) {
          let lower = part.properties.lowercaseMapping
          // Letters that are not a base letter plus a mark, so NFD leaves them whole; folded
          // as their usual ASCII spelling, as GeoNames' asciiname does.
          folded += lettersWithoutDecomposition[lower] ?? lower
        }
        table[value] = Array(folded.utf8)
      }
    }
    return table
  }()

  private static let lettersWithoutDecomposition: [String: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i", "þ": "th", "ð": "d",
  ]
}
