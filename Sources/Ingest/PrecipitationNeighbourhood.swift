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
/// runs of consecutive columns, and per-row prefix counts of wet and known cells give a
/// run's counts in one subtraction. The set-up finds every cell's runs once and keeps them
/// as segments, stretches of a row whose runs keep their column offsets, so that a step
/// costs a few additions a cell and row reached, with no geometry. On a regular
/// latitude/longitude grid (`RegularGrid`) the runs follow from the rows' latitudes and
/// the columns' spacing: the same offsets for every cell of a row, across the seam too.
/// On any other grid a two-pointer sweep (`Rows.sweep`) finds each cell's interval in
/// another row with a few distance tests; the set-up proves it exact for a block of cells
/// at once (a bound on their distance and the convexity of the squared chord along the
/// other row) or checks it cell by cell against an exact pass that jumps over cells surely
/// outside or inside by the triangle inequality (`Rows.trace`), whose runs are kept where
/// they differ (a global grid's seam, a pole, a strange curvilinear grid). The rows of the
/// set-up share the cores. A grid whose segments would outgrow `segmentLimit` keeps its
/// unit vectors instead and sweeps or traces at every step.
struct PrecipitationNeighbourhood {
  /// The neighbourhood's radius in metres.
  static let radius = 25_000.0
  /// The least amount (mm in the hour) that makes a cell wet.
  static let threshold = Metric.wetHour

  /// Rows above and below a band of rows that its cells' neighbourhoods reach.
  let haloRows: Int
  private let width: Int
  private let height: Int
  /// The rows row j's cells reach: `reachLower[j]...reachUpper[j]`, itself included.
  private let reachLower: [Int32]
  private let reachUpper: [Int32]
  /// Each row's segments, which give every cell's runs in every row it reaches; nil when
  /// they would outgrow `segmentLimit`, and then `geometry` finds the runs at every step.
  private let segments: [[Segment]]?
  private let geometry: Geometry?
  /// How the set-up found the runs, and how a step counts them.
  let counting: Counting
  /// The least amount that is wet, decided on the word `rain` is stored as
  /// (`isWet(_:rain:thresholdWord:)`): a step's count compares each amount with it,
  /// instead of quantizing each (a division and the range's branches a cell).
  private let wetFrom: Double

  /// How many segments the set-up kept (20 bytes each).
  var segmentCount: Int { segments?.reduce(0) { $0 + $1.count } ?? 0 }

  /// How the neighbourhoods are found and counted.
  enum Counting: Equatable {
    /// A regular latitude/longitude grid: segments from the rows' latitudes and the
    /// columns' spacing, without unit vectors.
    case regular
    /// Any other grid: segments from the sweep and the exact pass, checked cell by cell.
    case checked
    /// Segments too many to keep: each step sweeps or traces every row again.
    case geometry
  }

  /// The cells `first..<end` of a row each reach the cells `i + lower ..< i + upper` of
  /// row `other` (i the cell's column), clipped to the row: a stretch of a row whose runs
  /// keep their offsets, as they do along most rows of a projected or regular grid, is one
  /// segment. The set-up makes segments from exact runs only.
  struct Segment: Sendable, Equatable {
    let other: Int32
    let first: Int32
    var end: Int32
    let lower: Int32
    let upper: Int32
  }

  /// What a grid whose segments would be too many counts at every step: the unit vectors,
  /// for each row and row it reaches whether the sweep is exact there (else the exact pass
  /// runs), and each row's longest step for the exact pass.
  struct Geometry: Sendable {
    let rows: Rows
    let swept: [[Bool]]
    let steps: [Double]
  }

  /// What the set-up finds for one row: the rows its cells reach, whether the sweep is
  /// exact on each of them, and its segments (empty once the grid's outgrew the limit).
  struct RowSetUp: Sendable {
    var lower: Int
    var upper: Int
    var swept: [Bool]
    var segments: [Segment]
  }

  /// The most segments the set-up keeps: 20 bytes each, at most 3 a cell.
  static func segmentLimit(cells: Int) -> Int { 3 * cells + 65_536 }

  /// The most bytes the neighbourhood of a grid of `cells` cells holds at once, counting
  /// the whole grid as one band: at the set-up of a grid that is not a regular
  /// latitude/longitude one, the unit vectors (24 bytes a cell) and one lattice box per
  /// cell at most (a dictionary entry, 48 bytes); the segments, 60 bytes a cell at most
  /// (`segmentLimit`), or instead the unit vectors; while a band is counted, each of its
  /// cells' packed prefix counts (8), sums (8), value (8) and amount (8).
  static func bytes(cells: Double) -> Double { cells * 160 }

  /// What one step's count holds for each cell of the rows it counts: the packed prefix
  /// counts, the percentages and the row sums (at most 8 bytes each), and the amounts.
  static let countingBytesPerCell = 32.0

  /// The bytes this neighbourhood keeps once set up, when its set-up held nothing larger
  /// than them (a regular latitude/longitude grid's needs neither unit vectors nor lattice
  /// boxes): its segments and each row's reach and array header. Nil for any other grid,
  /// whose set-up `bytes(cells:)` bounds. The counting of a step is not included
  /// (`countingBytesPerCell` for each cell of the rows it counts).
  var heldBytes: Double? {
    guard counting == .regular, let segments else { return nil }
    let segmentBytes = Double(segments.reduce(0) { $0 + $1.count } * MemoryLayout<Segment>.stride)
    return segmentBytes + Double(height) * 64
  }

  /// Why a grid gets no neighbourhood.
  struct Refusal: Error {
    let reason: String
  }

  /// The neighbourhoods of the `width` × `height` grid whose cell centres are
  /// `latitudes`/`longitudes` (degrees, row-major); `rainStep` is the precision `rain`
  /// is stored at. `segmentLimit` replaces the most segments kept (`segmentLimit(cells:)`).
  init(
    latitudes: [Float], longitudes: [Float], width: Int, height: Int,
    rainStep: Double = Metric.rain.step ?? 0.1, segmentLimit: Int? = nil
  ) throws(Refusal) {
    // The product is formed with an overflow check: the sides come from a file.
    let (cells, overflow) = width.multipliedReportingOverflow(by: height)
    guard width > 0, height > 0, !overflow, latitudes.count == cells, longitudes.count == latitudes.count else {
      throw Refusal(
        reason:
          "the grid's coordinates (\(latitudes.count) latitudes, \(longitudes.count) longitudes) do not fit \(width) × \(height) cells"
      )
    }
    // Rows, columns and counts are held in 32 bits, as a cube's cells are.
    guard cells <= Int(Int32.max) else {
      throw Refusal(reason: "the grid's \(cells) cells are more than a cube holds (\(Int32.max))")
    }
    // Without a position a cell has no neighbours, and no other cell has it.
    if let cell = latitudes.indices.first(where: { !latitudes[$0].isFinite || !longitudes[$0].isFinite }) {
      throw Refusal(
        reason: "cell \(cell) (column \(cell % width), row \(cell / width)) has no finite latitude and longitude")
    }
    (self.width, self.height) = (width, height)
    let rain = CubeMetric(
      name: Metric.rain.name, unit: Metric.rain.unit, temporal: Metric.rain.temporal.rawValue,
      scale: rainStep, offset: Metric.rain.offset)
    let thresholdWord = rain.quantize(Self.threshold) ?? 10
    wetFrom = Self.leastWet { Self.isWet($0, rain: rain, thresholdWord: thresholdWord) }
    let limit = segmentLimit ?? Self.segmentLimit(cells: cells)
    let setUps: [RowSetUp]
    if let regular = RegularGrid(latitudes: latitudes, longitudes: longitudes, width: width, height: height),
      let found = regular.setUp(limit: limit)
    {
      (setUps, geometry, counting) = (found, nil, .regular)
    } else {
      let rows = Rows(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
      let (found, steps, kept) = Self.checkedSetUp(rows, limit: limit)
      setUps = found
      geometry = kept ? nil : Geometry(rows: rows, swept: found.map(\.swept), steps: steps)
      counting = kept ? .checked : .geometry
    }
    reachLower = setUps.map { Int32($0.lower) }
    reachUpper = setUps.map { Int32($0.upper) }
    segments = geometry == nil ? setUps.map(\.segments) : nil
    haloRows = setUps.indices.reduce(0) { Swift.max($0, $1 - setUps[$1].lower, setUps[$1].upper - $1) }
  }

  /// Whether cells `a` and `b` are within the radius by the definition itself.
  @inline(never)
  static func isWithin(_ a: Int, _ b: Int, latitudes: [Float], longitudes: [Float]) -> Bool {
    GreatCircle.distance(
      latitude1: Double(latitudes[a]), longitude1: Double(longitudes[a]), latitude2: Double(latitudes[b]),
      longitude2: Double(longitudes[b])) <= radius
  }

  /// Whether a known `amount` makes a cell wet, by the definition: its word as `rain`
  /// stores it is at least `thresholdWord`; an amount the cube cannot store (which fails
  /// the publication of `rain` itself) counts by its value.
  static func isWet(_ amount: Double, rain: CubeMetric, thresholdWord: UInt16) -> Bool {
    rain.quantize(amount).map { $0 >= thresholdWord } ?? (amount >= threshold)
  }

  /// Whether a known `amount` is wet for this neighbourhood's `rain` (`isWet`), as a step's
  /// count decides it: at least `wetFrom`.
  func isWet(_ amount: Double) -> Bool { amount >= wetFrom }

  /// The least double for which `wet` holds, by bisection over the doubles in their order:
  /// `wet` is false up to some amount and true from it, since quantizing is monotonic (a
  /// correctly rounded subtraction and division, then rounding), amounts below the stored
  /// range are below the threshold and amounts above it above. When `wet` does not hold at
  /// the largest double or holds at the smallest (no such amount), the largest double.
  static func leastWet(_ wet: (Double) -> Bool) -> Double {
    // A double's bits as an integer in the doubles' order: negatives flipped whole, the
    // sign bit set on the others.
    func key(_ value: Double) -> UInt64 {
      let bits = value.bitPattern
      return bits >> 63 == 1 ? ~bits : bits | 1 << 63
    }
    func value(_ key: UInt64) -> Double { Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key) }
    var (low, high) = (key(-.greatestFiniteMagnitude), key(.greatestFiniteMagnitude))
    guard !wet(value(low)), wet(value(high)) else { return .greatestFiniteMagnitude }
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if wet(value(middle)) { high = middle } else { low = middle }
    }
    return value(high)
  }

  /// The percentages for the cells of rows `owned` (row-major, `owned.count * width`
  /// values), from `rain` of rows `rows` (which contains `owned` and extends it by up to
  /// `haloRows` on each side, clipped to the grid; `rows.count * width` values).
  func percentages(rain amounts: UnsafeBufferPointer<Double>, rows: Range<Int>, owned: Range<Int>) -> [Double] {
    precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows \(rows) outside the grid's \(height)")
    precondition(rows.lowerBound <= owned.lowerBound && owned.upperBound <= rows.upperBound)
    precondition(amounts.count == rows.count * width, "\(amounts.count) amounts for \(rows.count) rows")
    // Per row, the counts of wet cells (high 32 bits) and of known cells (low 32 bits)
    // before each column, packed so that one subtraction gives a run's two counts: a
    // count is at most the grid's cells, under 2^31, so the low half never borrows.
    let stride = width + 1
    var counts = [Int64](repeating: 0, count: rows.count * stride)
    counts.withUnsafeMutableBufferPointer { counts in
      let wetFrom = wetFrom
      for local in 0..<rows.count {
        var soFar = Int64(0)
        // Without a branch: NaN is neither known nor at least `wetFrom`.
        for column in 0..<width {
          let amount = amounts[local &* width &+ column]
          soFar &+= (amount >= wetFrom ? 1 << 32 : 0) | (amount.isNaN ? 0 : 1)
          counts[local &* stride &+ column &+ 1] = soFar
        }
      }
    }
    var sums = [Int64](repeating: 0, count: width)
    // Every value is written below: no fill first.
    return [Double](unsafeUninitializedCapacity: owned.count * width) { result, initialized in
      counts.withUnsafeBufferPointer { counts in
        sums.withUnsafeMutableBufferPointer { sums in
          for row in owned {
            for i in 0..<width { sums[i] = 0 }
            if let segments {
              Self.add(segments[row], counts: counts, rows: rows, width: width, to: sums)
            } else if let geometry {
              add(row: row, by: geometry, counts: counts, rows: rows, to: sums)
            }
            let (local, out) = ((row - rows.lowerBound) * width, (row - owned.lowerBound) * width)
            for i in 0..<width {
              // A known cell is its own neighbour, so its known count is at least 1; an
              // unknown one's value is NaN, chosen without a branch.
              let share = 100 * Double(sums[i] >> 32) / Double(sums[i] & 0xFFFF_FFFF)
              result.initializeElement(at: out &+ i, to: amounts[local &+ i].isNaN ? .nan : share)
            }
          }
        }
      }
      initialized = owned.count * width
    }
  }

  /// Adds to `sums` the packed counts of `segments`' runs, from the prefix counts of rows
  /// `rows`. A segment's rows outside `rows` are left out: a band's rows are meant to hold
  /// the whole reach, and clipping keeps a short band safe.
  private static func add(
    _ segments: [Segment], counts: UnsafeBufferPointer<Int64>, rows: Range<Int>, width: Int,
    to sums: UnsafeMutableBufferPointer<Int64>
  ) {
    let stride = width + 1
    for segment in segments {
      let other = Int(segment.other)
      guard rows.contains(other) else { continue }
      let base = (other - rows.lowerBound) * stride
      let (lower, upper) = (Int(segment.lower), Int(segment.upper))
      // The set-up made every segment's clipped runs non-empty, inside the row.
      for i in Int(segment.first)..<Int(segment.end) {
        let from = Swift.min(Swift.max(i + lower, 0), width)
        let to = Swift.min(Swift.max(i + upper, 0), width)
        sums[i] &+= counts[base + to] &- counts[base + from]
      }
    }
  }

  /// Adds to `sums` the packed counts of every run of row `row`'s cells, found by the
  /// sweep or the exact pass.
  private func add(
    row: Int, by geometry: Geometry, counts: UnsafeBufferPointer<Int64>, rows: Range<Int>,
    to sums: UnsafeMutableBufferPointer<Int64>
  ) {
    let stride = width + 1
    let first = Int(reachLower[row])
    for other in Swift.max(first, rows.lowerBound)...Swift.min(Int(reachUpper[row]), rows.upperBound - 1) {
      let base = (other - rows.lowerBound) * stride
      if geometry.swept[row][other - first] {
        geometry.rows.sweep(row: row, other: other) { i, lower, upper, _ in
          sums[i] &+= counts[base + upper] &- counts[base + lower]
        }
      } else {
        let start = geometry.rows.start(of: row)
        for i in 0..<width {
          geometry.rows.trace(start + i, row: other, step: geometry.steps[other]) { lower, upper in
            sums[i] &+= counts[base + upper] &- counts[base + lower]
          }
        }
      }
    }
  }

  /// The percentages for every cell of the grid, from every cell's `rain` (mm in the
  /// hour, NaN where unknown).
  func percentages(rain amounts: [Double]) -> [Double] {
    precondition(amounts.count == width * height)
    return amounts.withUnsafeBufferPointer { percentages(rain: $0, rows: 0..<height, owned: 0..<height) }
  }
}
