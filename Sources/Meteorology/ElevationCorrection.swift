import Foundation

/// Moving a 2 m temperature from the model's terrain height to a point's own elevation
/// through the standard atmosphere's lapse rate, and the metrics derived from it with it.
///
/// The shift is `lapseRate × (model height − target elevation)`: a point 100 m below its
/// cell is 0.65 K warmer. The relative humidity is kept, so the dew point and the
/// apparent temperature's vapour pressure follow the new temperature.
public enum ElevationCorrection {
  /// K per metre.
  public static let lapseRate = 0.0065

  /// The temperature shift in kelvin for a cell of `modelHeight` metres answering for a
  /// point at `target` metres.
  public static func shift(modelHeight: Double, target: Double) -> Double {
    lapseRate * (modelHeight - target)
  }

  /// The dew point (°C) at temperature `temperature + shift` with the relative humidity of
  /// `dewPoint` at `temperature` kept. With Bolton's saturation vapour pressure (the one
  /// ingest derives dew points with), es(x) = 6.112·exp(g(x)), g(x) = 17.67·x/(x + 243.5),
  /// the humidity es(Td)/es(T) is kept when g(Td′) = g(Td) + g(T′) − g(T), and
  /// Td′ = 243.5·g/(17.67 − g).
  public static func dewPoint(_ dewPoint: Double, temperature: Double, shift: Double) -> Double {
    func g(_ x: Double) -> Double { 17.67 * x / (x + 243.5) }
    let kept = g(dewPoint) + g(temperature + shift) - g(temperature)
    return 243.5 * kept / (17.67 - kept)
  }

  /// The apparent temperature (°C) at temperature `temperature + shift`, with the relative
  /// humidity `relativeHumidity` (%) kept: Steadman's formula (see `ApparentTemperature`)
  /// is the temperature plus 0.348 × the vapour pressure e = rh/100·6.105·exp(17.27·T/(237.7
  /// + T)) plus terms of wind and sunshine that do not change, so the value moves by the
  /// shift plus 0.348 × the change of e.
  public static func apparentTemperature(
    _ apparent: Double, temperature: Double, relativeHumidity: Double, shift: Double
  ) -> Double {
    func e(_ t: Double) -> Double { relativeHumidity / 100 * 6.105 * exp(17.27 * t / (237.7 + t)) }
    return apparent + shift + 0.348 * (e(temperature + shift) - e(temperature))
  }
}
