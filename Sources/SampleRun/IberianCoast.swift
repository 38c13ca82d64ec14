/// A coarse outline of the Iberian Peninsula's coasts.
///
/// At 9 km a hand-drawn outline of a few dozen points looks much like a real land-use
/// mask, and it keeps the generator free of data files. Land is what lies east of the
/// Atlantic coast, south of the Bay of Biscay, north of the southern coast and west of
/// the Mediterranean coast of Murcia and Valencia; Africa is left out.
enum IberianCoast {
  /// Atlantic coast from Cape St Vincent to Finisterre as (latitude, longitude).
  private static let atlantic: [(Double, Double)] = [
    (36.0, -8.99), (37.02, -8.99), (37.5, -8.80), (37.95, -8.87), (38.30, -8.79),
    (38.42, -9.22), (38.60, -9.22), (38.71, -9.49), (38.78, -9.50), (38.96, -9.42),
    (39.36, -9.40), (39.60, -9.07), (40.15, -8.87), (40.64, -8.75), (41.15, -8.68),
    (41.69, -8.85), (41.87, -8.87), (42.12, -8.85), (42.40, -8.90), (42.60, -9.05),
    (42.77, -9.10), (42.88, -9.27), (43.20, -9.20), (44.00, -9.00),
  ]

  /// The Algarve, the Gulf of Cádiz and the Mediterranean coast as (longitude, latitude).
  private static let southern: [(Double, Double)] = [
    (-8.99, 37.02), (-8.94, 37.00), (-8.67, 37.10), (-8.53, 37.12), (-8.25, 37.08),
    (-7.93, 37.00), (-7.65, 37.12), (-7.42, 37.19), (-6.95, 37.25), (-6.83, 37.13),
    (-6.55, 37.00), (-6.36, 36.78), (-6.35, 36.62), (-6.29, 36.53), (-6.09, 36.28),
    (-6.03, 36.18), (-5.92, 36.19), (-5.60, 36.01), (-5.45, 36.13), (-5.35, 36.14),
    (-5.15, 36.42), (-4.88, 36.51), (-4.42, 36.72), (-3.88, 36.75), (-3.52, 36.72),
    (-3.02, 36.75), (-2.46, 36.83), (-2.19, 36.72), (-1.90, 36.99), (-1.82, 37.18),
    (-1.58, 37.40), (-1.26, 37.56), (-0.98, 37.60), (-0.69, 37.63), (0.50, 37.63),
  ]

  /// The coast of Murcia and Valencia as (latitude, longitude).
  private static let mediterranean: [(Double, Double)] = [
    (37.63, -0.69), (38.00, -0.65), (38.35, -0.48), (38.75, 0.20), (39.00, -0.15),
    (39.47, -0.33), (40.00, 0.00), (40.50, 0.40), (41.00, 0.90),
  ]

  /// The Cantabrian coast and the French Atlantic coast as (longitude, latitude).
  private static let biscay: [(Double, Double)] = [
    (-9.30, 43.00), (-8.50, 43.55), (-7.00, 43.57), (-5.00, 43.58), (-3.00, 43.40),
    (-1.78, 43.38), (-1.50, 43.60), (-1.20, 45.00), (-1.20, 47.00),
  ]

  /// Whether a point is on land.
  static func isLand(latitude: Double, longitude: Double) -> Bool {
    guard longitude > interpolate(atlantic, at: latitude) else { return false }
    guard latitude < interpolate(biscay, at: longitude) else { return false }
    guard latitude > interpolate(southern, at: longitude) else { return false }
    if latitude < 41, longitude > interpolate(mediterranean, at: latitude) { return false }
    return true
  }

  /// Piecewise-linear interpolation in a table sorted by its first column, held
  /// constant beyond the ends.
  private static func interpolate(_ table: [(Double, Double)], at key: Double) -> Double {
    guard let first = table.first, let last = table.last else { return 0 }
    if key <= first.0 { return first.1 }
    if key >= last.0 { return last.1 }
    for index in 1..<table.count where key <= table[index].0 {
      let (k0, v0) = table[index - 1]
      let (k1, v1) = table[index]
      return v0 + (v1 - v0) * (key - k0) / (k1 - k0)
    }
    return last.1
  }
}
