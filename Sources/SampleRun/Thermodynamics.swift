import Foundation

/// The few moist-air relations the synthetic fields must respect so that derived
/// quantities (relative humidity, sea-level pressure) come out sensible.
enum Thermodynamics {
  /// Saturation vapour pressure over water, Pa (Bolton 1980), the form WRF's
  /// post-processors use to turn QVAPOR back into relative humidity.
  static func saturationVapourPressure(kelvin: Double) -> Double {
    611.2 * exp(17.67 * (kelvin - 273.15) / (kelvin - 29.65))
  }

  /// The water-vapour mixing ratio (kg kg-1, what WRF's Q2 and QVAPOR hold) of air at a
  /// relative humidity (0…1), temperature and pressure.
  static func mixingRatio(relativeHumidity: Double, kelvin: Double, pressure: Double) -> Double {
    let vapour = relativeHumidity * saturationVapourPressure(kelvin: kelvin)
    // Keep the partial pressure below the total even for absurd inputs.
    return 0.622 * vapour / max(pressure - vapour, 0.01 * pressure)
  }

  /// Surface pressure (Pa) at a height under a sea-level pressure, by the barometric
  /// formula with the standard lapse rate through the air column below the surface.
  static func surfacePressure(seaLevel: Double, height: Double, surfaceKelvin: Double) -> Double {
    let seaLevelKelvin = surfaceKelvin + 0.0065 * height
    return seaLevel * pow(1 - 0.0065 * height / seaLevelKelvin, 5.25588)
  }

  /// The surface pressure of WRF's dry base state over terrain of a height, Pa.
  static func baseStateSurfacePressure(height: Double) -> Double {
    100_000 * pow(max(1 - 2.25577e-5 * height, 0.05), 5.25588)
  }

  /// Potential temperature (K) referred to 1000 hPa, as WRF's T + 300.
  static func potentialTemperature(kelvin: Double, pressure: Double) -> Double {
    kelvin * pow(100_000 / pressure, 0.285_71)
  }
}
