import Foundation
import JSONOutput
import Testing

/// The encoder of the cold answers writes keys in the order a value encodes them, numbers
/// as the documents write them, and JSON that Foundation's parser reads back to the same
/// value Foundation's own encoder writes.
@Suite struct OrderedJSONEncoderTests {
  /// Keys neither sorted nor in any hash order: zeta before alpha, a nested object and an
  /// array of mixed values.
  struct Document: Encodable {
    struct Inner: Encodable {
      let b: Int
      let a: String
    }

    let zeta = 1
    let alpha = "a"
    let inner = Inner(b: 2, a: "x")
    let mixed: [Bool?] = [true, nil, false]
    let absent: String? = nil
    let last = -7
  }

  static func text(_ value: some Encodable) throws -> String { try OrderedJSONEncoder().text(value) }

  @Test func keysComeInTheOrderEncodedAndANilOptionalIsLeftOut() throws {
    #expect(
      try Self.text(Document())
        == #"{"zeta":1,"alpha":"a","inner":{"b":2,"a":"x"},"mixed":[true,null,false],"last":-7}"#)
  }

  @Test func whatItWritesParsesToWhatFoundationsEncoderWrites() throws {
    let ours = try JSONSerialization.jsonObject(with: Data(try OrderedJSONEncoder().encode(Document())))
    let foundation = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(Document()))
    #expect((ours as? NSDictionary) == (foundation as? NSDictionary))
  }

  @Test func decimalsAreRoundedToTheirPlacesAndDoublesWrittenAsSwiftDescribesThem() throws {
    // Rounded half away from zero at the last place; no trailing zeros; null for none.
    #expect(try Self.text(JSONDecimal(21.3749, places: 2)) == "21.37")
    #expect(try Self.text(JSONDecimal(-0.05, places: 1)) == "-0.1")
    #expect(try Self.text(JSONDecimal(45, places: 4)) == "45")
    #expect(try Self.text(JSONDecimal(nil, places: 4)) == "null")
    #expect(try Self.text(JSONDecimal(.nan, places: 4)) == "null")
    #expect(try Self.text([45.0, 38.72, -8.9341, 0.1 + 0.2]) == "[45.0,38.72,-8.9341,0.30000000000000004]")
    #expect(try Self.text([Int64.min]) == "[-9223372036854775808]")
    #expect(try Self.text([UInt64.max]) == "[18446744073709551615]")
    #expect(try Self.text([Float(0.5)]) == "[0.5]")
  }

  @Test func aDecimalInAnotherEncoderIsItsRoundedValue() throws {
    let data = try JSONEncoder().encode([JSONDecimal(21.3749, places: 2), JSONDecimal(nil, places: 2)])
    let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [Any])
    #expect((parsed[0] as? NSNumber)?.doubleValue == 21.37)
    #expect(parsed[1] is NSNull)
  }

  @Test func stringsAreEscapedWhereJSONRequiresAndSlashesAreNot() throws {
    let text = "a/b \"quoted\" back\\slash\nline\ttab\r\u{1}\u{1F}é☂"
    let written = try Self.text([text])
    #expect(written == #"["a/b \"quoted\" back\\slash\nline\ttab\r\u0001\u001fé☂"]"#)
    let parsed = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String]
    #expect(parsed == [text])
  }

  /// A value whose key is encoded twice, and one that encodes nothing.
  struct Twice: Encodable {
    enum CodingKeys: String, CodingKey { case a, b }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .a)
      try container.encode(2, forKey: .b)
      try container.encode("again", forKey: .a)
    }
  }

  struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  @Test func aKeyEncodedTwiceKeepsItsPlaceAndItsLastValue() throws {
    #expect(try Self.text(Twice()) == #"{"a":"again","b":2}"#)
    #expect(try Self.text(Nothing()) == "{}")
  }

  struct Outer: Encodable {
    struct Inner: Encodable { let y: [Double] }
    let x: Inner
  }

  @Test func aNumberJSONCannotWriteIsAnErrorNamingWhereItIs() throws {
    #expect {
      try Self.text(Outer(x: .init(y: [1, .infinity])))
    } throws: { error in
      guard case EncodingError.invalidValue(_, let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["x", "y", "Index 1"]
        && context.debugDescription == "inf is not a JSON number"
    }
  }
}
