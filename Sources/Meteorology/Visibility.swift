import Foundation

/// Horizontal visibility near the ground, as NCEP's Unified Post Processor computes it:
/// extinction by hydrometeors (Stoelinga–Warner, UPP `CALVIS.f`) and a clear-air haze
/// and fog term from relative humidity (RUC/RAP, UPP `CALVIS_GSD.f`), taking the lower.
///
/// Hydrometeors (CALVIS, "r" method): each species' mass concentration
/// C = q / V · 1000 g/m³, with V = (1 + qv)/ρ + (qc + qr)/1000 + (qi + qs)/917 the volume
/// per kilogram of dry air and ρ = p/(Rd·Tv), Tv = T·(1 + 0.608·qv), Rd = 287.04. The
/// extinction coefficient is β = 144.7·Cc^0.88 + 2.24·Cr^0.75 + 327.8·Ci + 10.36·Cs^0.7776
/// + 10⁻¹⁰ km⁻¹ (cloud water after Kunkel 1984, rain from a Marshall–Palmer distribution,
/// ice plates after Rutledge and Hobbs 1983, snow after Stallabrass 1985) and the
/// visibility −ln(0.02)/β km (Koschmieder with a 2 % contrast threshold), capped at
/// 24.135 km (15 statute miles, the cap of reported observations).
///
/// Humidity (CALVIS_GSD's clear-air term): 90·exp(−2.5·qrh) km with
/// qrh = min(0.8, max(0, RH − 0.15)) and RH (0–1) the larger of the lowest two model
/// levels'. It falls below the cap above about 68 % and reaches its least, 12.2 km, at
/// 95 %. CALVIS_GSD's wind-shear, aerosol and night-time adjustments are not applied.
public enum Visibility {
  /// The largest visibility reported, m.
  public static let maximum = 24_135.0

  /// Visibility (m) from hydrometeor mixing ratios (kg/kg) of cloud water, rain, ice and
  /// snow at the lowest model level, with that level's vapour mixing ratio (kg/kg),
  /// pressure (Pa) and temperature (K).
  public static func hydrometeors(
    cloudWater qc: Double, rain qr: Double, ice qi: Double, snow qs: Double, vapour qv: Double, pascal p: Double,
    kelvin t: Double
  ) -> Double {
    // Clear air (most cells): β is CALVIS's 10⁻¹⁰ km⁻¹ floor, far beyond the cap.
    if qc <= 0, qr <= 0, qi <= 0, qs <= 0 { return maximum }
    let density = p / (287.04 * t * (1 + 0.608 * qv))
    let volume = (1 + qv) / density + (qc + qr) / 1000 + (qi + qs) / 917
    // A species that is absent adds nothing, without the cost of `pow`.
    func extinction(_ q: Double, _ coefficient: Double, _ exponent: Double) -> Double {
      q > 0 ? coefficient * pow(q / volume * 1000, exponent) : q.isNaN ? .nan : 0
    }
    let beta =
      extinction(qc, 144.7, 0.88) + extinction(qr, 2.24, 0.75) + extinction(qi, 327.8, 1)
      + extinction(qs, 10.36, 0.7776) + 1e-10
    // Swift's `min` would turn an unknown (NaN) visibility into the cap.
    let visibility = 1000 * -log(0.02) / beta
    return visibility.isNaN ? .nan : min(maximum, visibility)
  }

  /// The haze and fog visibility (m) of air at a relative humidity (0–1).
  public static func humidity(relativeHumidity rh: Double) -> Double {
    guard !rh.isNaN else { return .nan }
    let excess = min(0.8, max(0, rh - 0.15))
    return min(maximum, 90_000 * exp(-2.5 * excess))
  }
}
