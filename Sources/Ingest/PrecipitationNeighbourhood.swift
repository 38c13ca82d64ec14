import CubeFormat
import Foundation
import GridGeometry
import Meteorology

/// `precip_neighbourhood`: for each cell, the percentage of the cells within 25 km
/// of it that had at least 0.1 mm of precipitation in the hour ending at the step: one
/// run's part of the neighbourhood, time-lagged ensemble that `precipitation_probability`
/// averages at query time (Theis et al. 2005; Mittermaier 2007).
///
/// **Definition, exactly.** A cell's neighbourhood is every cell of the grid whose centre
/// lies within `radius` of its centre by `GreatCircle.distance` (the cell itself
/// included), whatever the grid: a projected domain, a latitude/longitude grid whose
/// spacing shrinks towards the poles, a global grid across its longitude seam. A cell is
/// wet when its `rain` *as stored* is at least 0.1 mm, that is when the derived amount
/// quantizes to a word of at least 0.1 mm over the cube's rain precision (at the default
/// 0.1 mm a word, an amount of 0.05 mm counts, 0.0499 mm does not), so a count over the
/// cube's stored rain gives the same answer as ingest. The value is
/// 100 · wet / known over the neighbourhood's cells with a known amount, and NaN where the
/// cell's own amount is unknown.
///
/// **Cost.** A neighbourhood is counted row by row: in each row it reaches, its cells are
/// found as runs of consecutive columns, and per-row prefix sums of wet and known cells
/// give each run's counts in two subtractions. On a sane grid a row's cells within the
/// radius of each cell of another row are one interval that moves forward along the row,
/// found by a two-pointer sweep (`Rows.sweep`) with a few distance tests a cell; elsewhere
/// (a global grid's seam, a pole, a strange curvilinear grid) an exact pass that jumps
/// over cells surely outside or inside by the triangle inequality (`Rows.trace`) is used.
/// The set-up, linear in the cells, finds the rows each row reaches (a lattice of unit
/// vectors bounds them, `trace` decides them) and checks the sweep against the exact pass
/// for every cell and pair of rows: a pair of rows uses the sweep only where it gave the
/// exact answer for every cell. The set-up keeps a few numbers a row; a band of rows
/// costs its cells' unit vectors and prefix sums while it is counted.
struct PrecipitationNeighbourhood {
  /// The neighbourhood's radius in metres.
  static let radius = 25_000.0
  /// The least amount (mm in the hour) that makes a cell wet.
  static let threshold = Metric.wetHour
  /// Rows whose exact pass the set-up runs together, so that their neighbouring rows'
  /// unit vectors are computed once for many rows.
  static let setUpRows = 64

  /// Rows above and below a band of rows that its cells' neighbourhoods reach.
  let haloRows: Int
  private let width: Int
  private let height: Int
  private let latitudes: [Float]
  private let longitudes: [Float]
  /// The rows row j's cells reach: `reachLower[j]...reachUpper[j]`, itself included.
  private let reachLower: [Int32]
  private let reachUpper: [Int32]
  /// Whether row j counts row `reachLower[j] + d` by the sweep: `swept[firstPair[j] + d]`.
  private let firstPair: [Int]
  private let swept: [Bool]
  /// Each row's longest chord between neighbouring cells, for `Rows.trace`.
  private let steps: [Double]
  /// How `rain` is stored, so that wetness is decided on the stored word.
  private let rain: CubeMetric
  private let thresholdWord: UInt16

  /// The most bytes the neighbourhood of a grid of `cells` cells holds at once, counting
  /// the whole grid as one band: at the set-up, one lattice box per cell at most (a
  /// dictionary entry, 48 bytes); while a band is counted, each of its cells' unit vector
  /// (24 bytes), prefix counts (8), value (8) and amount (8).
  static func bytes(cells: Double) -> Double { cells * 96 }

  /// Why a grid gets no neighbourhood.
  struct Refusal: Error {
    let reason: String
  }

  /// The neighbourhoods of the `width` × `height` grid whose cell centres are
  /// `latitudes`/`longitudes` (degrees, row-major); `rainStep` is the precision `rain`
  /// is stored at.
  init(
    latitudes: [Float], longitudes: [Float], width: Int, height: Int,
    rainStep: Double = Metric.rain.step ?? 0.1
  ) throws(Refusal) {
    guard width > 0, height > 0, latitudes.count == width * height, longitudes.count == latitudes.count else {
      throw Refusal(
        reason:
          "the grid's coordinates (\(latitudes.count) latitudes, \(longitudes.count) longitudes) do not fit \(width) × \(height) cells"
      )
    }
    // Without a position a cell has no neighbours, and no other cell has it.
    if let cell = latitudes.indices.first(where: { !latitudes[$0].isFinite || !longitudes[$0].isFinite }) {
      throw Refusal(
        reason: "cell \(cell) (column \(cell % width), row \(cell / width)) has no finite latitude and longitude")
    }
    (self.width, self.height, self.latitudes, self.longitudes) = (width, height, latitudes, longitudes)
    rain = CubeMetric(
      name: Metric.rain.name, unit: Metric.rain.unit, temporal: Metric.rain.temporal.rawValue,
      scale: rainStep, offset: Metric.rain.offset)
    thresholdWord = rain.quantize(Self.threshold) ?? 10
    let (candidates, steps) = Self.candidateRows(latitudes: latitudes, longitudes: longitudes, width: width)
    self.steps = steps
    var (reachLower, reachUpper) = ([Int32](repeating: 0, count: height), [Int32](repeating: 0, count: height))
    var (firstPair, swept) = ([Int](), [Bool]())
    firstPair.reserveCapacity(height)
    for chunk in stride(from: 0, to: height, by: Self.setUpRows) {
      let owned = chunk..<Swift.min(chunk + Self.setUpRows, height)
      let window = owned.map { candidates[$0] }.reduce(owned) {
        Swift.min($0.lowerBound, $1.lowerBound)..<Swift.max($0.upperBound, $1.upperBound)
      }
      let rows = Rows(rows: window, width: width, latitudes: latitudes, longitudes: longitudes)
      for row in owned {
        let (lower, upper, exact) = Self.check(row: row, among: candidates[row], in: rows, steps: steps)
        (reachLower[row], reachUpper[row]) = (Int32(lower), Int32(upper))
        firstPair.append(swept.count)
        swept += exact[(lower - candidates[row].lowerBound)...(upper - candidates[row].lowerBound)]
      }
    }
    (self.reachLower, self.reachUpper, self.firstPair, self.swept) = (reachLower, reachUpper, firstPair, swept)
    haloRows = (0..<height).reduce(0) { Swift.max($0, $1 - Int(reachLower[$1]), Int(reachUpper[$1]) - $1) }
  }

  /// For each row, the rows that can hold a cell within the radius of one of its cells
  /// (a superset, from a lattice of unit vectors whose spacing is the radius's chord: two
  /// points within the radius are in the same or adjacent lattice boxes), and each row's
  /// longest step. Memory: one entry per occupied box and per row.
  private static func candidateRows(
    latitudes: [Float], longitudes: [Float], width: Int
  ) -> (rows: [Range<Int>], steps: [Double]) {
    let height = latitudes.count / width
    let edge = Rows.chord * (1 + 1e-6)
    // Boxes numbered along x, then y, then z, with a margin so that a neighbour's number is
    // the box's plus a fixed offset.
    let span = Int64((2 / edge).rounded(.up)) + 4
    func box(_ cell: Int) -> Int64 {
      let point = Rows.vector(latitudes[cell], longitudes[cell])
      func index(_ coordinate: Double) -> Int64 { Int64((coordinate / edge).rounded(.down)) + span / 2 }
      return (index(point.z) * span + index(point.y)) * span + index(point.x)
    }
    let around = (-1...1).flatMap { dz in
      (-1...1).flatMap { dy in (-1...1).map { dx in (Int64(dz) * span + Int64(dy)) * span + Int64(dx) } }
    }
    var spans: [Int64: (lower: Int32, upper: Int32)] = [:]
    var steps = [Double](repeating: 0, count: height)
    for row in 0..<height {
      var previous: Int64?
      for cell in (row * width)..<((row + 1) * width) {
        let key = box(cell)
        guard key != previous else { continue }
        previous = key
        if let span = spans[key] {
          spans[key] = (Swift.min(span.lower, Int32(row)), Swift.max(span.upper, Int32(row)))
        } else {
          spans[key] = (Int32(row), Int32(row))
        }
      }
      steps[row] = Rows(rows: row..<(row + 1), width: width, latitudes: latitudes, longitudes: longitudes)
        .longestStep(row: row)
    }
    var rows: [Range<Int>] = []
    rows.reserveCapacity(height)
    for row in 0..<height {
      var (lower, upper) = (row, row)
      var previous: Int64?
      for cell in (row * width)..<((row + 1) * width) {
        let key = box(cell)
        guard key != previous else { continue }
        previous = key
        for offset in around {
          guard let rows = spans[key + offset] else { continue }
          (lower, upper) = (Swift.min(lower, Int(rows.lower)), Swift.max(upper, Int(rows.upper)))
        }
      }
      rows.append(lower..<(upper + 1))
    }
    return (rows, steps)
  }

  /// The rows `row` truly reaches, found by the exact pass over `candidates`, and for each
  /// candidate row whether the sweep gives the exact pass's answer for every cell.
  private static func check(
    row: Int, among candidates: Range<Int>, in rows: Rows, steps: [Double]
  ) -> (lower: Int, upper: Int, exact: [Bool]) {
    let width = rows.width
    var (lower, upper) = (row, row)
    var exact: [Bool] = []
    exact.reserveCapacity(candidates.count)
    var intervals = [Int](repeating: 0, count: 2 * width)
    for other in candidates {
      rows.sweep(row: row, other: other) { i, from, to in (intervals[2 * i], intervals[2 * i + 1]) = (from, to) }
      var (agrees, reached) = (true, false)
      for i in 0..<width {
        var runs = 0
        let (from, to) = (intervals[2 * i], intervals[2 * i + 1])
        rows.trace(rows.start(of: row) + i, row: other, step: steps[other]) { a, b in
          runs += 1
          if a != from || b != to { agrees = false }
        }
        if runs > 0 { reached = true }
        if runs > 1 || (runs == 0 && from != to) { agrees = false }
      }
      exact.append(agrees)
      if reached { (lower, upper) = (Swift.min(lower, other), Swift.max(upper, other)) }
    }
    return (lower, upper, exact)
  }

  /// The percentages for the cells of rows `owned` (row-major, `owned.count * width`
  /// values), from `rain` of rows `rows` (which contains `owned` and extends it by up to
  /// `haloRows` on each side, clipped to the grid; `rows.count * width` values).
  func percentages(rain amounts: UnsafeBufferPointer<Double>, rows: Range<Int>, owned: Range<Int>) -> [Double] {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows \(rows) outside the grid's \(height)")
    precondition(rows.lowerBound <= owned.lowerBound && owned.upperBound <= rows.upperBound)
    precondition(amounts.count == rows.count * width, "\(amounts.count) amounts for \(rows.count) rows")
    let geometry = Rows(rows: rows, width: width, latitudes: latitudes, longitudes: longitudes)
    // Per row, counts of wet and of known cells before each column: a run's counts are two
    // subtractions.
    let stride = width + 1
    var wet = [Int32](repeating: 0, count: rows.count * stride)
    var known = wet
    for local in 0..<rows.count {
      var (wetSoFar, knownSoFar) = (Int32(0), Int32(0))
      for column in 0..<width {
        let amount = amounts[local * width + column]
        if !amount.isNaN {
          knownSoFar += 1
          // An amount the cube cannot store fails the publication of `rain` itself;
          // until then it counts by its value.
          if rain.quantize(amount).map({ $0 >= thresholdWord }) ?? (amount >= Self.threshold) { wetSoFar += 1 }
        }
        wet[local * stride + column + 1] = wetSoFar
        known[local * stride + column + 1] = knownSoFar
      }
    }
    var result = [Double](repeating: .nan, count: owned.count * width)
    var (wetCounts, knownCounts) = ([Int32](repeating: 0, count: width), [Int32](repeating: 0, count: width))
    for row in owned {
      for i in 0..<width {
        (wetCounts[i], knownCounts[i]) = (0, 0)
      }
      let first = Int(reachLower[row])
      // A band's rows are meant to hold the whole reach; clipping keeps a short band safe.
      for other in Swift.max(first, rows.lowerBound)...Swift.min(Int(reachUpper[row]), rows.upperBound - 1) {
        let base = (other - rows.lowerBound) * stride
        if swept[firstPair[row] + other - first] {
          geometry.sweep(row: row, other: other) { i, lower, upper in
            wetCounts[i] += wet[base + upper] - wet[base + lower]
            knownCounts[i] += known[base + upper] - known[base + lower]
          }
        } else {
          let start = geometry.start(of: row)
          for i in 0..<width {
            geometry.trace(start + i, row: other, step: steps[other]) { lower, upper in
              wetCounts[i] += wet[base + upper] - wet[base + lower]
              knownCounts[i] += known[base + upper] - known[base + lower]
            }
          }
        }
      }
      let (local, out) = ((row - rows.lowerBound) * width, (row - owned.lowerBound) * width)
      for i in 0..<width where !amounts[local + i].isNaN {
        // The cell is known and its own neighbour, so its known count is at least 1.
        result[out + i] = 100 * Double(wetCounts[i]) / Double(knownCounts[i])
      }
    }
    return result
  }

  /// The percentages for every cell of the grid, from every cell's `rain` (mm in the
  /// hour, NaN where unknown).
  func percentages(rain amounts: [Double]) -> [Double] {
    precondition(amounts.count == width * height)
    return amounts.withUnsafeBufferPointer { percentages(rain: $0, rows: 0..<height, owned: 0..<height) }
  }
}
