import Foundation

/// A smoothed relief of western Iberia: a low coastal strip, the Meseta plateau, the
/// Guadalquivir lowlands and the main ranges as Gaussian ridges.
///
/// Heights are what a 9 km model terrain looks like (peaks cut to about 1900 m), which is
/// what matters for lapse-rate and pressure-reduction tests, not the real summit heights.
enum IberianRelief {
  /// A ridge along a great-circle-ish segment: height above the plateau, and the
  /// distance (km) over which it falls to 60 %.
  private struct Ridge {
    let from: (latitude: Double, longitude: Double)
    let to: (latitude: Double, longitude: Double)
    let height: Double
    let halfWidth: Double
  }

  private static let ridges: [Ridge] = [
    // Serra da Estrela, the highest ground in mainland Portugal.
    Ridge(from: (40.20, -7.80), to: (40.45, -7.45), height: 1500, halfWidth: 16),
    // Lousã and Açor, its south-western outliers.
    Ridge(from: (40.02, -8.25), to: (40.20, -7.80), height: 700, halfWidth: 14),
    // Sistema Central: Gata, Gredos, Guadarrama.
    Ridge(from: (40.25, -6.90), to: (40.28, -5.00), height: 1050, halfWidth: 24),
    Ridge(from: (40.28, -5.00), to: (40.90, -3.80), height: 1000, halfWidth: 22),
    // Peneda-Gerês and the Galician and León mountains.
    Ridge(from: (41.70, -8.35), to: (41.90, -7.90), height: 1100, halfWidth: 16),
    Ridge(from: (42.00, -7.30), to: (42.50, -6.30), height: 1000, halfWidth: 35),
    // Marão and Alvão.
    Ridge(from: (41.15, -7.95), to: (41.60, -7.70), height: 900, halfWidth: 14),
    // São Mamede.
    Ridge(from: (39.25, -7.50), to: (39.35, -7.35), height: 600, halfWidth: 12),
    // Aire, Candeeiros and Montejunto.
    Ridge(from: (39.15, -9.05), to: (39.60, -8.75), height: 400, halfWidth: 10),
    // Monchique and Caldeirão behind the Algarve.
    Ridge(from: (37.30, -8.60), to: (37.32, -8.50), height: 800, halfWidth: 9),
    Ridge(from: (37.25, -8.10), to: (37.30, -7.70), height: 450, halfWidth: 14),
    // Sierra Morena and the Montes de Toledo.
    Ridge(from: (38.00, -7.00), to: (38.35, -3.50), height: 500, halfWidth: 28),
    Ridge(from: (39.55, -5.00), to: (39.45, -3.80), height: 450, halfWidth: 22),
    // The Betic ranges with Sierra Nevada.
    Ridge(from: (36.80, -5.30), to: (37.50, -2.00), height: 750, halfWidth: 28),
    Ridge(from: (37.05, -3.60), to: (37.10, -2.80), height: 1300, halfWidth: 18),
  ]

  /// Kilometres per degree of latitude on WRF's sphere.
  static let kilometresPerDegree = 6370 * Double.pi / 180

  /// The height (m) of a land point some kilometres from the sea; sea points are 0 and
  /// never reach here.
  static func elevation(latitude: Double, longitude: Double, coastDistance: Double) -> Double {
    let plateau =
      600 * smoothstep((longitude + 7.4) / 1.3) * smoothstep((latitude - 38.1) / 0.7)
    let hills = 180 * smoothstep(coastDistance / 60)
    var height = plateau + hills
    for ridge in ridges {
      let distance = distanceToSegment(latitude, longitude, ridge)
      height += ridge.height * exp(-distance * distance / (2 * ridge.halfWidth * ridge.halfWidth))
    }
    // Model terrain is smoothed near coastlines; without the taper a ridge ending at the
    // sea would put a cliff between a land cell and its sea neighbour.
    height *= 0.12 + 0.88 * smoothstep(coastDistance / 30)
    // Soft ceiling: 9 km terrain keeps only the broad shape of the highest massifs.
    if height > 1500 { height = 1500 + 420 * tanh((height - 1500) / 420) }
    return height
  }

  /// 0 below 0, 1 above 1, a smooth S between.
  static func smoothstep(_ t: Double) -> Double {
    let x = min(max(t, 0), 1)
    return x * x * (3 - 2 * x)
  }

  /// Kilometres from a point to a ridge's axis, on a local flat map around the point,
  /// which is accurate to well under the ridges' widths.
  private static func distanceToSegment(_ latitude: Double, _ longitude: Double, _ ridge: Ridge) -> Double {
    let east = kilometresPerDegree * cos(latitude * .pi / 180)
    let ax = (ridge.from.longitude - longitude) * east
    let ay = (ridge.from.latitude - latitude) * kilometresPerDegree
    let bx = (ridge.to.longitude - longitude) * east
    let by = (ridge.to.latitude - latitude) * kilometresPerDegree
    let dx = bx - ax
    let dy = by - ay
    let lengthSquared = dx * dx + dy * dy
    let t = lengthSquared > 0 ? min(max(-(ax * dx + ay * dy) / lengthSquared, 0), 1) : 0
    let px = ax + t * dx
    let py = ay + t * dy
    return (px * px + py * py).squareRoot()
  }
}
