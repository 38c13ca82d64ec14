import Forecast
import Foundation
import Meteorology

/// One day of Dark Sky's `daily` block, in canonical units, made from the local day's
/// hours (each describing the hour it starts, see `DarkSkyHour`).
///
/// `temperatureHigh` is the highest of the daytime hours (6:00–18:00 local) and
/// `temperatureLow` the lowest of the overnight ones (18:00 to 6:00 the next day), as Dark
/// Sky defined them; `temperatureMin` and `temperatureMax` are the whole local day's.
/// Means are of the hours that have a value; the wind's bearing is that of the mean wind
/// vector.
public struct DarkSkyDay: Sendable {
  /// A value and the start of the hour it occurs in (the first such hour).
  public struct Extreme: Sendable, Equatable {
    public let value: Double
    public let time: Int64
  }

  public let day: LocalDay
  public let text: DarkSkySummary.Text
  public let sunrise: Int64?
  public let sunset: Int64?
  /// The lunation fraction at the day's middle.
  public let moonPhase: Double
  /// Mean rate, mm/h.
  public let precipIntensity: Double?
  public let precipIntensityMax: Extreme?
  /// The day's total, mm.
  public let precipitation: Double
  /// The highest hour's, %.
  public let precipProbability: Double?
  public let precipType: DarkSkyPrecipitation?
  public let temperatureHigh: Extreme?
  /// Nil when a run does not cover every overnight hour.
  public let temperatureLow: Extreme?
  public let apparentTemperatureHigh: Extreme?
  public let apparentTemperatureLow: Extreme?
  public let temperatureMin: Extreme?
  public let temperatureMax: Extreme?
  public let apparentTemperatureMin: Extreme?
  public let apparentTemperatureMax: Extreme?
  public let dewPoint: Double?
  public let humidity: Double?
  public let pressure: Double?
  public let windSpeed: Double?
  public let windGust: Extreme?
  public let windBearing: Double?
  public let cloudCover: Double?
  public let visibility: Double?
  public let uvIndex: Extreme?

  /// The day's values from its `hours` and its `overnight` hours (empty when not all
  /// covered).
  public init(day: LocalDay, hours: [DarkSkyHour], overnight: [DarkSkyHour], latitude: Double, longitude: Double) {
    self.day = day
    text = DarkSkySummary.day(hours)
    let sun = SolarEvents(latitude: latitude, longitude: longitude, from: day.start, to: day.end)
    (sunrise, sunset) = (sun.sunrise, sun.sunset)
    moonPhase = MoonPhase.fraction(at: day.start + day.duration / 2)
    let rates = hours.compactMap(\.precipitation)
    precipitation = rates.reduce(0, +)
    precipIntensity = rates.isEmpty ? nil : precipitation / Double(rates.count)
    precipIntensityMax = Self.maximum(hours, \.precipitation)
    precipProbability = hours.compactMap(\.probability).max()
    precipType = DarkSkySummary.mostFrequent(hours.compactMap(\.precipitationType))
    let daytime = hours.filter { (6..<18).contains($0.localHour) }
    temperatureHigh = Self.maximum(daytime, \.temperature)
    temperatureLow = Self.minimum(overnight, \.temperature)
    apparentTemperatureHigh = Self.maximum(daytime, \.apparentTemperature)
    apparentTemperatureLow = Self.minimum(overnight, \.apparentTemperature)
    temperatureMin = Self.minimum(hours, \.temperature)
    temperatureMax = Self.maximum(hours, \.temperature)
    apparentTemperatureMin = Self.minimum(hours, \.apparentTemperature)
    apparentTemperatureMax = Self.maximum(hours, \.apparentTemperature)
    dewPoint = Self.mean(hours, \.dewPoint)
    humidity = Self.mean(hours, \.humidity)
    pressure = Self.mean(hours, \.pressure)
    windSpeed = Self.mean(hours, \.windSpeed)
    windGust = Self.maximum(hours, \.windGust)
    cloudCover = Self.mean(hours, \.cloudCover)
    visibility = Self.mean(hours, \.visibility)
    uvIndex = Self.maximum(hours) { $0.uvIndex.map(Double.init) }
    // The mean vector of the winds (the bearing is where each blows from).
    var (east, north) = (0.0, 0.0)
    for hour in hours {
      guard let speed = hour.windSpeed, let bearing = hour.windBearing else { continue }
      east += speed * sin(bearing * .pi / 180)
      north += speed * cos(bearing * .pi / 180)
    }
    if east == 0 && north == 0 {
      windBearing = nil
    } else {
      let degrees = atan2(east, north) * 180 / .pi
      windBearing = degrees < 0 ? degrees + 360 : degrees
    }
  }

  static func maximum(_ hours: [DarkSkyHour], _ value: (DarkSkyHour) -> Double?) -> Extreme? {
    var best: Extreme?
    for hour in hours {
      guard let value = value(hour), best.map({ value > $0.value }) ?? true else { continue }
      best = Extreme(value: value, time: hour.time)
    }
    return best
  }

  static func minimum(_ hours: [DarkSkyHour], _ value: (DarkSkyHour) -> Double?) -> Extreme? {
    maximum(hours) { hour in value(hour).map { -$0 } }.map { Extreme(value: -$0.value, time: $0.time) }
  }

  /// The values summed in order from 0, as `reduce(0, +)` sums them, without an array of
  /// them (seven means a day, eight days a request).
  static func mean(_ hours: [DarkSkyHour], _ value: (DarkSkyHour) -> Double?) -> Double? {
    var (sum, count) = (0.0, 0)
    for hour in hours {
      guard let value = value(hour) else { continue }
      sum += value
      count += 1
    }
    return count == 0 ? nil : sum / Double(count)
  }
}
