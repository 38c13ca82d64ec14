import Meteorology
import PointQuery

/// Reads metrics at a point for a list of instants, each instant from the source the run
/// catalog picks for it (newest run covering it, finest domain), in canonical units.
///
/// The instants are split once into segments: stretches on consecutive output steps of one
/// source (the usual case of hourly output) are read as one contiguous series per metric;
/// others (3-hourly output, zones with a :45 offset) are interpolated in time one by one.
struct HourlyReader {
  /// A stretch of instants answered by one source.
  struct Segment {
    /// Index in `sources.sources`, or nil where no source covers the instants.
    let source: Int?
    let instants: Range<Int>
    /// The source's step of the first instant when the stretch lies on consecutive steps.
    let firstStep: Int?
  }

  let sources: PointSources
  let instants: [Int64]
  let segments: [Segment]

  init(sources: PointSources, instants: [Int64]) {
    self.sources = sources
    self.instants = instants
    // The preferred source at a time: the first covering it.
    let spans = sources.sources.map { ($0.cube.firstTime, $0.cube.lastStep) }
    func covering(_ time: Int64) -> Int? {
      for (index, span) in spans.enumerated() where time >= span.0 && time <= span.1 { return index }
      return nil
    }
    var segments: [Segment] = []
    var start = 0
    while start < instants.count {
      let source = covering(instants[start])
      var end = start + 1
      var firstStep: Int?
      if let source {
        let cube = sources.sources[source].cube
        let (step, offset) = (cube.stepLength, instants[start] - cube.firstTime)
        if offset % step == 0 {
          firstStep = Int(offset / step)
          while end < instants.count, instants[end] == instants[end - 1] + step, covering(instants[end]) == source {
            end += 1
          }
        }
      } else {
        while end < instants.count, covering(instants[end]) == nil { end += 1 }
      }
      segments.append(Segment(source: source, instants: start..<end, firstStep: firstStep))
      start = end
    }
    self.segments = segments
  }

  /// Whether any instant is covered.
  var coversAny: Bool { segments.contains { $0.source != nil } }

  /// The sources used, in order of first use, and for each instant its index among them.
  func provenance() -> (sources: [Provenance], ofInstant: [Int?]) {
    var used: [Int] = []
    var ofInstant = [Int?](repeating: nil, count: instants.count)
    for segment in segments {
      guard let source = segment.source else { continue }
      let position =
        used.firstIndex(of: source)
        ?? {
          used.append(source)
          return used.count - 1
        }()
      for index in segment.instants { ofInstant[index] = position }
    }
    return (used.map { Provenance(sources.sources[$0]) }, ofInstant)
  }

  /// Starts fetching what reading `metrics` will touch, so that the cache misses of a cold
  /// point overlap rather than follow one another: a 7-day summary reads a dozen series
  /// far apart in each cube.
  func prefetch(_ metrics: [Metric]) {
    for segment in segments {
      guard let index = segment.source, let first = segment.firstStep else { continue }
      let source = sources.sources[index]
      let steps = first..<(first + segment.instants.count)
      for metric in metrics {
        source.cube.prefetchSeries(source.cube.metric(metric), at: source.location, steps: steps)
      }
    }
  }

  /// `metric` at every instant into `output` (NaN where missing or not covered).
  func read(_ metric: Metric, into output: UnsafeMutableBufferPointer<Double>) {
    for segment in segments {
      let range = segment.instants
      guard let index = segment.source else {
        for instant in range { output[instant] = .nan }
        continue
      }
      let source = sources.sources[index]
      let resolved = source.cube.metric(metric)
      if let first = segment.firstStep {
        source.cube.series(
          resolved, at: source.location, steps: first..<(first + range.count),
          into: UnsafeMutableBufferPointer(rebasing: output[range]))
      } else {
        for instant in range {
          let value = try? source.cube.value(resolved, at: source.location, time: instants[instant])
          output[instant] = value.flatMap { $0 } ?? .nan
        }
      }
    }
  }

  /// `metric` at every instant, nil where missing.
  func read(_ metric: Metric) -> [Double?] {
    var buffer = [Double](repeating: .nan, count: instants.count)
    buffer.withUnsafeMutableBufferPointer { read(metric, into: $0) }
    return buffer.map { $0.isNaN ? nil : $0 }
  }
}
