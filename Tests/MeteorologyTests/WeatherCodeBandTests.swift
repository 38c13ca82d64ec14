import Foundation
import Meteorology
import Testing

/// A band's codes in one call must be what each cell's conditions give one at a time, with
/// an unknown value (NaN) in a column taken as an absent input.
@Suite struct WeatherCodeBandTests {
  /// Values around every threshold of docs/weather-codes.md, with the unknown and the
  /// impossible ones.
  private static let amounts: [Double] = [0, 0.05, 0.1, 0.2, 0.25, 0.6, 1, 2, 2.5, 5, 8, -0.3, .nan, .infinity]
  private static let temperatures: [Double] = [-5, -0.01, 0, 3, 20, .nan, -.infinity]
  private static let visibilities: [Double] = [200, 999, 1000, 20_000, -1, .nan]
  private static let clouds: [Double] = [0, 19.9, 20, 49, 50, 79, 80, 100, 130, .nan]
  private static let liftedIndices: [Double] = [-5, -2, 0, 3, .nan]

  /// The answer of the one-cell API, a column's NaN passed as nil (absent), written as
  /// the stored value: the code's raw value, NaN for no answer.
  private static func oneAtATime(
    _ p: Double, _ conv: Double?, _ snow: Double?, _ t: Double, _ vis: Double?, _ cloud: Double?, _ li: Double?,
    _ hail: Double?
  ) -> Double {
    let known = { (value: Double?) -> Double? in value.flatMap { $0.isNaN ? nil : $0 } }
    let conditions = WeatherConditions(
      precipitation: p, convective: known(conv), snow: known(snow), temperature: t, visibility: known(vis),
      cloud: known(cloud), liftedIndex: known(li), hail: known(hail))
    return WeatherCode.classifyIfKnown(conditions).map { Double($0.rawValue) } ?? .nan
  }

  @Test(arguments: [false, true])
  func aBandsCodesAreEachCellsCodeWithNaNAsAbsent(withModelLevels: Bool) {
    var generator = SystemRandomNumberGenerator()
    let cells = 8_000
    func column(_ values: [Double]) -> [Double] {
      (0..<cells).map { _ in values.randomElement(using: &generator) ?? 0 }
    }
    let (p, conv, snow) = (column(Self.amounts), column(Self.amounts), column(Self.amounts))
    let (t, vis, cloud) = (column(Self.temperatures), column(Self.visibilities), column(Self.clouds))
    let (li, hail) = (column(Self.liftedIndices), column(Self.amounts))
    // Every combination of the optional columns present or absent, in turn.
    for mask in 0..<64 {
      let present = { (bit: Int, values: [Double]) in mask & (1 << bit) != 0 ? values : nil }
      let (c, s, v, k) = (present(0, conv), present(1, snow), present(2, vis), present(3, cloud))
      let (l, h) = withModelLevels ? (present(4, li), present(5, hail)) : (nil, nil)
      let codes = WeatherCode.codesIfKnown(
        precipitation: p, convective: c, snow: s, temperature: t, visibility: v, cloud: k, liftedIndex: l, hail: h)
      #expect(codes.count == cells)
      var mismatches = 0
      for cell in 0..<cells {
        let expected = Self.oneAtATime(p[cell], c?[cell], s?[cell], t[cell], v?[cell], k?[cell], l?[cell], h?[cell])
        let same = expected.isNaN ? codes[cell].isNaN : codes[cell] == expected
        if !same {
          mismatches += 1
          if mismatches <= 3 {
            Issue.record("mask \(mask), cell \(cell): \(codes[cell]), one at a time \(expected)")
          }
        }
      }
      #expect(mismatches == 0, "mask \(mask)")
    }
  }

  /// A few cells whose codes are read off docs/weather-codes.md's table, so that the
  /// band API is pinned to the documented answers and not only to the one-cell API.
  @Test func aBandGivesTheDocumentedCodes() {
    let codes = WeatherCode.codesIfKnown(
      precipitation: [3, 0, 0, 0.3, 0.3, .nan, 0], convective: nil, snow: [0, 0, 0, 0.3, 0, 0, 0],
      temperature: [10, 10, 10, 10, -2, 10, -3], visibility: [20_000, 20_000, 500, 20_000, 20_000, 20_000, 500],
      cloud: [100, 10, 100, 100, 100, 100, .nan])
    // moderate rain, clear sky, fog, slight snow fall, dense freezing drizzle (0.25–1 mm), no answer
    // without precipitation, rime fog whatever the cloud.
    #expect(codes.count == 7)
    #expect(Array(codes[0..<5]) == [63, 0, 45, 71, 57])
    #expect(codes[5].isNaN)
    #expect(codes[6] == 48)
  }
}
