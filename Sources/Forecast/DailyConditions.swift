import Meteorology

/// What a day's hourly weather codes and precipitation amounts come to, beyond statistics:
/// the day's most significant weather and how many hours were wet.
public struct DailyConditions: Sendable, Hashable {
  /// The most significant of the day's known hourly codes (`WeatherCode.mostSignificant`);
  /// nil when none is known or the codes were not asked for.
  public let weatherCode: WeatherCode?
  /// Hours with at least `wetHour` of precipitation; nil when no hour's amount is known or
  /// it was not asked for.
  public let precipitationHours: Int?

  /// An hour is wet from `Metric.wetHour`, 0.1 mm, the amount a rain gauge resolves and
  /// Open-Meteo's threshold. Stored amounts are multiples of rain's step, so the
  /// comparison allows half a step of rounding: a stored 0.10 counts, 0.09 does not.
  public static let wetHour = Metric.wetHour

  private static let halfRainStep = (Metric.rain.step ?? 0) / 2

  /// Which conditions a forecast asks for.
  public struct Wanted: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let weatherCode = Wanted(rawValue: 1)
    public static let precipitationHours = Wanted(rawValue: 2)
  }

  /// The day's conditions from its hourly codes and amounts (mm), NaN where unknown.
  init(codes: UnsafeBufferPointer<Double>?, rain: UnsafeBufferPointer<Double>?) {
    weatherCode = codes.flatMap { codes in
      WeatherCode.mostSignificant(codes.lazy.compactMap { $0.isNaN ? nil : WeatherCode(rawValue: Int($0)) })
    }
    precipitationHours = rain.flatMap { rain in
      rain.contains { !$0.isNaN } ? rain.count { $0 >= Self.wetHour - Self.halfRainStep } : nil
    }
  }
}
