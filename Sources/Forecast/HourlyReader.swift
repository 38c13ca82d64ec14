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
    /// The index of the source's cube's step at the first instant, when the stretch lies on
    /// consecutive steps.
    let firstStepIndex: Int?
  }

  let sources: PointSources
  let instants: [Int64]
  let segments: [Segment]
  /// The temperature shift of each segment (indexed as `segments`) for an `elevation=`
  /// correction, nil without one; see `HourlyReader+Elevation`.
  var temperatureShifts: [Double]?
  /// Each instant's `precipitation_probability` when already found (see
  /// `probabilities()`); nil to find them while reading.
  var knownProbabilities: [PointSources.Probability?]?

  init(sources: PointSources, instants: [Int64]) {
    self.sources = sources
    self.instants = instants
    let segments = withUnsafeTemporaryAllocation(of: Span.self, capacity: sources.sources.count) { spans in
      for (index, source) in sources.sources.enumerated() {
        spans.initializeElement(at: index, to: (source.firstTime, source.lastTime, source.cube.stepLength))
      }
      return Self.segments(of: instants, spans: UnsafeBufferPointer(spans))
    }
    // A segment's step index counts from its source's span; a source that is a stretch of a
    // moving nest's run begins after the run's first step. A moving nest's segment is also
    // cut where the grid moves, so that each segment reads one position (its model terrain,
    // for an `elevation=` correction, is that position's).
    // Sources of fixed grids that span their whole run (nearly always all of them) need
    // neither: their segments are kept as they are, without another array.
    guard sources.sources.contains(where: { $0.cube.isMoving || $0.firstTime != $0.cube.firstTime }) else {
      self.segments = segments
      return
    }
    var cut: [Segment] = []
    cut.reserveCapacity(segments.count)
    for segment in segments {
      guard let index = segment.source, let first = segment.firstStepIndex,
        sources.sources[index].firstTime != sources.sources[index].cube.firstTime
          || sources.sources[index].cube.isMoving
      else {
        cut.append(segment)
        continue
      }
      let (source, count) = (sources.sources[index], segment.instants.count)
      let start = first + Int((source.firstTime - source.cube.firstTime) / source.cube.stepLength)
      var from = 0
      for offset in 1...count
      where offset == count
        || source.cube.position(ofStep: start + offset) != source.cube.position(ofStep: start + from)
      {
        let instants = (segment.instants.lowerBound + from)..<(segment.instants.lowerBound + offset)
        cut.append(Segment(source: index, instants: instants, firstStepIndex: start + from))
        from = offset
      }
    }
    self.segments = cut
  }

  /// The cube of a segment's source and the location to read it with: the source's own, or
  /// for a segment of a moving nest on its steps (which all share one position) the point
  /// pinned to that position, so that its reads take a fixed grid's path rather than
  /// locating the point again for every metric.
  func cubeAndLocation(of segment: Segment, source index: Int) -> (Cube, PointLocation) {
    let source = sources.sources[index]
    guard source.cube.isMoving, let first = segment.firstStepIndex,
      let pinned = source.cube.pinned(source.location, atStep: first)
    else { return (source.cube, source.location) }
    return (source.cube, pinned)
  }

  /// The step of its source's cube whose model terrain `segment` reads: its first step, or
  /// for an instant between steps the step before it.
  func terrainStep(of segment: Segment) -> Int? {
    guard let index = segment.source else { return nil }
    if let first = segment.firstStepIndex { return first }
    let cube = sources.sources[index].cube
    return Int((instants[segment.instants.lowerBound] - cube.firstTime) / cube.stepLength)
  }

  /// A source's first and last valid times and its step, in seconds.
  typealias Span = (first: Int64, last: Int64, step: Int64)

  /// Splits `instants` where the answering source changes or the instants leave its output
  /// steps. The source answering at a time is the first whose span covers it; a stretch
  /// answered by source k lasts until k's span ends or a preferred source's span begins,
  /// found once per stretch rather than by testing every span at every instant.
  static func segments(of instants: [Int64], spans: UnsafeBufferPointer<Span>) -> [Segment] {
    var segments: [Segment] = []
    segments.reserveCapacity(2 * spans.count + 1)
    var start = 0
    while start < instants.count {
      let time = instants[start]
      let source = spans.firstIndex { time >= $0.first && time <= $0.last }
      // The last time this stretch's answer holds: no source ahead of it in the answering
      // order covers `time`, so the earliest that starts later takes over from there.
      var until = source.map { spans[$0].last } ?? .max
      for (index, span) in spans.enumerated() where index < (source ?? spans.count) && span.first > time {
        until = min(until, span.first - 1)
      }
      var end = start + 1
      var firstStepIndex: Int?
      if let source, (time - spans[source].first) % spans[source].step == 0 {
        let step = spans[source].step
        firstStepIndex = Int((time - spans[source].first) / step)
        while end < instants.count, instants[end] == instants[end - 1] + step, instants[end] <= until { end += 1 }
      } else {
        // Off the source's steps (each instant interpolated on its own), or uncovered.
        while end < instants.count, source == nil, instants[end] > instants[end - 1], instants[end] <= until {
          end += 1
        }
      }
      segments.append(Segment(source: source, instants: start..<end, firstStepIndex: firstStepIndex))
      start = end
    }
    return segments
  }

  /// Whether any instant is covered.
  var coversAny: Bool { segments.contains { $0.source != nil } }

  /// The sources used, in order of first use, and for each segment its source's position
  /// among them (nil where no source covers it).
  private func sourcesUsed() -> (used: [Int], ofSegment: [Int?]) {
    var used: [Int] = []
    let ofSegment = segments.map { segment -> Int? in
      guard let source = segment.source else { return nil }
      if let position = used.firstIndex(of: source) { return position }
      used.append(source)
      return used.count - 1
    }
    return (used, ofSegment)
  }

  /// The sources used, in order of first use, and for each instant its index among them.
  func provenance() -> (sources: [Provenance], ofInstant: [Int?]) {
    let (used, ofSegment) = sourcesUsed()
    var ofInstant = [Int?](repeating: nil, count: instants.count)
    for (segment, position) in zip(segments, ofSegment) {
      for index in segment.instants { ofInstant[index] = position }
    }
    return (used.map { Provenance(sources.sources[$0]) }, ofInstant)
  }

  /// `precipitation_probability` at every instant, each found once: the members and the
  /// values both come from it, and each instant's search of the sources was half of the
  /// probability's cost when done twice.
  func probabilities() -> [PointSources.Probability?] {
    instants.map { sources.precipitationProbability(at: $0) }
  }

  /// `provenance` (from `provenance()`) with every run that was a member of a
  /// `precipitation_probability` (`probabilities`, from `probabilities()`) appended, and
  /// for each instant its members' indices in it, newest first (empty where no member had
  /// a value or no run covers the instant).
  func probabilityMembers(
    _ provenance: [Provenance], probabilities: [PointSources.Probability?]
  ) -> (sources: [Provenance], ofInstant: [[Int]]) {
    var all = provenance
    // Each source's index in `all`, found once: making a `Provenance` (its run's name) for
    // every member of every instant cost more than the probabilities themselves.
    var positions = [Int?](repeating: nil, count: sources.sources.count)
    let ofInstant = probabilities.map { probability -> [Int] in
      guard let probability else { return [] }
      return probability.members.map { member in
        if let position = positions[member] { return position }
        let source = Provenance(sources.sources[member])
        let position: Int
        if let found = all.firstIndex(of: source) {
          position = found
        } else {
          all.append(source)
          position = all.count - 1
        }
        positions[member] = position
        return position
      }
    }
    return (all, ofInstant)
  }

  /// `lists` (from `provenanceByDay(days)`) with each day's `precipitation_probability`
  /// members appended: the runs its hours' probabilities averaged, which are sources of its
  /// values too.
  func addingProbabilityMembers(to lists: [[Provenance]], days: [Range<Int>]) -> [[Provenance]] {
    zip(lists, days).map { list, day in
      var list = list
      for instant in day {
        for member in sources.precipitationProbability(at: instants[instant])?.members ?? [] {
          let source = Provenance(sources.sources[member])
          if !list.contains(source) { list.append(source) }
        }
      }
      return list
    }
  }

  /// For each of `days` (consecutive ranges of instants, in order), the sources its
  /// instants came from, in the order of `provenance()`. A day answered by the same
  /// sources as the day before, nearly every day, shares its list rather than allocating
  /// one.
  func provenanceByDay(_ days: [Range<Int>]) -> [[Provenance]] {
    let (used, ofSegment) = sourcesUsed()
    let sources = used.map { Provenance(self.sources.sources[$0]) }
    // A day's sources as a bit per position; past 64 sources (64 cubes holding the point)
    // each day is listed on its own.
    let keyed = sources.count <= UInt64.bitWidth
    var previous: (key: UInt64, list: [Provenance])? = nil
    var first = 0
    return days.map { day in
      // The segments overlapping the day: segments and days both run forward in time.
      while first < segments.count, segments[first].instants.upperBound <= day.lowerBound { first += 1 }
      var key: UInt64 = 0
      var positions: [Int] = []
      var index = first
      while index < segments.count, segments[index].instants.lowerBound < day.upperBound {
        if let position = ofSegment[index] {
          if keyed {
            key |= 1 << UInt64(position)
          } else if !positions.contains(position) {
            positions.append(position)
          }
        }
        index += 1
      }
      guard keyed else { return positions.sorted().map { sources[$0] } }
      if let previous, previous.key == key { return previous.list }
      var list: [Provenance] = []
      list.reserveCapacity(key.nonzeroBitCount)
      for position in sources.indices where key & (1 << UInt64(position)) != 0 { list.append(sources[position]) }
      previous = (key, list)
      return list
    }
  }

  /// Starts fetching what reading `metrics` touches. The point's series of different
  /// metrics lie far apart in each cube, each a cache miss on a cold point; requesting all
  /// before reading any makes the misses overlap rather than follow one another.
  func prefetch(_ metrics: [Metric]) {
    for segment in segments {
      guard let index = segment.source, let first = segment.firstStepIndex else { continue }
      let (cube, location) = cubeAndLocation(of: segment, source: index)
      let steps = first..<(first + segment.instants.count)
      for metric in metrics { cube.prefetchSeries(cube.metric(metric), at: location, steps: steps) }
    }
  }

  /// Throws when a cube this reader reads met a block that failed verification: its
  /// values were read as missing (`read` and `readWords` do not throw), which must reach
  /// the caller as an error, never as a silent gap in a 200.
  func checkIntact() throws(ForecastError) {
    for source in sources.sources {
      do { try source.cube.checkIntact() } catch { throw .query(error) }
    }
  }

  /// Each of `metrics` at every instant into `columns`, one after another (metric m at
  /// instant i is `columns[m · instants.count + i]`), NaN where missing or not covered.
  /// Callers `prefetch` first what they will read.
  func read(_ metrics: [Metric], into columns: UnsafeMutableBufferPointer<Double>) {
    precondition(columns.count >= metrics.count * instants.count)
    // The cube and location are taken out of the source once per segment: copying the
    // source for each metric cost a reference-count round trip each time.
    for (number, segment) in segments.enumerated() {
      let range = segment.instants
      func output(_ column: Int) -> UnsafeMutableBufferPointer<Double> {
        let start = column * instants.count
        return UnsafeMutableBufferPointer(rebasing: columns[(start + range.lowerBound)..<(start + range.upperBound)])
      }
      guard let index = segment.source else {
        for column in metrics.indices { output(column).update(repeating: .nan) }
        continue
      }
      let (cube, location) = cubeAndLocation(of: segment, source: index)
      for (column, metric) in metrics.enumerated() {
        // The one metric of origin `.timeLaggedMembers`, compared as an integer: looking up
        // a metric's origin builds its whole definition, too much for every column read.
        if metric == .precipitationProbability {
          // The mean over several runs, not a value of this segment's cube.
          readProbabilities(range, into: output(column))
          continue
        }
        readColumn(metric, of: segment, cube: cube, location: location, into: output(column))
      }
      if let shift = temperatureShifts?[number], shift != 0 {
        correctElevation(metrics, of: segment, shift: shift, cube: cube, location: location, output: output)
      }
    }
  }

  /// One metric of one segment's cube at the segment's instants into `output`.
  func readColumn(
    _ metric: Metric, of segment: Segment, cube: Cube, location: PointLocation,
    into output: UnsafeMutableBufferPointer<Double>
  ) {
    let (resolved, range) = (cube.metric(metric), segment.instants)
    if let first = segment.firstStepIndex {
      // The source's own cube made the location and resolved the metric, so the read does
      // not throw; were it to, the values would be missing, as for `value` below.
      do {
        try cube.series(resolved, at: location, steps: first..<(first + range.count), into: output)
      } catch {
        output.update(repeating: .nan)
      }
    } else {
      for (offset, instant) in range.enumerated() {
        let value = try? cube.value(resolved, at: location, time: instants[instant])
        output[offset] = value.flatMap { $0 } ?? .nan
      }
    }
  }

  /// `precipitation_probability` at the instants `range` into `output`, NaN where no run
  /// has a value. Kept out of line: inlined into `read`, it made daily summaries that read
  /// no probability 3 % slower (`nwpcube bench --kinds daily7`, p50 13.9 µs against 13.4).
  @inline(never)
  private func readProbabilities(_ range: Range<Int>, into output: UnsafeMutableBufferPointer<Double>) {
    if let knownProbabilities {
      for (offset, instant) in range.enumerated() { output[offset] = knownProbabilities[instant]?.value ?? .nan }
      return
    }
    for (offset, instant) in range.enumerated() {
      output[offset] = sources.precipitationProbability(at: instants[instant])?.value ?? .nan
    }
  }

  /// `metric`'s stored words at every instant into `output` (`WordDecoding.missing` where
  /// missing or not covered), and how they decode; nil, with `output` unspecified, unless
  /// every covered instant is one stored word on a run's own step and all the runs decode
  /// alike. A daily summary then orders words, eight days to a register, rather than
  /// values.
  func readWords(_ metric: Metric, into output: UnsafeMutableBufferPointer<UInt16>) -> WordDecoding? {
    precondition(output.count >= instants.count)
    // A probability is a mean over runs, never one stored word, though a cube resolves it
    // to its own neighbourhood share.
    guard metric != .precipitationProbability else { return nil }
    // A corrected metric is a value the words do not hold.
    guard temperatureShifts == nil || !ElevationCorrection.corrects(metric) else { return nil }
    var decoding: WordDecoding?
    for segment in segments {
      let range = segment.instants
      let words = UnsafeMutableBufferPointer(rebasing: output[range])
      guard let index = segment.source else {
        words.update(repeating: WordDecoding.missing)
        continue
      }
      guard let first = segment.firstStepIndex else { return nil }
      let (cube, location) = cubeAndLocation(of: segment, source: index)
      let resolved = cube.metric(metric)
      guard let own = try? cube.wordDecoding(resolved, at: location), decoding == nil || decoding == own else {
        return nil
      }
      decoding = own
      // As in `readColumn`: the source's own handles; nil sends the caller to the values.
      do {
        try cube.words(resolved, at: location, steps: first..<(first + range.count), into: words)
      } catch {
        return nil
      }
    }
    return decoding
  }
}
