import Foundation

/// The turn from a rotated latitude/longitude frame back to the earth's, for a frame
/// whose south pole lies at a given geographic position (GRIB's `rotated_ll` with no
/// further rotation about the pole).
///
/// The frame is the geographic one turned about the earth's axis by the pole's longitude
/// and then about the new y axis so that its south pole moves from (−90, 0) to the pole's
/// latitude: a point at rotated (φ', λ') has the unit vector
/// (cos φ' cos λ', cos φ' sin λ', sin φ') in the rotated frame, which the two turns carry
/// to the earth's.
struct PoleRotation {
  /// The turn about y: the angle from the earth's south pole to the frame's, θ = 90° + φₚ.
  private let sinTheta: Double
  private let cosTheta: Double
  private let poleLongitude: Double

  init(southPoleLatitude: Double, southPoleLongitude: Double) {
    let theta = (90 + southPoleLatitude) * .pi / 180
    sinTheta = sin(theta)
    cosTheta = cos(theta)
    poleLongitude = southPoleLongitude
  }

  /// The geographic latitude and longitude (−180…180) of the point at rotated `latitude`,
  /// `longitude`.
  func geographic(latitude: Double, longitude: Double) -> (latitude: Double, longitude: Double) {
    let phi = latitude * .pi / 180
    let lambda = longitude * .pi / 180
    let (x, y, z) = (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    // The turn by θ about y that takes the frame's south pole (0, 0, −1) to the pole's
    // direction (sin θ, 0, −cos θ) = (cos φₚ, 0, sin φₚ).
    let xe = cosTheta * x - sinTheta * z
    let ze = sinTheta * x + cosTheta * z
    let geographicLatitude = asin(min(max(ze, -1), 1)) * 180 / .pi
    var geographicLongitude = (atan2(y, xe) * 180 / .pi + poleLongitude).truncatingRemainder(dividingBy: 360)
    if geographicLongitude > 180 {
      geographicLongitude -= 360
    } else if geographicLongitude < -180 {
      geographicLongitude += 360
    }
    return (geographicLatitude, geographicLongitude)
  }
}
