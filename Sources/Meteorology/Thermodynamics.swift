import Foundation

/// The surface formulas of DESIGN §4, kept free of any file format so that ingest and
/// tests share one definition of each.
public enum Thermodynamics {
  /// 0 °C in kelvin.
  public static let kelvinOffset = 273.15

  /// Saturation vapour pressure over water in hPa (Bolton 1980), from temperature in K.
  public static func saturationVapourPressure(kelvin t: Double) -> Double {
    6.112 * exp(17.67 * (t - kelvinOffset) / (t - 29.65))
  }

  /// The ratio of the saturation vapour pressures at `dewPoint` and at `t` (both K), which
  /// is the relative humidity as a fraction: `saturationVapourPressure(kelvin: dewPoint) /
  /// saturationVapourPressure(kelvin: t)`, as one `exp` of the difference of the two
  /// exponents (the 6.112 cancels). The same number to about 10⁻¹⁴ of itself, as close as
  /// the quotient of the two rounded `exp`s is to the definition: one call to libm instead
  /// of two, for every cell of every step of a CF or GRIB run that gives the dew point.
  public static func saturationVapourPressureRatio(dewPoint td: Double, kelvin t: Double) -> Double {
    exp(17.67 * (td - kelvinOffset) / (td - 29.65) - 17.67 * (t - kelvinOffset) / (t - 29.65))
  }

  /// 2 m relative humidity in % from T2 (K), the Q2 mixing ratio (kg/kg) and PSFC (Pa),
  /// clamped to 0–100 % because supersaturated model output is not a humidity a user sees.
  public static func relativeHumidity(kelvin t: Double, mixingRatio q: Double, pascal p: Double) -> Double {
    let es = saturationVapourPressure(kelvin: t)
    let ws = 0.622 * es / (0.01 * p - 0.378 * es)
    return 100 * min(max(q / ws, 0), 1)
  }

  /// Dew point in °C from the mixing ratio (kg/kg) and pressure (Pa), by inverting Bolton's
  /// formula; the vapour pressure is floored at 0.001 hPa so that dry air stays finite.
  public static func dewPoint(mixingRatio q: Double, pascal p: Double) -> Double {
    let e = max(q * (p / 100) / (0.622 + q), 0.001)
    let lnE = log(e)
    return (243.5 * lnE - 440.8) / (19.48 - lnE)
  }

  /// Dew point in °C from temperature (K) and relative humidity (%), by the same inversion
  /// of Bolton's formula: the vapour pressure is RH/100 of the saturation pressure at the
  /// temperature, floored at 0.001 hPa so that dry air stays finite.
  public static func dewPoint(kelvin t: Double, relativeHumidity rh: Double) -> Double {
    let e = max(min(max(rh, 0), 100) / 100 * saturationVapourPressure(kelvin: t), 0.001)
    let lnE = log(e)
    return (243.5 * lnE - 440.8) / (19.48 - lnE)
  }

  /// Sea-level pressure in hPa from surface pressure (Pa), terrain height (m) and T2 (K),
  /// reducing through a standard-atmosphere lapse rate of 6.5 K/km.
  public static func seaLevelPressure(pascal p: Double, height h: Double, kelvin t: Double) -> Double {
    p * pow(1 - 0.0065 * h / (t + 0.0065 * h), -5.257) / 100
  }

  /// The critical relative humidity above which a model layer starts to hold cloud.
  public static let criticalHumidity = 0.85

  /// Cloud fraction (0–1) of a model layer from its relative humidity (0–1), after
  /// Sundqvist (1989): 0 up to the critical humidity, rising to 1 at saturation.
  public static func cloudFraction(relativeHumidity rh: Double) -> Double {
    guard rh > criticalHumidity else { return rh.isNaN ? .nan : 0 }
    return 1 - (max(1 - min(rh, 1), 0) / (1 - criticalHumidity)).squareRoot()
  }

  /// Relative humidity (0–1, not clamped above) of a model level from WRF's QVAPOR
  /// (kg/kg), full pressure P + PB (Pa) and perturbation potential temperature T (K).
  public static func levelHumidity(mixingRatio q: Double, pascal p: Double, perturbationTheta t: Double) -> Double {
    levelHumidity(mixingRatio: q, pascal: p, kelvin: (t + 300) * pow(p / 100_000, 0.2857))
  }

  /// `levelHumidity(mixingRatio:pascal:perturbationTheta:)` from the level's temperature
  /// (K), for a caller that needs the temperature as well: its `pow` costs as much as the
  /// rest.
  public static func levelHumidity(mixingRatio q: Double, pascal p: Double, kelvin: Double) -> Double {
    let es = saturationVapourPressure(kelvin: kelvin)
    let ws = 0.622 * es / (0.01 * p - 0.378 * es)
    return max(q / ws, 0)
  }
}
