import Foundation
import Testing

@testable import FaceKit
@testable import HTTPService

/// The hand-written byte formatting on every forecast request, against independent
/// computations: numbers against integer arithmetic and `String(_:)`, query scans against
/// the standard library's `firstRange(of:)`.
@Suite struct ByteFormattingTests {
  /// `JSONBytes.number` rounds half away from zero to `decimals` places and drops trailing
  /// zeros, as `JSONText.number` does.
  @Test func numbersAreTheirRoundedDecimalDigits() {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] = [0, -0.0, 1, -1, 9, 10, 99, 100, 0.05, -0.05, 12_345.678, 1e14, -1e14, 65_534]
    for _ in 0..<20_000 {
      values.append(Double.random(in: -1e6...1e6, using: &generator))
      values.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / 100)
    }
    var differing: [String] = []
    for value in values {
      for decimals in 0...4 {
        var out = JSONBytes(capacity: 32)
        out.number(value, decimals: decimals)
        let expected = Self.oracle(value, decimals: decimals)
        if out.text != expected { differing.append("\(value) at \(decimals): \(out.text) ≠ \(expected)") }
      }
    }
    #expect(differing.isEmpty, "\(differing.prefix(5))")
    var missing = JSONBytes(capacity: 8)
    missing.number(.nan, decimals: 2)
    #expect(missing.text == "null")
  }

  /// The same number written with integer arithmetic and `String(Int)`.
  static func oracle(_ value: Double, decimals: Int) -> String {
    var factor = 1.0
    for _ in 0..<decimals { factor *= 10 }
    let scaled = Int64((value * factor).rounded())
    let divisor = Int64((0..<decimals).reduce(1) { product, _ in product * 10 })
    let (whole, fraction) = (scaled.magnitude / UInt64(divisor), scaled.magnitude % UInt64(divisor))
    var text = (scaled < 0 ? "-" : "") + String(whole)
    if fraction != 0 {
      var digits = String(fraction)
      digits = String(repeating: "0", count: decimals - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text
  }

  /// `JSONBytes.string` writes what `JSONText.string` writes, and Foundation's JSON parser
  /// reads back the text given, control characters, quotes and non-ASCII included.
  @Test func stringsAreEscapedAsJSONTextEscapesThem() throws {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("ab \"\\/\n\t\r\u{0}\u{1}\u{1F}\u{7F}é°€😀<&'")
    var texts = ["", "plain", "\"", "\\", "\u{1b}[0m", "Light Rain"]
    for _ in 0..<3_000 {
      texts.append(
        String(
          (0..<Int.random(in: 0...16, using: &generator)).map { _ in
            alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
          }))
    }
    for text in texts {
      var out = JSONBytes(capacity: 16)
      out.string(text)
      #expect(out.text == JSONText.string(text), "\(text.debugDescription)")
      let parsed = try JSONSerialization.jsonObject(with: Data(out.bytes), options: .fragmentsAllowed) as? String
      #expect(parsed == text, "\(text.debugDescription)")
    }
  }

  /// `KeyLocation.mentions` finds a name wherever it occurs in any ASCII case, and only there.
  @Test func queryScansFindWhatTheStandardLibraryFinds() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("apikeyAPIKEY=&%6B")
    for _ in 0..<5_000 {
      let query = String(
        (0..<Int.random(in: 0...24, using: &generator)).map { _ in
          alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
        })
      let name = String(
        (0..<Int.random(in: 1...6, using: &generator)).map { _ in
          alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
        }
      ).lowercased()
      let expected = query.lowercased().utf8.firstRange(of: name.utf8) != nil
      #expect(KeyLocation.mentions(query, name) == expected, "\(query) \(name)")
    }
    #expect(KeyLocation.mentions("a=1&apikey=x", "apikey"))
    #expect(!KeyLocation.mentions("a=1&apike=x", "apikey"))
    #expect(KeyLocation.mentions("a=1&APPID=x", "appid") && KeyLocation.mentions("a=1&AppId=x", "appid"))
  }
}
