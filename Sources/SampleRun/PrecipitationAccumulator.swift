/// Rain and snow accumulated since the run start, as WRF's RAINC, RAINNC, RAINSH and
/// SNOWNC hold them (mm, never decreasing, no bucket).
///
/// Rates are integrated on sub-steps of at most ten minutes with the mid-point rule, so
/// that a rain band crossing a cell between two output times still leaves its rain
/// there, and so that the first output time has exactly nothing.
struct PrecipitationAccumulator {
  private(set) var minutes = 0
  private(set) var convective: [Double]
  private(set) var gridScale: [Double]
  private(set) var shallow: [Double]
  private(set) var snow: [Double]
  private let subStep: Int
  /// Cells high enough for snow; the only ones whose temperature is needed between
  /// output times.
  private let snowCells: [Int]

  /// Snow falls only above this height (m) and below this 2 m temperature (K).
  static let snowHeight = 1500.0
  static let snowTemperature = 275.0

  init(weather: SyntheticWeather) {
    let count = weather.grid.count
    convective = [Double](repeating: 0, count: count)
    gridScale = convective
    shallow = convective
    snow = convective
    subStep = Self.greatestCommonDivisor(weather.spec.stepMinutes, 10)
    snowCells = weather.geography.height.indices.filter {
      weather.geography.height[$0] > Self.snowHeight
    }
  }

  /// Integrates the rates from the current time up to `target` minutes after the start.
  mutating func advance(to target: Int, weather: SyntheticWeather) {
    while minutes < target {
      let step = min(subStep, target - minutes)
      let moment = weather.scenario.moment(
        start: weather.start, minutes: Double(minutes) + Double(step) / 2)
      let hours = Double(step) / 60
      var gridScaleRate = [Double](repeating: 0, count: convective.count)
      for cell in convective.indices {
        let rain = weather.precipitation(cell: cell, at: moment)
        guard rain.total > 0 else { continue }
        // Most convective rain comes from the cumulus scheme, a little from shallow
        // cumulus; the rest of the total is the microphysics' grid-scale rain.
        let cumulus = 0.62 * rain.convective
        let shallowRain = 0.03 * rain.convective
        convective[cell] += cumulus * hours
        shallow[cell] += shallowRain * hours
        gridScaleRate[cell] = rain.total - cumulus - shallowRain
        gridScale[cell] += gridScaleRate[cell] * hours
      }
      for cell in snowCells where gridScaleRate[cell] > 0 {
        let rain = weather.precipitation(cell: cell, at: moment)
        let pressure = weather.scenario.seaLevelPressure(
          east: weather.grid.east[cell], north: weather.grid.north[cell], at: moment)
        let column = weather.column(cell: cell, at: moment, rain: rain, seaLevelPressure: pressure)
        if column.temperature2m < Self.snowTemperature {
          snow[cell] += gridScaleRate[cell] * hours
        }
      }
      minutes += step
    }
  }

  private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    var (x, y) = (abs(a), abs(b))
    while y != 0 { (x, y) = (y, x % y) }
    return max(x, 1)
  }
}
