import Meteorology
import PointQuery

extension ElevationCorrection {
  /// Whether an `elevation=` correction changes `metric`: the temperature and the metrics
  /// derived from it, the dew point and the apparent temperature.
  static func corrects(_ metric: Metric) -> Bool {
    metric == .temp || metric == .dewPoint || metric == .apparentTemp
  }
}

extension HourlyReader {
  /// Applies `shift` (K) to the temperature-derived columns of one segment, which `read`
  /// has just filled uncorrected: the dew point and the apparent temperature keep their
  /// relative humidity (see `ElevationCorrection`), computed from the uncorrected
  /// temperature, which is shifted last. The temperature or humidity a correction needs
  /// but `metrics` does not list is read from the segment's cube here.
  func correctElevation(
    _ metrics: [Metric], of segment: Segment, shift: Double, cube: Cube, location: PointLocation,
    output: (Int) -> UnsafeMutableBufferPointer<Double>
  ) {
    let (dew, apparent) = (metrics.firstIndex(of: .dewPoint), metrics.firstIndex(of: .apparentTemp))
    let temp = metrics.firstIndex(of: .temp)
    guard temp != nil || dew != nil || apparent != nil else { return }
    let count = segment.instants.count
    func column(_ metric: Metric, at listed: Int?) -> [Double] {
      if let listed { return Array(output(listed)) }
      var values = [Double](repeating: .nan, count: count)
      values.withUnsafeMutableBufferPointer {
        readColumn(metric, of: segment, cube: cube, location: location, into: $0)
      }
      return values
    }
    let temperature = dew != nil || apparent != nil ? column(.temp, at: temp) : []
    if let dew {
      let values = output(dew)
      for k in 0..<count {
        values[k] = ElevationCorrection.dewPoint(values[k], temperature: temperature[k], shift: shift)
      }
    }
    if let apparent {
      let humidity = column(.hum, at: metrics.firstIndex(of: .hum))
      let values = output(apparent)
      for k in 0..<count {
        values[k] = ElevationCorrection.apparentTemperature(
          values[k], temperature: temperature[k], relativeHumidity: humidity[k], shift: shift)
      }
    }
    if let temp {
      let values = output(temp)
      for k in 0..<count { values[k] += shift }
    }
  }
}
