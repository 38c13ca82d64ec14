import Testing

@testable import CubeFormat

/// Names and units with control characters are refused by a range test rather than the
/// Unicode property table: the two must agree on every scalar.
@Suite struct ControlCharacterTests {
  @Test func theRangeTestAgreesWithTheGeneralCategoryOnEveryScalar() {
    var disagreements: [UInt32] = []
    var controls = 0
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
      let table = scalar.properties.generalCategory == .control
      if table { controls += 1 }
      if CubeLimits.isControl(scalar) != table { disagreements.append(value) }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { String($0, radix: 16) })")
    #expect(controls == 65)
  }
}
