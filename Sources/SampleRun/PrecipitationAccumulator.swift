/// Rain and snow accumulated since the run start, as WRF's RAINC, RAINNC, RAINSH and
/// SNOWNC hold them (mm, never decreasing, no bucket).
///
/// Rates are integrated on sub-steps of at most twenty minutes with the mid-point rule,
/// so that a rain band crossing a cell between two output times still leaves its rain
/// there, and so that the first output time has exactly nothing.
struct PrecipitationAccumulator {
  private(set) var minutes = 0
  private(set) var convective: [Double]
  private(set) var gridScale: [Double]
  private(set) var shallow: [Double]
  private(set) var snow: [Double]
  private let subStep: Int
  private var rates: [SyntheticWeather.Precipitation]
  /// The cells `rates` has rain in, so that clearing it costs nothing on dry steps.
  private var wet: [Int] = []
  private var humidity: [Double]
  private var cloud: [Double]

  /// Snow falls only above this height (m) and below this 2 m temperature (K).
  static let snowHeight = 1500.0
  static let snowTemperature = 275.0

  init(weather: SyntheticWeather) {
    let count = weather.cells.count
    convective = [Double](repeating: 0, count: count)
    gridScale = convective
    shallow = convective
    snow = convective
    rates = [SyntheticWeather.Precipitation](repeating: .init(), count: count)
    humidity = [Double](repeating: 0, count: weather.spec.levels)
    cloud = humidity
    // A band 90 km wide moving at 18 km/h is sampled a dozen times on its way past.
    subStep = Self.greatestCommonDivisor(weather.spec.stepMinutes, 20)
  }

  /// Integrates the rates from the current time up to `target` minutes after the start.
  mutating func advance(to target: Int, weather: SyntheticWeather) {
    while minutes < target {
      let step = min(subStep, target - minutes)
      let moment = weather.scenario.moment(
        start: weather.start, minutes: Double(minutes) + Double(step) / 2)
      let hours = Double(step) / 60
      for index in wet { rates[index] = .init() }
      wet = weather.precipitation(at: moment, into: &rates)
      for index in wet {
        let rain = rates[index]
        // Most convective rain comes from the cumulus scheme, a little from shallow
        // cumulus; the rest of the total is the microphysics' grid-scale rain.
        let cumulus = 0.62 * rain.convective
        let shallowRain = 0.03 * rain.convective
        let gridScaleRain = rain.total - cumulus - shallowRain
        convective[index] += cumulus * hours
        shallow[index] += shallowRain * hours
        gridScale[index] += gridScaleRain * hours
        let cell = weather.cells[index]
        if cell.height > Self.snowHeight {
          let pressure = weather.scenario.seaLevelPressure(east: cell.east, north: cell.north, at: moment)
          let surface = weather.surface(
            cell, at: moment, rain: rain, seaLevelPressure: pressure, humidity: &humidity, cloud: &cloud)
          if surface.temperature < Self.snowTemperature {
            snow[index] += gridScaleRain * hours
          }
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
