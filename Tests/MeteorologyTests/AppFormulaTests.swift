import Foundation
import Meteorology
import Testing

/// The app formulas at hand-computed points, and their refusal to hide unknown inputs.
@Suite struct AppFormulaTests {
  /// 20 °C, 50 %, calm, no radiation: e = 0.5 · 6.105 · exp(17.27 · 20 / 257.7) hPa.
  @Test func apparentTemperatureAtAHandComputedPoint() {
    let e = 0.5 * 6.105 * exp(17.27 * 20 / 257.7)
    let calm = ApparentTemperature.celsius(temperature: 20, relativeHumidity: 50, windSpeed10m: 0, shortwave: nil)
    #expect(abs(calm - (20 + 0.348 * e - 4.25)) < 1e-12)
    // Sunshine up to 550 W/m² adds nothing (Open-Meteo's threshold); 950 W/m² adds 0.7 · 40 / 10.
    let dim = ApparentTemperature.celsius(temperature: 20, relativeHumidity: 50, windSpeed10m: 0, shortwave: 550)
    let bright = ApparentTemperature.celsius(temperature: 20, relativeHumidity: 50, windSpeed10m: 0, shortwave: 950)
    #expect(dim == calm)
    #expect(abs(bright - calm - 2.8) < 1e-12)
    // 10 m/s at 10 m is 7.5 m/s at 2 m: −0.7 · 7.5.
    let windy = ApparentTemperature.celsius(temperature: 20, relativeHumidity: 50, windSpeed10m: 10, shortwave: nil)
    #expect(abs(windy - calm + 5.25) < 1e-12)
  }

  /// Clear dry air is the cap; 95 % humidity is 90 km · e⁻²; dense cloud water is fog.
  @Test func visibilityTermsAtTheirEdges() {
    let clear = Visibility.hydrometeors(
      cloudWater: 0, rain: 0, ice: 0, snow: 0, vapour: 0.008, pascal: 100_000, kelvin: 288)
    #expect(clear == Visibility.maximum)
    #expect(abs(Visibility.humidity(relativeHumidity: 0.95) - 90_000 * exp(-2)) < 1e-9)
    // Supersaturation counts as 95 %: the term stops there.
    #expect(abs(Visibility.humidity(relativeHumidity: 1.2) - 90_000 * exp(-2)) < 1e-9)
    #expect(Visibility.humidity(relativeHumidity: 0.5) == Visibility.maximum)
    let fog = Visibility.hydrometeors(
      cloudWater: 3e-4, rain: 0, ice: 0, snow: 0, vapour: 0.008, pascal: 100_000, kelvin: 288)
    #expect(fog > 50 && fog < 300, "\(fog)")
  }

  /// A 1000 m boundary layer keeps half the difference to its top's wind; 200 m keeps 90 %.
  @Test func gustsMixDownTheBoundaryLayersWind() {
    #expect(WindGust.speed(surface: 5, boundaryLayerTop: 15, boundaryLayerHeight: 1000) == 10)
    #expect(abs(WindGust.speed(surface: 5, boundaryLayerTop: 15, boundaryLayerHeight: 200) - 14) < 1e-12)
    #expect(WindGust.speed(surface: 5, boundaryLayerTop: 15, boundaryLayerHeight: 3000) == 10)
  }

  /// A warm moist parcel under a cold 500 hPa is unstable; a dry one under a warm one is not.
  @Test func liftedIndexSignFollowsTheSounding() {
    let moist = LiftedIndex.index(surfaceKelvin: 303, mixingRatio: 0.018, pascal: 100_000, environmentKelvin: 255)
    let dry = LiftedIndex.index(surfaceKelvin: 283, mixingRatio: 0.003, pascal: 100_000, environmentKelvin: 258)
    #expect(moist < -3, "\(moist)")
    #expect(dry > 3, "\(dry)")
    // Environment at 500 hPa halfway in ln p between 600 and 416.7 hPa levels.
    let environment = LiftedIndex.environmentTemperature(
      levels: 3, pressure: { [100_000, 60_000, 41_666.67][$0] }, temperature: { [288, 260, 250][$0] })
    let w = log(60_000 / 50_000) / log(60_000 / 41_666.67)
    #expect(abs((environment ?? 0) - (260 - 10 * w)) < 1e-9)
    #expect(
      LiftedIndex.environmentTemperature(levels: 2, pressure: { [100_000, 70_000][$0] }, temperature: { _ in 0 }) == nil
    )
  }

  /// The ratio of the saturation pressures at the dew point and at the temperature, taken
  /// as one `exp` of the exponents' difference, is Bolton's quotient (typed here) to
  /// within 10⁻¹³ of itself over every temperature and dew point a model gives, and exactly
  /// 1 for saturated air.
  @Test func theSaturationPressureRatioIsTheQuotientOfBoltonsPressures() {
    let es = { (celsius: Double) in 6.112 * exp(17.67 * celsius / (celsius + 243.5)) }
    var worst = 0.0
    for celsius in stride(from: -80.0, through: 60, by: 0.37) {
      for below in stride(from: 0.0, through: 70, by: 0.53) {
        let dewPoint = celsius - below
        let ratio = Thermodynamics.saturationVapourPressureRatio(
          dewPoint: dewPoint + 273.15, kelvin: celsius + 273.15)
        let quotient = es(dewPoint) / es(celsius)
        worst = max(worst, abs(ratio - quotient) / quotient)
      }
      #expect(Thermodynamics.saturationVapourPressureRatio(dewPoint: celsius + 273.15, kelvin: celsius + 273.15) == 1)
    }
    #expect(worst < 1e-13, "largest relative difference \(worst)")
    #expect(Thermodynamics.saturationVapourPressureRatio(dewPoint: .nan, kelvin: 290).isNaN)
  }

  /// An unknown input gives an unknown value, never the cap or a default: `min`/`max`
  /// would otherwise drop the NaN.
  /// The dew point from temperature and relative humidity has RH of the temperature's
  /// saturation pressure (Bolton's es, typed here), and saturated air's is its temperature.
  @Test func dewPointFromRelativeHumidityHasThatShareOfTheSaturationPressure() {
    let es = { (celsius: Double) in 6.112 * exp(17.67 * celsius / (celsius + 243.5)) }
    for celsius in stride(from: -40.0, through: 45, by: 5) {
      for rh in [3.0, 10, 25, 50, 75, 90, 100] {
        let td = Thermodynamics.dewPoint(kelvin: celsius + 273.15, relativeHumidity: rh)
        #expect(td <= celsius + 1e-3, "\(celsius) °C, \(rh) %: \(td)")
        #expect(abs(es(td) / es(celsius) - rh / 100) <= 1e-3 * rh / 100, "\(celsius) °C, \(rh) %: \(td)")
      }
    }
    // Bone-dry air stays finite, at the 0.001 hPa floor.
    #expect(Thermodynamics.dewPoint(kelvin: 293.15, relativeHumidity: 0).isFinite)
  }

  @Test func unknownInputsStayUnknown() {
    #expect(
      ApparentTemperature.celsius(temperature: 20, relativeHumidity: 50, windSpeed10m: 2, shortwave: .nan).isNaN)
    #expect(Visibility.humidity(relativeHumidity: .nan).isNaN)
    #expect(
      Visibility.hydrometeors(cloudWater: .nan, rain: 0, ice: 0, snow: 0, vapour: 0.01, pascal: 1e5, kelvin: 290)
        .isNaN)
    #expect(WindGust.speed(surface: 5, boundaryLayerTop: 10, boundaryLayerHeight: .nan).isNaN)
    #expect(LiftedIndex.index(surfaceKelvin: 300, mixingRatio: .nan, pascal: 1e5, environmentKelvin: 260).isNaN)
  }

  /// A parcel that is not air (an infinite, huge, zero or negative temperature, mixing
  /// ratio or pressure) has no lifted index: NaN, never a trap. A surface pressure of
  /// +Inf made the ascent's step count `Int(+Inf)` and killed ingest.
  @Test(arguments: [Double.infinity, -.infinity, .nan, 1e300, -1e300, 0, -1])
  func theLiftedIndexOfAParcelThatIsNotAirIsMissingNotATrap(value: Double) {
    let parcels = [(value, 0.01, 95_000.0), (300, value, 95_000), (300, 0.01, value)]
    for (t, q, p) in parcels {
      let index = LiftedIndex.index(surfaceKelvin: t, mixingRatio: q, pascal: p, environmentKelvin: 260)
      // A finite answer is allowed only for a physically possible parcel (q = 0 or −1 with
      // the others plausible is dry air, or no parcel).
      #expect(index.isNaN || (t > 0 && p > 0 && t.isFinite && p.isFinite && q.isFinite), "T \(t), q \(q), p \(p)")
    }
  }
}
