import Foundation

/// An oblate spheroid's conformal latitude, both ways, as the conformal projections on it
/// need them (Snyder, *Map Projections: A Working Manual*, USGS Professional Paper 1395,
/// 1987: equations 14-15, 15-9 and the series 3-5).
///
/// The inverse is Snyder's closed-form series for the latitude from the conformal latitude,
/// which needs no iteration and is exact to about 10⁻¹¹ rad at the earth's eccentricity.
/// ecCodes 2.28 iterates instead, and when its iteration does not converge its Lambert and
/// Mercator iterators free their arrays twice (a crash).
struct Spheroid: Sendable {
  /// The first eccentricity e.
  let eccentricity: Double
  /// The coefficients of sin 2χ, sin 4χ, sin 6χ and sin 8χ in the series 3-5.
  private let series: (Double, Double, Double, Double)

  /// The spheroid of semi-axes `major` ≥ `minor` > 0 metres; throws `projectionRejected`
  /// for axes that describe none.
  init(major: Double, minor: Double) throws(GeometryError) {
    guard major.isFinite, minor.isFinite, minor > 0, minor <= major else {
      throw .projectionRejected("\(major) m × \(minor) m are not the semi-axes of an oblate spheroid")
    }
    let e2 = 1 - (minor / major) * (minor / major)
    eccentricity = e2.squareRoot()
    let (e4, e6, e8) = (e2 * e2, e2 * e2 * e2, e2 * e2 * e2 * e2)
    series = (
      e2 / 2 + 5 * e4 / 24 + e6 / 12 + 13 * e8 / 360, 7 * e4 / 48 + 29 * e6 / 240 + 811 * e8 / 11520,
      7 * e6 / 120 + 81 * e8 / 1120, 4279 * e8 / 161280
    )
  }

  /// m = cos φ / √(1 − e² sin² φ) (14-15): the radius of the parallel φ over the major axis.
  func parallelScale(_ phi: Double) -> Double {
    let s = eccentricity * sin(phi)
    return cos(phi) / (1 - s * s).squareRoot()
  }

  /// t = tan(π/4 − φ/2) / ((1 − e sin φ)/(1 + e sin φ))^(e/2) (15-9), which is
  /// tan(π/4 − χ/2) for the conformal latitude χ: 0 at the north pole, ∞ at the south.
  func conformalTangent(_ phi: Double) -> Double {
    // tan(π/2) in doubles is 1.6e16, finite: the south pole would land at a finite, far
    // place on the plane instead of at infinity, where the projections refuse it.
    guard phi > -.pi / 2 else { return .infinity }
    let s = eccentricity * sin(phi)
    return tan(.pi / 4 - phi / 2) / pow((1 - s) / (1 + s), eccentricity / 2)
  }

  /// The latitude φ (radians) whose `conformalTangent` is `t` (3-5, with χ = π/2 − 2 atan t).
  func latitude(conformalTangent t: Double) -> Double {
    let chi = .pi / 2 - 2 * atan(t)
    return chi + series.0 * sin(2 * chi) + series.1 * sin(4 * chi) + series.2 * sin(6 * chi) + series.3
      * sin(8 * chi)
  }
}
