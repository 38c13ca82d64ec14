import Forecast
import Meteorology

/// A series read with `DarkSkyQuery.metrics`, as one flat table (NaN where a value is
/// missing) from which `DarkSkyHour`s are made.
///
/// Making each hour from the `HourlySeries` itself copied the series (and retained its
/// arrays) for every one of a request's ~270 instants, and read each value through two
/// levels of arrays: together 9 % of a Dark Sky forecast.
struct DarkSkyColumns {
  /// `values[m * count + i]`: metric `m` of `DarkSkyQuery.metrics` at instant `i`.
  private let values: [Double]
  private let hours: [LocalHour]
  let count: Int

  init(_ series: HourlySeries) {
    hours = series.hours
    count = series.hours.count
    var values = [Double](repeating: .nan, count: DarkSkyQuery.metrics.count * count)
    for (metric, column) in series.values.prefix(DarkSkyQuery.metrics.count).enumerated() {
      for (index, value) in column.enumerated() {
        if let value { values[metric * count + index] = value }
      }
    }
    self.values = values
  }

  /// Metric `metric` (its position in `DarkSkyQuery.metrics`) at instant `index`.
  func value(_ metric: Int, _ index: Int) -> Double? {
    let value = values[metric * count + index]
    return value.isNaN ? nil : value
  }

  /// The hour whose instantaneous values are at `value` and whose amounts and weather code
  /// are at `amount`; `isDay` is left for the caller.
  func hour(value index: Int, amount: Int) -> DarkSkyHour {
    var hour = DarkSkyHour(time: hours[index].instant, utcOffset: hours[index].utcOffset)
    hour.temperature = value(0, index)
    hour.apparentTemperature = value(1, index)
    hour.dewPoint = value(2, index)
    hour.humidity = value(3, index)
    hour.pressure = value(4, index)
    hour.windSpeed = value(5, index)
    hour.windGust = value(6, index)
    hour.windBearing = value(7, index)
    hour.cloudCover = value(8, index)
    hour.visibility = value(9, index).map { min($0, DarkSkyHour.visibilityCap) }
    hour.shortwave = value(10, index)
    hour.precipitation = value(11, amount)
    hour.snow = value(12, amount)
    hour.probability = value(13, amount)
    hour.weatherCode = value(14, amount).flatMap { WeatherCode(rawValue: Int($0.rounded())) }
    return hour
  }

  /// Precipitation (mm/h) and its probability (%) of the model hour at `index`, for a minute.
  func minute(_ index: Int) -> (precipitation: Double?, probability: Double?) {
    (value(11, index), value(13, index))
  }
}
