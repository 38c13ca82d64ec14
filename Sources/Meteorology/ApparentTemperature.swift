import Foundation

/// Steadman's apparent temperature (Steadman 1994) in the Australian Bureau of
/// Meteorology's form (http://www.bom.gov.au/info/thermal_stress/), with the choices
/// Open-Meteo makes (open-meteo/open-meteo, Sources/App/Helper/Meteorology.swift,
/// `apparentTemperature`), so that nwpcube's feels-like agrees with what the apps show:
///
///     AT = Ta + 0.348·e − 0.70·ws + 0.70·Q/(ws + 10) − 4.25
///     e  = rh/100 · 6.105 · exp(17.27·Ta/(237.7 + Ta))   (hPa)
///     ws = 0.75 · wind speed at 10 m                      (m/s, Open-Meteo's 2 m estimate)
///     Q  = max(0, 0.1 · (SW − 550))                       (W/m², absorbed by the body)
///
/// Open-Meteo always uses BoM's radiation form: without shortwave it takes SW = 550 W/m²,
/// which makes Q = 0 (the radiation form's shade value, 0.25 K below BoM's separate
/// no-radiation form Ta + 0.33·e − 0.70·ws − 4.00). nwpcube does the same.
public enum ApparentTemperature {
  /// Apparent temperature in °C from the 2 m temperature (°C), 2 m relative humidity
  /// (0–100 %), 10 m wind speed (m/s) and downward shortwave flux at the surface (W/m²;
  /// nil when the model gives none). NaN in, NaN out: `max` would hide an unknown
  /// shortwave as no sunshine.
  public static func celsius(
    temperature ta: Double, relativeHumidity rh: Double, windSpeed10m: Double, shortwave: Double?
  ) -> Double {
    if let shortwave, shortwave.isNaN { return .nan }
    let ws = 0.75 * windSpeed10m
    let e = rh / 100 * 6.105 * exp(17.27 * ta / (237.7 + ta))
    let q = max(0, 0.1 * ((shortwave ?? 550) - 550))
    return ta + 0.348 * e - 0.70 * ws + 0.70 * q / (ws + 10) - 4.25
  }
}
