import Meteorology
import PointQuery

/// Reads metrics at a point for a list of instants, each instant from the source the run
/// catalog picks for it (newest run covering it, finest domain), in canonical units.
///
/// Instants that fall on consecutive output steps of one source, the usual case of hourly
/// output, are read as one contiguous series per metric; others (3-hourly output, zones
/// with a :45 offset) are interpolated in time one by one.
struct HourlyReader {
  let sources: PointSources
  /// For each instant, the index of its source in `sources.sources`, or nil.
  let sourceOfInstant: [Int?]
  let instants: [Int64]

  init(sources: PointSources, instants: [Int64]) {
    self.sources = sources
    self.instants = instants
    sourceOfInstant = instants.map { instant in
      sources.sources.firstIndex { instant >= $0.cube.firstTime && instant <= $0.cube.lastStep }
    }
  }

  /// Whether any instant is covered.
  var coversAny: Bool { sourceOfInstant.contains { $0 != nil } }

  /// The sources used, in order of first use, and for each instant its index among them.
  func provenance() -> (sources: [Provenance], ofInstant: [Int?]) {
    var used: [Int] = []
    let ofInstant = sourceOfInstant.map { index -> Int? in
      guard let index else { return nil }
      if let position = used.firstIndex(of: index) { return position }
      used.append(index)
      return used.count - 1
    }
    return (used.map { Provenance(sources.sources[$0]) }, ofInstant)
  }

  /// `metric` at every instant into `output` (NaN where missing or not covered).
  func read(_ metric: Metric, into output: UnsafeMutableBufferPointer<Double>) {
    var start = 0
    while start < instants.count {
      guard let index = sourceOfInstant[start] else {
        output[start] = .nan
        start += 1
        continue
      }
      let source = sources.sources[index]
      let cube = source.cube
      let resolved = cube.metric(metric)
      // The longest stretch from `start` on consecutive steps of this source.
      let offset = instants[start] - cube.firstTime
      let step = cube.stepLength
      var end = start
      if offset % step == 0 {
        let first = Int(offset / step)
        end = start + 1
        while end < instants.count, sourceOfInstant[end] == index,
          instants[end] == instants[end - 1] + step
        {
          end += 1
        }
        cube.series(
          resolved, at: source.location, steps: first..<(first + end - start),
          into: UnsafeMutableBufferPointer(rebasing: output[start..<end]))
      } else {
        output[start] = (try? cube.value(resolved, at: source.location, time: instants[start])).flatMap { $0 } ?? .nan
        end = start + 1
      }
      start = end
    }
  }

  /// `metric` at every instant, nil where missing.
  func read(_ metric: Metric) -> [Double?] {
    var buffer = [Double](repeating: .nan, count: instants.count)
    buffer.withUnsafeMutableBufferPointer { read(metric, into: $0) }
    return buffer.map { $0.isNaN ? nil : $0 }
  }
}
