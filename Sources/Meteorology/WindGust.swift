/// Surface wind gusts by UPP's `CALGUST.f` (Manikin 2003, NCEP Unified Post Processor):
/// momentum mixed down from the top of the boundary layer,
///
///     gust = ws + (wpbl − ws) · (1 − min(0.5, PBLH / 2000 m))
///
/// with ws the 10 m wind speed and wpbl the wind speed of the model level that contains
/// the boundary layer's top. No rotation to earth axes is needed: only speeds enter.
public enum WindGust {
  /// The gust speed (m/s) from the 10 m wind speed, the wind speed at the top of the
  /// boundary layer (m/s) and the boundary layer's height (m; negative counts as 0).
  public static func speed(surface: Double, boundaryLayerTop: Double, boundaryLayerHeight: Double) -> Double {
    // `min`/`max` would turn an unknown height into a depth of 1000 m or more.
    guard !boundaryLayerHeight.isNaN else { return .nan }
    return surface + (boundaryLayerTop - surface) * (1 - min(0.5, max(boundaryLayerHeight, 0) / 2000))
  }
}
