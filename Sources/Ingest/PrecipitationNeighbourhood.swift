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
/// cube's stored rain gives the same answer as ingest. The value is 100 · wet / known over the neighbourhood's cells with a known
/// amount, and NaN where the cell's own amount is unknown.
///
/// **Cost.** The neighbourhoods are found once per grid and kept as runs of consecutive
/// cell indices (in a row-major grid, about one run per row a neighbourhood spans),
/// after which a step costs one prefix sum over the cells and two subtractions per run.
/// Finding them looks only at cells in adjacent buckets of a 3-D lattice of unit vectors
/// whose spacing is the radius's chord, so any grid shape is handled, and the work is
/// bounded: a grid needing more than `testLimit` distance tests or `runLimit` runs gets no
/// neighbourhood, with a warning, rather than an ingest that takes minutes.
struct PrecipitationNeighbourhood {
  /// The neighbourhood's radius in metres.
  static let radius = 25_000.0
  /// The least amount (mm in the hour) that makes a cell wet.
  static let threshold = Metric.wetHour
  /// The most cell pairs whose distance a grid's build may test: seconds of work.
  static let testLimit = 400_000_000
  /// The most runs a grid's neighbourhoods may take: 8 bytes each.
  static let runLimit = 16_000_000

  /// Cell c's neighbourhood is the runs `firstRun[c]..<firstRun[c + 1]`; run r is the
  /// cells `runStart[r]..<runEnd[r]`.
  private let firstRun: [Int32]
  private let runStart: [Int32]
  private let runEnd: [Int32]
  /// How `rain` is stored, so that wetness is decided on the stored word.
  private let rain: CubeMetric
  private let thresholdWord: UInt16

  /// Why a grid gets no neighbourhood.
  struct Refusal: Error {
    let reason: String
  }

  /// The neighbourhoods of the grid whose cell centres are `latitudes`/`longitudes`
  /// (degrees, any row-major order).
  init(latitudes: [Float], longitudes: [Float], rainStep: Double = Metric.rain.step ?? 0.1) throws(Refusal) {
    let cells = latitudes.count
    guard cells == longitudes.count, cells < Int(Int32.max) else {
      throw Refusal(reason: "the grid has too many cells (\(cells)) to index")
    }
    rain = CubeMetric(
      name: Metric.rain.name, unit: Metric.rain.unit, temporal: Metric.rain.temporal.rawValue,
      scale: rainStep, offset: Metric.rain.offset)
    thresholdWord = rain.quantize(Self.threshold) ?? 10
    let points = (0..<cells).map { UnitVector(latitude: Double(latitudes[$0]), longitude: Double(longitudes[$0])) }
    // Two points within the radius are at most this chord apart, so in the same or adjacent
    // buckets of a lattice this much wider (the margin dwarfs rounding).
    let chord = 2 * sin(Self.radius / (2 * GreatCircle.earthRadius))
    let edge = chord * (1 + 1e-6)
    // Pairs clearly inside or outside by the chord are decided by it; the few in a thin band
    // around the radius by `GreatCircle.distance`, the definition.
    let (inside, outside) = (chord * chord * (1 - 1e-9), chord * chord * (1 + 1e-9))
    let span = Int64((2 / edge).rounded(.up)) + 4
    let half = span / 2
    func bucket(_ coordinate: Double) -> Int64 { Int64((coordinate / edge).rounded(.down)) + half }
    func key(_ x: Int64, _ y: Int64, _ z: Int64) -> Int64 { (z * span + y) * span + x }
    let buckets = points.map { (bucket($0.x), bucket($0.y), bucket($0.z)) }
    let order = (0..<cells).sorted { a, b in
      let (p, q) = (buckets[a], buckets[b])
      return key(p.0, p.1, p.2) < key(q.0, q.1, q.2)
    }
    let keys = order.map { key(buckets[$0].0, buckets[$0].1, buckets[$0].2) }
    func lowerBound(_ wanted: Int64) -> Int {
      var (low, high) = (0, keys.count)
      while low < high {
        let middle = (low + high) / 2
        if keys[middle] < wanted { low = middle + 1 } else { high = middle }
      }
      return low
    }
    var firstRun: [Int32] = [0]
    var runStart: [Int32] = []
    var runEnd: [Int32] = []
    firstRun.reserveCapacity(cells + 1)
    var tests = 0
    var members: [Int32] = []
    for cell in 0..<cells {
      let (point, (bx, by, bz)) = (points[cell], buckets[cell])
      members.removeAll(keepingCapacity: true)
      for dz in -1...1 {
        for dy in -1...1 {
          // The three buckets along x are consecutive in key order.
          var index = lowerBound(key(bx - 1, by + Int64(dy), bz + Int64(dz)))
          let last = key(bx + 1, by + Int64(dy), bz + Int64(dz))
          while index < keys.count, keys[index] <= last {
            let other = order[index]
            index += 1
            tests += 1
            let q = points[other]
            let (dx, dy, dz) = (point.x - q.x, point.y - q.y, point.z - q.z)
            let squared = dx * dx + dy * dy + dz * dz
            let near =
              squared <= inside
              || (squared < outside
                && GreatCircle.distance(
                  latitude1: Double(latitudes[cell]), longitude1: Double(longitudes[cell]),
                  latitude2: Double(latitudes[other]), longitude2: Double(longitudes[other])) <= Self.radius)
            if near { members.append(Int32(other)) }
          }
        }
      }
      guard tests <= Self.testLimit else {
        throw Refusal(
          reason:
            "finding every cell's 25 km neighbours in this \(cells)-cell grid takes more than \(Self.testLimit) distance tests"
        )
      }
      members.sort()
      var start = 0
      while start < members.count {
        var end = start + 1
        while end < members.count, members[end] == members[end - 1] + 1 { end += 1 }
        runStart.append(members[start])
        runEnd.append(members[end - 1] + 1)
        start = end
      }
      guard runStart.count <= Self.runLimit else {
        throw Refusal(
          reason: "the 25 km neighbourhoods of this \(cells)-cell grid take more than \(Self.runLimit) runs of cells")
      }
      firstRun.append(Int32(runStart.count))
    }
    (self.firstRun, self.runStart, self.runEnd) = (firstRun, runStart, runEnd)
  }

  /// The number of cells in cell `cell`'s neighbourhood, itself included.
  func size(of cell: Int) -> Int {
    (Int(firstRun[cell])..<Int(firstRun[cell + 1])).reduce(0) { $0 + Int(runEnd[$1] - runStart[$1]) }
  }

  /// The percentage of each cell's neighbourhood with a wet hour, given the step's `rain`
  /// (mm in the hour, NaN where unknown); NaN where the cell's own amount is unknown.
  func percentages(rain amounts: [Double]) -> [Double] {
    let cells = firstRun.count - 1
    precondition(amounts.count == cells)
    // Counts of wet and of known cells before each index: a run's counts are two
    // subtractions.
    var wet = [Int32](repeating: 0, count: cells + 1)
    var known = [Int32](repeating: 0, count: cells + 1)
    for cell in 0..<cells {
      let amount = amounts[cell]
      let isKnown = !amount.isNaN
      // An amount the cube cannot store fails the publication of `rain` itself; until then
      // it counts by its value.
      let isWet = isKnown && (rain.quantize(amount).map { $0 >= thresholdWord } ?? (amount >= Self.threshold))
      wet[cell + 1] = wet[cell] + (isWet ? 1 : 0)
      known[cell + 1] = known[cell] + (isKnown ? 1 : 0)
    }
    return (0..<cells).map { cell in
      guard !amounts[cell].isNaN else { return .nan }
      var (wetCount, knownCount) = (Int32(0), Int32(0))
      for run in Int(firstRun[cell])..<Int(firstRun[cell + 1]) {
        let (start, end) = (Int(runStart[run]), Int(runEnd[run]))
        wetCount += wet[end] - wet[start]
        knownCount += known[end] - known[start]
      }
      // The cell is known and its own neighbour, so `knownCount` ≥ 1.
      return 100 * Double(wetCount) / Double(knownCount)
    }
  }
}
