import Testing

@testable import Ingest

/// Unit conversions are applied as steps over a whole read; the stored words depend on the
/// last bit, so each must give exactly the double its formula gives, written out here.
@Suite struct CFConversionTests {
  /// Values that probe the arithmetic: signed zeros, NaN, infinities, subnormals, the
  /// extremes, and a spread of ordinary magnitudes of both signs.
  private static let probes: [Double] = {
    var values: [Double] = [
      0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, 273.15, 32, 1, 100, 0.1, 1e-300,
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      values.append(Double.random(in: -1e6...1e6, using: &generator))
      values.append(Double(Float.random(in: 180...330, using: &generator)))
      values.append(Double(Float.random(in: -1...1, using: &generator)))
    }
    return values
  }()

  /// Each file unit, the stored unit it converts to, and the conversion's formula.
  private static let formulas: [(CFUnit, String, @Sendable (Double) -> Double)] = [
    (.celsius, "K", { $0 - 273.15 }),
    (.celsius, "degC", { $0 }),
    (.celsius, "degF", { ($0 - 32) * 5 / 9 }),
    (.percent, "%", { $0 }),
    (.percent, "(0 - 1)", { $0 * 100 }),
    (.metresPerSecond, "m s-1", { $0 }),
    (.metresPerSecond, "km/h", { $0 / 3.6 }),
    (.metresPerSecond, "knots", { $0 * 1852 / 3600 }),
    (.hectopascal, "Pa", { $0 / 100 }),
    (.hectopascal, "hPa", { $0 }),
    (.hectopascal, "kPa", { $0 * 10 }),
    (.millimetres, "kg m-2", { $0 }),
    (.millimetres, "m", { $0 * 1000 }),
    (.millimetresPerHour, "kg m-2 s-1", { $0 * 3600 }),
    (.millimetresPerHour, "mm/h", { $0 }),
    (.millimetresPerHour, "m s-1", { $0 * 3_600_000 }),
    (.metres, "m", { $0 }),
    (.metres, "km", { $0 * 1000 }),
    (.geopotential, "m2 s-2", { $0 }),
    (.fraction, "1", { $0 }),
    (.fraction, "%", { $0 / 100 }),
    (.wattsPerSquareMetre, "W m-2", { $0 }),
  ]

  @Test func everyConversionGivesItsFormulasExactDoubleValueByValueAndOverAWholeRead() throws {
    for (unit, units, formula) in Self.formulas {
      let conversion = try #require(unit.conversion(from: units), "\(units) to \(unit.rawValue)")
      var whole = Self.probes
      conversion.apply(to: &whole)
      for (index, value) in Self.probes.enumerated() {
        let expected = formula(value)
        // NaN stays NaN (its payload is never stored); every other value to the bit.
        let same = { (x: Double) in x.isNaN ? expected.isNaN : x.bitPattern == expected.bitPattern }
        #expect(
          same(conversion(value)), "\(units) → \(unit.rawValue) of \(value): \(conversion(value)), not \(expected)")
        #expect(
          same(whole[index]), "\(units) → \(unit.rawValue) of \(value) in a read: \(whole[index]), not \(expected)")
      }
    }
  }

  @Test func unknownUnitsHaveNoConversion() {
    #expect(CFUnit.celsius.conversion(from: "furlongs") == nil)
    #expect(CFUnit.hectopascal.conversion(from: "psi") == nil)
  }
}
