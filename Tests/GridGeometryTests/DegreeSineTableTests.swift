import Foundation
import GridGeometry
import Testing
import _TestSupport

@Suite struct DegreeSineTableTests {
  /// Every latitude and longitude convention a locator sees (−360…360 degrees), against
  /// libm on the argument reduced exactly, in degrees, to −45…45 first: libm on a large
  /// radian argument carries that argument's rounding (up to 4·10⁻¹⁶ at 2π) itself.
  @Test func tableSinCosAgreesWithLibm() throws {
    let table = DegreeSineTable()
    var random = TestRandom(seed: 1)
    var worst = 0.0
    var degrees = (0..<200_000).map { _ in random.uniform(-360...360) }
    degrees += [0, 0.5, -0.5, 44.5, 89.999_999, 90, -90, 180, -180, 359.5, 360, -360, 1e-300]
    for x in degrees {
      let (s, c) = try #require(table.sinCos(degrees: x))
      let quarter = (x / 90).rounded()
      let radians = (x - quarter * 90) * .pi / 180  // exact subtraction, |radians| ≤ π/4
      let (rs, rc) = (sin(radians), cos(radians))
      let expected: (Double, Double) =
        switch (Int(quarter) % 4 + 4) % 4 {
        case 0: (rs, rc)
        case 1: (rc, -rs)
        case 2: (-rs, -rc)
        default: (-rc, rs)
        }
      let error = max(abs(s - expected.0), abs(c - expected.1))
      worst = max(worst, error)
    }
    #expect(worst < 5e-16)
    #expect(table.sinCos(degrees: 360.001) == nil)
    #expect(table.sinCos(degrees: .nan) == nil)
  }
}
