import Meteorology
import Synchronization
import UTCTime

/// Screens the fields of one domain's run for values no atmosphere has (`InputRange`),
/// turning each into missing (NaN) in its cell and step, and keeps count, so that ingest
/// warns once per field and refuses a file in which too much of a field is bad.
///
/// Steps are derived several at once and a field may be read more than once for a step
/// (an accumulation is read again as the next hour's earlier step, a field's lowest levels
/// before all of them): counts are kept per field and step, the fullest read's, so that a
/// value is counted once however often it is read.
final class InputScreen: Sendable {
  /// The largest share of a field's values that may be bad in a run that is still
  /// ingested. An isolated bad cell is a small share of any grid (one cell of the
  /// smallest sample domain, 80 cells, at every step, is 1.25 %); a wrong unit, a
  /// corrupted chunk or a field that blew up spoils far more. docs/inputs.md explains.
  static let refusedShare = 0.05

  /// What a screened read found: values read, bad ones, and the first bad one's place.
  struct Tally: Sendable {
    var values: Int
    var bad: Int
    /// The first bad value's index in the read (level by level), and the value.
    var first: (index: Int, value: Double)?
  }

  private struct Key: Hashable {
    let name: String
    let time: Int64
    /// The first cell of the band that counted the read: bands count their own cells.
    let band: Int
  }

  private struct Entry {
    var tally: Tally
    let step: StepSource
    let cells: Int
    let why: String
  }

  private let entries = Mutex([Key: Entry]())

  /// Replaces every value of `name` outside its range (that of `quantity` in
  /// `InputRange.table`, by default `name`'s) with NaN and records the read; fields
  /// without a range pass as they are.
  func screen(_ name: String, quantity: String? = nil, _ values: inout [Double], step: StepSource, cells: Int) {
    screen(name, quantity: quantity, &values, step: step, region: .whole(cells: cells))
  }

  /// Screens a read of part of the grid: every bad value becomes NaN, but only those in
  /// cells `region` counts (its band's own) are counted, so that bands whose rows overlap
  /// count each value once.
  func screen(_ name: String, quantity: String? = nil, _ values: inout [Double], step: StepSource, region: ReadRegion) {
    guard let range = InputRange.table[quantity ?? name] else { return }
    var tally = Tally(values: region.counted(values: values.count), bad: 0)
    // Nearly every read is wholly plausible: four values at a time, without a branch
    // (NaN and ±∞ fail the comparisons, the bounds being finite), find that cheaply, and
    // only a read with a bad value pays for the loop that marks them.
    guard !Self.allInside(values, range) else {
      record(name, tally, step: step, region: region, why: Self.outsideRange(range))
      return
    }
    for index in values.indices where !range.contains(values[index]) {
      // The value is named in the warning before it becomes missing.
      if region.counts(index) {
        if tally.first == nil { tally.first = (region.gridIndex(of: index), values[index]) }
        tally.bad += 1
      }
      values[index] = .nan
    }
    record(name, tally, step: step, region: region, why: Self.outsideRange(range))
  }

  private static func allInside(_ values: [Double], _ range: InputRange) -> Bool {
    let lower = SIMD4<Double>(repeating: range.lower)
    let upper = SIMD4<Double>(repeating: range.upper)
    return values.withUnsafeBufferPointer { buffer in
      var inside = SIMDMask<SIMD4<Int64>>(repeating: true)
      var index = 0
      while index + 4 <= buffer.count {
        let four = SIMD4(buffer[index], buffer[index + 1], buffer[index + 2], buffer[index + 3])
        inside .&= (four .>= lower) .& (four .<= upper)
        index += 4
      }
      while index < buffer.count {
        if !(buffer[index] >= range.lower && buffer[index] <= range.upper) { return false }
        index += 1
      }
      return all(inside)
    }
  }

  /// Why a value was screened out; the warning adds what became of it, once.
  private static func outsideRange(_ range: InputRange) -> String {
    "outside its range \(range.text) or not finite"
  }

  /// The last guard before a derived metric is stored: a value outside the metric's
  /// plausible range (`Metric.plausibleRange`) becomes missing and is counted under the
  /// metric's name. Unknown values (NaN) are missing already and pass.
  /// `values` are those of `region`'s counted cells (a band's, or the grid's), changed in
  /// place.
  func guardDerived(
    _ metric: Metric, _ values: UnsafeMutableBufferPointer<Double>, step: StepSource, region: ReadRegion
  ) {
    guard let range = metric.plausibleRange else { return }
    var tally = Tally(values: values.count, bad: 0)
    if !Self.allPlausible(UnsafeBufferPointer(values), range) {
      for index in values.indices where !values[index].isNaN && !range.contains(values[index]) {
        if tally.first == nil { tally.first = (region.gridIndex(of: index), values[index]) }
        values[index] = .nan
        tally.bad += 1
      }
    }
    record("derived \(metric.name)", tally, step: step, region: region, why: Self.implausible(range))
  }

  /// Records `guardDerived`'s check of `count` values of `metric` that were all found
  /// plausible elsewhere (by the pass that stored them, `StepWords.store(metric:values:checking:)`),
  /// exactly as `guardDerived` records such values.
  func recordPlausible(_ metric: Metric, count: Int, step: StepSource, region: ReadRegion) {
    guard let range = metric.plausibleRange else { return }
    record(
      "derived \(metric.name)", Tally(values: count, bad: 0), step: step, region: region,
      why: Self.implausible(range))
  }

  /// Why a derived value was stored as missing.
  private static func implausible(_ range: InputRange) -> String {
    "outside the metric's plausible range \(range.text) (a derivation fault), stored as missing"
  }

  /// Whether every value is unknown (NaN) or within `range`: nearly every derived value is,
  /// so one pass without a branch per value finds it, eight values to a vector (the scalar
  /// loop was left scalar by the compiler), and only a field with a bad value pays for the
  /// loop that marks them.
  private static func allPlausible(_ values: UnsafeBufferPointer<Double>, _ range: InputRange) -> Bool {
    typealias Values = SIMD8<Double>
    let lower = Values(repeating: range.lower)
    let upper = Values(repeating: range.upper)
    let infinity = Values(repeating: .infinity)
    var outside = SIMDMask<SIMD8<Int64>>(repeating: false)
    let whole = values.count / Values.scalarCount * Values.scalarCount
    if let base = values.baseAddress {
      let raw = UnsafeRawPointer(base)
      for index in stride(from: 0, to: whole, by: Values.scalarCount) {
        let value = raw.loadUnaligned(fromByteOffset: index &* 8, as: Values.self)
        // NaN fails every comparison; ±∞ is outside even an unbounded range.
        outside .|= (value .< lower) .| (value .> upper) .| (value .== infinity) .| (value .== -infinity)
      }
    }
    var tail = false
    for value in values[whole...] {
      tail = tail || value < range.lower || value > range.upper || value.magnitude == .infinity
    }
    return !any(outside) && !tail
  }

  /// Records a check made elsewhere (a falling accumulation, a derived metric out of its
  /// range) under `name`, with `why` saying what was wrong.
  /// `tally` counts the cells `region` counts, its first index already in the grid's
  /// numbering (`ReadRegion.gridIndex(of:)`).
  func record(_ name: String, _ tally: Tally, step: StepSource, region: ReadRegion, why: String) {
    let key = Key(name: name, time: step.time, band: region.band)
    entries.withLock { entries in
      if let existing = entries[key], existing.tally.values >= tally.values { return }
      entries[key] = Entry(tally: tally, step: step, cells: region.gridCells, why: why)
    }
  }

  /// One warning per field with bad values: how many, at how many steps, and the first
  /// (earliest step, lowest index) with its file, time, cell and coordinates.
  func warnings(width: Int, latitudes: [Float], longitudes: [Float]) -> [String] {
    warnings(width: width) { _ in (latitudes, longitudes) }
  }

  /// The warnings, with each step's coordinates from `grid` (a moving grid's differ by step).
  func warnings(
    width: Int, grid: (StepSource) -> (latitudes: [Float], longitudes: [Float])
  ) -> [String] {
    summaries().map { summary in
      let entry = summary.first
      let index = entry.tally.first?.index ?? 0
      let cell = index % max(entry.cells, 1)
      let level = index / max(entry.cells, 1)
      let (latitudes, longitudes) = grid(entry.step)
      let place =
        cell < latitudes.count && cell < longitudes.count
        ? " (lat \(latitudes[cell]), lon \(longitudes[cell]))" : ""
      let levelText = level > 0 ? ", level \(level)" : ""
      let value = entry.tally.first.map { " value \($0.value)" } ?? ""
      let valuesText = summary.bad == 1 ? "1 value" : "\(summary.bad) values"
      let stepsText = summary.steps == 1 ? "1 step" : "\(summary.steps) steps"
      return
        "\(summary.name): \(valuesText) at \(stepsText) \(entry.why), stored as missing with every metric derived from them; first in \(entry.step.path) at \(UTC.iso8601(entry.step.time)), cell i=\(cell % max(width, 1)), j=\(cell / max(width, 1))\(levelText)\(place),\(value)"
    }
  }

  /// The error refusing the run when some field's bad share exceeds `refusedShare`.
  func refusal() -> IngestError? {
    for summary in summaries() where Double(summary.bad) > Self.refusedShare * Double(summary.values) {
      let share = (100 * Double(summary.bad) / Double(max(summary.values, 1)) * 10).rounded() / 10
      return IngestError(
        path: summary.first.step.path, variable: summary.name,
        reason:
          "\(share) % of its values (\(summary.bad) of \(summary.values)) are \(summary.first.why): more than \(Self.refusedShare * 100) % is refused as a broken file"
      )
    }
    return nil
  }

  private struct Summary {
    let name: String
    let values: Int
    let bad: Int
    let steps: Int
    let first: Entry
  }

  /// Per field, in name order: totals over its steps and its earliest bad read.
  private func summaries() -> [Summary] {
    let all = entries.withLock { $0 }
    var byName: [String: [(time: Int64, band: Int, entry: Entry)]] = [:]
    for (key, entry) in all { byName[key.name, default: []].append((key.time, key.band, entry)) }
    return byName.keys.sorted().compactMap { name in
      // Earliest step first, and within a step the band of the lowest cells.
      let reads = (byName[name] ?? []).sorted { ($0.time, $0.band) < ($1.time, $1.band) }
      let bad = reads.filter { $0.entry.tally.bad > 0 }
      guard let first = bad.first?.entry else { return nil }
      return Summary(
        name: name, values: reads.reduce(0) { $0 + $1.entry.tally.values },
        bad: bad.reduce(0) { $0 + $1.entry.tally.bad }, steps: Set(bad.map(\.time)).count, first: first)
    }
  }
}
