import Foundation

/// The surface-based lifted index at 500 hPa (Galway 1956): the environment's
/// temperature at 500 hPa minus that of a parcel lifted there from the surface. Negative
/// values mean a buoyant parcel, the instability a thunderstorm needs.
///
/// The parcel starts with the 2 m temperature and mixing ratio at the surface pressure,
/// rises dry-adiabatically (T·(p/p₀)^0.2857) to its lifting condensation level, whose
/// temperature is Bolton's (1980, eq. 21) T_L = 2840/(3.5·ln T − ln e − 4.805) + 55 (e in
/// hPa), and then pseudo-adiabatically, integrating
/// dT/d ln p = (Rd·T + Lv·rs)/(cp + ε·Lv²·rs/(Rd·T²)) by fourth-order Runge–Kutta in
/// steps of at most 0.2 in ln p (within 0.001 K of a fine integration from 250 to 305 K
/// and 1050 to 600 hPa, at a sixth of the cost of 0.05: ingest computes it for every
/// wet cell of every step) (Rd = 287.04, cp = 1005.7, Lv = 2.501·10⁶, ε = 0.622,
/// rs the saturation mixing ratio from Bolton's vapour pressure). A parcel whose
/// condensation level lies above 500 hPa stays dry. The environment's temperature at
/// 500 hPa is interpolated linearly in ln p between the model levels around it.
public enum LiftedIndex {
  static let kappa = 0.2857
  static let rd = 287.04
  static let cp = 1005.7
  static let lv = 2.501e6
  static let epsilon = 0.622
  /// The level the index is taken at, Pa.
  public static let pressure = 50_000.0

  /// The lifted index (K) of a surface parcel with temperature (K), mixing ratio (kg/kg)
  /// and pressure (Pa), against the environment's 500 hPa temperature (K).
  public static func index(
    surfaceKelvin t: Double, mixingRatio q: Double, pascal p: Double, environmentKelvin: Double
  ) -> Double {
    return environmentKelvin - parcelTemperature(kelvin: t, mixingRatio: q, pascal: p)
  }

  /// The most integration steps an ascent takes: 1,100 hPa to 500 hPa is 4 steps of 0.2
  /// in ln p; only a parcel from an impossible pressure would need more.
  static let maximumSteps = 64

  /// The temperature (K) of the parcel lifted to 500 hPa; NaN for a parcel that is not
  /// air (a temperature, mixing ratio or pressure not finite, or not positive where a
  /// logarithm needs it).
  public static func parcelTemperature(kelvin t: Double, mixingRatio q: Double, pascal p: Double) -> Double {
    // `min`/`max` below would turn unknown inputs into a plausible parcel, and an infinite
    // pressure into an infinite number of integration steps.
    guard t.isFinite, q.isFinite, p.isFinite, t > 0, p > 0, q > -epsilon else { return .nan }
    let e = max(q * (p / 100) / (epsilon + q), 0.001)
    let condensation = min(t, 2840 / (3.5 * log(t) - log(e) - 4.805) + 55)
    let condensationPressure = p * pow(condensation / t, 1 / kappa)
    guard condensationPressure.isFinite, condensation > 0 else { return .nan }
    guard condensationPressure > pressure else { return t * pow(pressure / p, kappa) }
    let span = log(pressure) - log(condensationPressure)
    let needed = (abs(span) / 0.2).rounded(.up)
    guard needed <= Double(maximumSteps) else { return .nan }
    let steps = max(1, Int(needed))
    let h = span / Double(steps)
    // Pressure advances by a constant factor per half step: no exp for it.
    let half = exp(h / 2)
    var kelvin = condensation
    var p = condensationPressure
    for _ in 0..<steps {
      let middle = p * half
      let next = middle * half
      let k1 = slope(kelvin, p)
      let k2 = slope(kelvin + h / 2 * k1, middle)
      let k3 = slope(kelvin + h / 2 * k2, middle)
      let k4 = slope(kelvin + h * k3, next)
      kelvin += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
      p = next
    }
    return kelvin
  }

  /// dT/d ln p along the pseudo-adiabat at temperature `t` (K) and pressure `p` (Pa).
  private static func slope(_ t: Double, _ p: Double) -> Double {
    let es = 611.2 * exp(17.67 * (t - 273.15) / (t - 29.65))
    let rs = epsilon * es / max(p - es, 1)
    return (rd * t + lv * rs) / (cp + epsilon * lv * lv * rs / (rd * t * t))
  }

  /// The environment's temperature (K) at 500 hPa from a column of `count` levels ordered
  /// upwards, given each level's pressure (Pa) and temperature (K); nil when no two
  /// adjacent levels enclose 500 hPa.
  public static func environmentTemperature(
    levels count: Int, pressure: (Int) -> Double, temperature: (Int) -> Double
  ) -> Double? {
    guard count >= 2 else { return nil }
    for k in 0..<(count - 1) {
      let (lower, upper) = (pressure(k), pressure(k + 1))
      guard lower >= Self.pressure, upper <= Self.pressure, lower > upper else { continue }
      let w = (log(lower) - log(Self.pressure)) / (log(lower) - log(upper))
      // Each level's temperature once: it may cost a `pow`.
      let below = temperature(k)
      return below + w * (temperature(k + 1) - below)
    }
    return nil
  }
}
