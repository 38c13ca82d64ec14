/// Snow depth on the ground from its water equivalent: a snowpack of w kg/m² (mm of
/// water) at a bulk density of ρ kg/m³ is w / ρ metres deep, the relation ECMWF gives for
/// its `sd` (water equivalent) and `rsn` (snow density).
public enum SnowDepth {
  /// The density assumed where the model gives none, kg/m³: a middle value of the
  /// 100–450 kg/m³ ECMWF's snow scheme lets a snowpack take, from fresh snow to old,
  /// settled snow. A choice, not a measurement: ingest warns when it uses it.
  public static let fallbackDensity = 250.0

  /// Depth in metres of `waterEquivalent` mm (kg/m²) of snow at `density` kg/m³, or at
  /// the fallback density where the model gives none (nil). A density the model gives but
  /// that is unknown in this cell (not a positive number) makes the depth unknown: the
  /// fallback stands in for a missing field, not for a bad value. NaN stays NaN, and no snow
  /// is 0 m.
  public static func metres(waterEquivalent: Double, density: Double? = nil) -> Double {
    guard waterEquivalent.isFinite else { return .nan }
    let rho = density ?? fallbackDensity
    guard rho.isFinite, rho > 0 else { return .nan }
    return max(waterEquivalent, 0) / rho
  }
}
