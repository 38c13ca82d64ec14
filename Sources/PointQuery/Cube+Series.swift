import CubeFormat
import Meteorology

extension Cube {
  /// The indices of the steps whose valid times lie in `from…to`, or `timeOutsideRun`
  /// when none do.
  public func stepIndices(from: Int64, to: Int64) throws(QueryError) -> Range<Int> {
    guard from <= to, to >= firstTime, from <= lastTime else {
      throw .timeOutsideRun(time: from < firstTime ? from : to, run: run, first: firstTime, last: lastTime)
    }
    // Clamped to the run before subtracting: a caller may ask from Int64.min to Int64.max,
    // and the difference of such a bound and the first step's time would overflow.
    let (from, to) = (max(from, firstTime), min(to, lastTime))
    let first = Int((from - firstTime + stepLength - 1) / stepLength)
    let last = Int((to - firstTime) / stepLength)
    guard first <= last else {
      throw .timeOutsideRun(time: from, run: run, first: firstTime, last: lastTime)
    }
    return first..<(last + 1)
  }

  /// Writes `metric`'s values at the steps whose indices are `range` into `output` (NaN
  /// where missing), without allocating: a point's series of one stored metric is decoded
  /// in one sequential pass, its entry read once. `foreignHandle` when another cube made
  /// `metric` or `location`.
  /// - Precondition: `output` holds `range.count` values and `range` lies in
  ///   `0..<stepCount`.
  @inlinable
  public func series(
    _ metric: QueryMetric, at location: PointLocation, steps range: Range<Int>,
    into output: UnsafeMutableBufferPointer<Double>
  ) throws(QueryError) {
    try check(metric)
    try check(location)
    precondition(output.count >= range.count && range.lowerBound >= 0 && range.upperBound <= stepCount)
    readSeries(metric, at: location, steps: range, into: output)
    // A block that failed verification reads as missing: an error, never a silent gap.
    try checkIntact()
  }

  /// `series(_:at:steps:into:)` for handles this cube made.
  @inlinable
  func readSeries(
    _ metric: QueryMetric, at location: PointLocation, steps range: Range<Int>,
    into output: UnsafeMutableBufferPointer<Double>
  ) {
    if location.isMoving {
      movingSeries(metric, at: location, steps: range, into: output)
      return
    }
    switch metric.source {
    case .stored(let slot):
      if location.method == .nearest {
        let decoding = decodings[slot]
        let words = file.series(metric: slot, cell: location.cell)
        for (index, step) in range.enumerated() {
          let word = words.word(step)
          output[index] = word == CubeMetric.missing ? .nan : decoding.value(word)
        }
      } else {
        for (index, step) in range.enumerated() {
          output[index] = spatial(slot, step: step, location) ?? .nan
        }
      }
    case .windSpeed(let u, let v), .windDirection(let u, let v):
      let speed = if case .windSpeed = metric.source { true } else { false }
      if location.method == .nearest {
        // Both components are series at the cell, read step by step side by side.
        let (east, north) = (decodings[u], decodings[v])
        let (eastWords, northWords) = (
          file.series(metric: u, cell: location.cell), file.series(metric: v, cell: location.cell)
        )
        for (index, step) in range.enumerated() {
          let (a, b) = (eastWords.word(step), northWords.word(step))
          guard a != CubeMetric.missing, b != CubeMetric.missing else {
            output[index] = .nan
            continue
          }
          let (x, y) = (east.value(a), north.value(b))
          output[index] = speed ? Wind.speed(u: x, v: y) : Wind.direction(u: x, v: y)
        }
        return
      }
      for (index, step) in range.enumerated() {
        guard let east = spatial(u, step: step, location), let north = spatial(v, step: step, location) else {
          output[index] = .nan
          continue
        }
        output[index] = speed ? Wind.speed(u: east, v: north) : Wind.direction(u: east, v: north)
      }
    case .sunUp:
      for (index, step) in range.enumerated() {
        let up = SolarEvents.isDay(latitude: location.latitude, longitude: location.longitude, at: time(ofStep: step))
        output[index] = up ? 1 : 0
      }
    case .absent:
      for index in 0..<range.count { output[index] = .nan }
    }
  }

  /// Starts fetching the words `series(metric, at: location, steps: range, into:)` will
  /// read, without waiting for them. A point's series of different metrics lie far apart
  /// in the file, each a cache miss on a cold point; a caller reading several issues them
  /// all first, so that the misses overlap. A hint only: handles another cube made are
  /// ignored here (the read that follows refuses them).
  @inlinable
  public func prefetchSeries(_ metric: QueryMetric, at location: PointLocation, steps range: Range<Int>) {
    guard metric.maker.value == identity.value, location.maker.value == identity.value else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= stepCount)
    let slots: (Int, Int?)
    switch metric.source {
    case .stored(let slot): slots = (slot, nil)
    case .windSpeed(let u, let v), .windDirection(let u, let v): slots = (u, v)
    case .sunUp, .absent: return
    }
    @inline(__always) func fetch(_ cell: Int, _ steps: Range<Int>) {
      file.prefetch(metric: slots.0, cell: cell, steps: steps)
      if let second = slots.1 { file.prefetch(metric: second, cell: cell, steps: steps) }
    }
    @inline(__always) func fetch(_ location: PointLocation, _ steps: Range<Int>) {
      if location.method == .nearest {
        fetch(location.cell, steps)
      } else {
        let (southWest, east, north) = (location.southWest, location.eastStep, location.northStep)
        fetch(southWest, steps)
        fetch(southWest + east, steps)
        fetch(southWest + north, steps)
        fetch(southWest + north + east, steps)
      }
    }
    guard location.isMoving else {
      fetch(location, range)
      return
    }
    // Each stretch of steps in one position is one contiguous read at that position's cells.
    forEachStretch(of: location, in: range) { steps, here in
      if let here { fetch(here, steps) }
    }
  }

  /// How `metric`'s stored words decode at `location`, when each of its values there is one
  /// stored word (a stored metric at the nearest cell); nil otherwise (derived, bilinear or
  /// absent). See `words(_:at:steps:into:)`. `foreignHandle` when another cube made
  /// `metric` or `location`.
  public func wordDecoding(_ metric: QueryMetric, at location: PointLocation) throws(QueryError) -> WordDecoding? {
    try check(metric)
    try check(location)
    guard case .stored(let slot) = metric.source, location.method == .nearest else { return nil }
    return decodings[slot]
  }

  /// Writes `metric`'s stored words at the given steps into `output`, undecoded
  /// (`WordDecoding.missing` where missing). Decoding is monotonic, so a caller that orders
  /// values (a median, extremes) can order words and decode only the ones it keeps.
  /// `foreignHandle` when another cube made `metric` or `location`.
  /// - Precondition: `wordDecoding(metric, at: location)` is not nil, `output` holds
  ///   `range.count` words and `range` lies in `0..<stepCount`.
  @inlinable
  public func words(
    _ metric: QueryMetric, at location: PointLocation, steps range: Range<Int>,
    into output: UnsafeMutableBufferPointer<UInt16>
  ) throws(QueryError) {
    try check(metric)
    try check(location)
    guard case .stored(let slot) = metric.source, location.method == .nearest else {
      preconditionFailure("words of a metric that is not one stored word per value")
    }
    precondition(output.count >= range.count && range.lowerBound >= 0 && range.upperBound <= stepCount)
    guard let start = output.baseAddress, !range.isEmpty else { return }
    if location.isMoving {
      // Each stretch of steps in one position at the point's cell there; missing where the
      // position does not hold the point.
      forEachStretch(of: location, in: range) { steps, here in
        let at = start + (steps.lowerBound - range.lowerBound)
        guard let here else {
          at.update(repeating: WordDecoding.missing, count: steps.count)
          return
        }
        file.words(metric: slot, cell: here.cell, steps: steps, into: at)
      }
    } else {
      file.words(metric: slot, cell: location.cell, steps: range, into: start)
    }
    try checkIntact()
  }

  /// `series(_:at:steps:into:)` on a moving grid: each step read at the point's cells in
  /// that step's position, NaN where the position does not hold it.
  @usableFromInline
  @inline(never)
  func movingSeries(
    _ metric: QueryMetric, at location: PointLocation, steps range: Range<Int>,
    into output: UnsafeMutableBufferPointer<Double>
  ) {
    forEachStretch(of: location, in: range) { steps, here in
      let offset = steps.lowerBound - range.lowerBound
      let part = UnsafeMutableBufferPointer(rebasing: output[offset..<(offset + steps.count)])
      guard let here else {
        part.update(repeating: .nan)
        return
      }
      // One position: the fixed grid's series at the point's cell there. Its own handles,
      // so it does not throw.
      try? series(metric, at: here, steps: steps, into: part)
    }
  }

  /// `metric`'s values at the steps whose indices are `range`, nil where missing.
  /// `foreignHandle` when another cube made `metric` or `location`.
  /// - Precondition: `range` lies in `0..<stepCount`.
  public func series(
    _ metric: QueryMetric, at location: PointLocation, steps range: Range<Int>
  ) throws(QueryError) -> [Double?] {
    var buffer = [Double](repeating: .nan, count: range.count)
    try buffer.withUnsafeMutableBufferPointer { (output) throws(QueryError) in
      try series(metric, at: location, steps: range, into: output)
    }
    return buffer.map { $0.isNaN ? nil : $0 }
  }
}

/// How a stored metric's 16-bit words decode: `offset + scale · word`. Every read of a cube
/// decodes through it, so a word decoded by a caller equals the value read there exactly.
public struct WordDecoding: Sendable, Equatable {
  public let scale: Double
  public let offset: Double

  public init(scale: Double, offset: Double) {
    self.scale = scale
    self.offset = offset
  }

  /// The word of a missing value: the largest, so that it orders after every value.
  public static let missing = CubeMetric.missing

  /// The value of `word`, which must not be `missing`.
  @inlinable
  public func value(_ word: UInt16) -> Double { offset + scale * Double(word) }
}
