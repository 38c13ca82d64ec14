import Foundation

/// Great-circle distances on a spherical Earth.
public enum GreatCircle {
  /// The mean Earth radius in metres (IUGG).
  public static let earthRadius = 6_371_008.8

  /// The haversine distance in metres between two points given in degrees.
  public static func distance(
    latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
  ) -> Double {
    let phi1 = latitude1 * .pi / 180
    let phi2 = latitude2 * .pi / 180
    let dPhi = phi2 - phi1
    let dLambda = (longitude2 - longitude1) * .pi / 180
    let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    return 2 * earthRadius * asin(min(1, a.squareRoot()))
  }
}
