import Meteorology
import Testing

/// Snow depth from its water equivalent: kg/m² over kg/m³ is metres.
@Suite struct SnowDepthTests {
  @Test func depthIsWaterOverDensity() {
    // 100 mm of water at 250 kg/m³ is 0.4 m of snow; at 400 kg/m³, 0.25 m.
    #expect(SnowDepth.metres(waterEquivalent: 100) == 0.4)
    #expect(SnowDepth.metres(waterEquivalent: 100, density: 400) == 0.25)
    #expect(SnowDepth.metres(waterEquivalent: 0, density: 100) == 0)
    // Round-off below zero is no snow.
    #expect(SnowDepth.metres(waterEquivalent: -0.001, density: 100) == 0)
  }

  /// The fallback stands in for a density the model does not give, never for one that is
  /// unknown in a cell: that depth is unknown too.
  @Test func anUnknownDensityOrWaterMakesAnUnknownDepth() {
    for density in [Double.nan, 0, -5, .infinity] {
      #expect(SnowDepth.metres(waterEquivalent: 100, density: density).isNaN, "\(density)")
    }
    #expect(SnowDepth.metres(waterEquivalent: .nan).isNaN)
    #expect(SnowDepth.metres(waterEquivalent: .infinity, density: 300).isNaN)
  }
}
