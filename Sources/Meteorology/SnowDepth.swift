/// Snow depth on the ground from its water equivalent: a snowpack of w kg/m² (mm of
/// water) at a bulk density of ρ kg/m³ is w / ρ metres deep, the relation ECMWF gives for
/// its `sd` (water equivalent) and `rsn` (snow density).
public enum SnowDepth {
  /// The density assumed where the model gives none, kg/m³: a middle value of the
  /// 100–450 kg/m³ ECMWF's snow scheme lets a snowpack take, from fresh snow to old,
  /// settled snow. A choice, not a measurement: ingest warns when it uses it.
  public static let fallbackDensity = 250.0

  /// Depth in metres of `waterEquivalent` mm (kg/m²) of snow at `density` kg/m³ (the
  /// fallback where nil or not a density); NaN stays NaN, and no snow is 0 m.
  public static func metres(waterEquivalent: Double, density: Double? = nil) -> Double {
    let rho = density.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? fallbackDensity
    return max(waterEquivalent, 0) / rho
  }
}
