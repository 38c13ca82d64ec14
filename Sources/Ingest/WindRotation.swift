import Foundation
import GridGeometry
import NetCDF

/// How a WRF domain's grid-relative U10/V10 turn into earth-relative winds.
enum WindRotation {
  /// cos α and sin α per cell, in the COSALPHA/SINALPHA convention
  /// (u_e = u·cos α − v·sin α, v_e = u·sin α + v·cos α).
  case perCell(cos: [Double], sin: [Double])
  /// The grid is aligned with the meridians (Mercator, unrotated lat-lon).
  case aligned

  /// Without COSALPHA/SINALPHA the rotation follows from the projection: Lambert's
  /// `gridRotation` (α = −n·Δλ in the north), or for polar stereographic the same with a
  /// cone factor of 1. Throws the reason when it cannot be known.
  static func fromProjection(
    attributes: [String: NCAttribute], longitudes: [Float]
  ) throws(Unavailable) -> WindRotation {
    let code = attributes["MAP_PROJ"]?.number.flatMap { Int(exactly: $0) }
    let truelat1 = attributes["TRUELAT1"]?.number
    let standLon = attributes["STAND_LON"]?.number
    switch code {
    case 3: return .aligned
    case 6:
      let poleLat = attributes["POLE_LAT"]?.number ?? 90
      guard abs(poleLat - 90) < 1e-6 else { throw Unavailable("a rotated-pole grid without COSALPHA/SINALPHA") }
      return .aligned
    case 1:
      guard let truelat1, let standLon else { throw Unavailable("Lambert without TRUELAT1/STAND_LON") }
      return conic(
        .lambertConformal, truelat1: truelat1, truelat2: attributes["TRUELAT2"]?.number ?? truelat1,
        standardLongitude: standLon, longitudes: longitudes)
    case 2:
      guard let standLon else { throw Unavailable("polar stereographic without STAND_LON") }
      return conic(
        .polarStereographic, truelat1: truelat1 ?? 90, truelat2: .nan, standardLongitude: standLon,
        longitudes: longitudes)
    default:
      throw Unavailable("MAP_PROJ \(code.map(String.init) ?? "absent") without COSALPHA/SINALPHA")
    }
  }

  /// The rotation of a Lambert conformal or polar stereographic grid (any other kind is
  /// aligned with the meridians): Lambert's `gridRotation` (α = −n·Δλ in the north), or for
  /// polar stereographic the same with a cone factor of 1, over the pole `truelat1`'s sign
  /// names.
  static func conic(
    _ kind: MapProjection.Kind, truelat1: Double, truelat2: Double, standardLongitude: Double, longitudes: [Float]
  ) -> WindRotation {
    let alpha: (Double) -> Double
    switch kind {
    case .lambertConformal:
      let lambert = LambertConformal(truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude)
      alpha = lambert.gridRotation(longitude:)
    case .polarStereographic:
      let hemisphere: Double = truelat1 < 0 ? -1 : 1
      alpha = { longitude in
        var difference = longitude - standardLongitude
        difference -= 360 * (difference / 360).rounded()
        return -hemisphere * difference * .pi / 180
      }
    case .mercator, .latitudeLongitude:
      return .aligned
    }
    let angles = longitudes.map { alpha(Double($0)) }
    return .perCell(cos: angles.map(cos), sin: angles.map(sin))
  }
}

/// Why the wind rotation of a grid cannot be known.
struct Unavailable: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
