import Foundation

extension MapProjection {
  /// What a projection's parameters come to, once checked.
  struct Constants {
    let form: Form
    let cone: Double
    let hemisphere: Double
    let scale: Double
    let columnsPerTurn: Double
  }

  /// Checks WRF's parameters for `kind` and derives the constants of its mapping; throws
  /// `projectionRejected` naming the first parameter that describes no projection.
  static func parameters(
    kind: Kind, truelat1: Double, truelat2: Double, standardLongitude: Double, poleLatitude: Double,
    gridSpacing: Double
  ) throws(GeometryError) -> Constants {
    let cellsPerMetre = 1 / gridSpacing
    let radians = Double.pi / 180
    switch kind {
    case .lambertConformal:
      guard truelat1.isFinite, abs(truelat1) > 0, abs(truelat1) < 90 else {
        throw .projectionRejected("TRUELAT1 \(truelat1) is not a latitude strictly between the equator and a pole")
      }
      try requireLongitude(standardLongitude)
      // WRF reads a TRUELAT2 beyond ±90 (and so a missing one) as a tangent cone at TRUELAT1.
      let truelat2 = truelat2.isFinite && abs(truelat2) <= 90 ? truelat2 : truelat1
      guard abs(truelat2) > 0, abs(truelat2) < 90, (truelat2 > 0) == (truelat1 > 0) else {
        throw .projectionRejected("TRUELAT2 \(truelat2) is not in TRUELAT1 \(truelat1)'s hemisphere")
      }
      let lambert = LambertConformal(truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude)
      let n = lambert.cone
      guard n.isFinite, n > 0, n <= 1 else {
        throw .projectionRejected("TRUELAT1 \(truelat1) and TRUELAT2 \(truelat2) give no cone")
      }
      let phi1 = abs(truelat1) * radians
      // ρ = R·cos φ₁/n · (tan(45° − φ/2) / tan(45° − φ₁/2))ⁿ, in cells, for φ in the cone's hemisphere.
      let scale = Self.earthRadius * cellsPerMetre * cos(phi1) / n * pow(tan(.pi / 4 + phi1 / 2), n)
      return Constants(
        form: .conic, cone: n, hemisphere: truelat1 < 0 ? -1 : 1, scale: scale, columnsPerTurn: .infinity)
    case .polarStereographic:
      guard truelat1.isFinite, abs(truelat1) <= 90 else {
        throw .projectionRejected("TRUELAT1 \(truelat1) is not a latitude")
      }
      try requireLongitude(standardLongitude)
      // ρ = R·(1 + sin |φ₁|) · cos φ / (1 + h·sin φ): true at TRUELAT1, over the pole of its sign.
      let scale = Self.earthRadius * cellsPerMetre * (1 + sin(abs(truelat1) * radians))
      return Constants(
        form: .conic, cone: 1, hemisphere: truelat1 < 0 ? -1 : 1, scale: scale, columnsPerTurn: .infinity)
    case .mercator:
      guard truelat1.isFinite, abs(truelat1) < 90 else {
        throw .projectionRejected("TRUELAT1 \(truelat1) is not a latitude off the poles")
      }
      let cellsPerRadian = Self.earthRadius * cellsPerMetre * cos(truelat1 * radians)
      return Constants(
        form: .mercator, cone: 1, hemisphere: 1, scale: cellsPerRadian, columnsPerTurn: 2 * .pi * cellsPerRadian)
    case .latitudeLongitude:
      // WRF's latinc/loninc: DX as an arc of the sphere.
      let cellsPerDegree = Self.earthRadius * cellsPerMetre * radians
      let rotated = !poleLatitude.isNaN && abs(poleLatitude) != 90
      if rotated {
        guard abs(poleLatitude) < 90 else { throw .projectionRejected("POLE_LAT \(poleLatitude) is not a latitude") }
        try requireLongitude(standardLongitude)
      }
      return Constants(
        form: rotated ? .rotated : .cylindrical, cone: 1, hemisphere: 1, scale: cellsPerDegree,
        columnsPerTurn: 360 * cellsPerDegree)
    }
  }

  private static func requireLongitude(_ standardLongitude: Double) throws(GeometryError) {
    guard standardLongitude.isFinite, abs(standardLongitude) <= 360 else {
      throw .projectionRejected("STAND_LON \(standardLongitude) is not a longitude")
    }
  }
}
