import Foundation

/// Where the sun is and how much of it reaches the ground under a clear sky.
///
/// Spencer's Fourier series for the declination and the equation of time are good to a
/// few arc-minutes, far finer than an hourly 9 km field can show.
struct SolarGeometry: Sendable {
  /// Solar declination, radians.
  let declination: Double
  /// Equation of time, minutes.
  let equationOfTime: Double
  /// Hours since midnight UTC.
  let hourUTC: Double
  /// Extraterrestrial irradiance normal to the beam, W m-2, for the Earth–Sun distance
  /// of the day.
  let extraterrestrial: Double

  /// The sun `minutes` after a date; fractions of a minute are kept for the mid-points
  /// of short accumulation steps.
  init(start: WRFDate, minutes: Double) {
    let whole = minutes.rounded(.down)
    let date = start.adding(minutes: Int(whole))
    hourUTC = date.hourOfDay + (minutes - whole) / 60
    let gamma = 2 * Double.pi / 365 * (Double(date.dayOfYear - 1) + (hourUTC - 12) / 24)
    declination =
      0.006918 - 0.399912 * cos(gamma) + 0.070257 * sin(gamma) - 0.006758 * cos(2 * gamma)
      + 0.000907 * sin(2 * gamma) - 0.002697 * cos(3 * gamma) + 0.00148 * sin(3 * gamma)
    equationOfTime =
      229.18
      * (0.000075 + 0.001868 * cos(gamma) - 0.032077 * sin(gamma) - 0.014615 * cos(2 * gamma)
        - 0.040849 * sin(2 * gamma))
    extraterrestrial = 1361 * (1 + 0.033 * cos(2 * Double.pi * Double(date.dayOfYear) / 365))
  }

  /// The sine of the sun's elevation above the horizon at a point, given the sine and
  /// cosine of its latitude.
  func sineOfElevation(sinLatitude: Double, cosLatitude: Double, longitude: Double) -> Double {
    let solarMinutes = hourUTC * 60 + equationOfTime + 4 * longitude
    let hourAngle = (solarMinutes / 4 - 180) * .pi / 180
    return sinLatitude * sin(declination) + cosLatitude * cos(declination) * cos(hourAngle)
  }

  /// Global irradiance on a horizontal surface under a clear sky, W m-2; 0 with the sun
  /// below the horizon, which is what makes night-time SWDOWN exactly zero.
  func clearSkyIrradiance(sineOfElevation sinh: Double) -> Double {
    guard sinh > 0 else { return 0 }
    let elevation = asin(min(sinh, 1)) * 180 / .pi
    // Kasten and Young's air mass and Meinel's beam transmittance, plus a tenth of the
    // beam as diffuse light.
    let airMass = 1 / (sinh + 0.50572 * pow(elevation + 6.07995, -1.6364))
    let beam = extraterrestrial * pow(0.7, pow(airMass, 0.678))
    return 1.1 * beam * sinh
  }

  /// Local mean solar time in hours at a longitude, 0…24; drives every diurnal cycle.
  func localHour(longitude: Double) -> Double {
    let hour = (hourUTC + longitude / 15).truncatingRemainder(dividingBy: 24)
    return hour < 0 ? hour + 24 : hour
  }
}
