import Foundation

/// The places in one-degree latitude/longitude cells, for the nearest place to a point
/// without a scan of every place.
///
/// A search looks at the cells within a radius of the point and doubles the radius until
/// the nearest place found lies within it: every place within the radius is in the cells
/// looked at (the cells cover the radius's exact latitude/longitude bounding box on the
/// sphere), so none nearer can have been missed.
struct PlaceGrid: Sendable {
  private static let rows = 180
  private static let columns = 360

  /// The places as unit vectors (x, y, z), by place index. A search compares squared
  /// chords between unit vectors, which order places as their great-circle distances do
  /// and cost a few multiplications where the haversine formula took four sines and cosines
  /// and an arcsine per candidate; the angle is computed once, for the place found.
  private let vectors: [SIMD3<Double>]
  /// The places of cell `c` are `members[cellStarts[c]..<cellStarts[c + 1]]`.
  private let cellStarts: [Int]
  private let members: [Int]

  /// The grid of places at `coordinates` (degrees), indexed by their position there.
  init(coordinates: [(latitude: Double, longitude: Double)]) {
    vectors = coordinates.map { Self.vector($0.latitude * .pi / 180, $0.longitude * .pi / 180) }
    let cells = coordinates.map { Self.cell(row: Self.row($0.latitude), column: Self.column($0.longitude)) }
    var counts = [Int](repeating: 0, count: Self.rows * Self.columns + 1)
    for cell in cells { counts[cell + 1] += 1 }
    for index in 1..<counts.count { counts[index] += counts[index - 1] }
    cellStarts = counts
    var next = counts
    var members = [Int](repeating: 0, count: coordinates.count)
    for (place, cell) in cells.enumerated() {
      members[next[cell]] = place
      next[cell] += 1
    }
    self.members = members
  }

  /// The index of the place nearest to the point, and its angular distance in radians; nil
  /// when there are no places.
  func nearest(latitude: Double, longitude: Double) -> (index: Int, distance: Double)? {
    guard !members.isEmpty, latitude.isFinite, longitude.isFinite else { return nil }
    let φ = max(-90, min(90, latitude)) * .pi / 180
    // Any longitude names a meridian; remainder brings it into -180…180 before it is an index.
    let λ = remainder(longitude, 360) * .pi / 180
    let point = Self.vector(φ, λ)
    var radius = 0.5 * .pi / 180
    while true {
      if radius >= .pi { return Self.angle(nearest(point, among: 0..<(Self.rows * Self.columns))) }
      if let found = Self.angle(nearest(φ, λ, point, within: radius)), found.distance <= radius { return found }
      radius *= 2
    }
  }

  /// The unit vector of latitude φ and longitude λ (radians).
  private static func vector(_ φ: Double, _ λ: Double) -> SIMD3<Double> {
    SIMD3(cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
  }

  /// A place found with its squared chord, with the chord turned into the great-circle angle.
  private static func angle(_ found: (index: Int, distance: Double)?) -> (index: Int, distance: Double)? {
    found.map { ($0.index, 2 * asin(min(1, $0.distance.squareRoot() / 2))) }
  }

  /// The nearest place in the cells covering the bounding box of the cap of `radius`
  /// around (φ, λ), whose unit vector is `point`, with its squared chord; nil when those
  /// cells hold no place.
  private func nearest(
    _ φ: Double, _ λ: Double, _ point: SIMD3<Double>, within radius: Double
  ) -> (index: Int, distance: Double)? {
    // A hair wider than exact, so that rounding never drops a cell on the boundary.
    let slack = 1e-9
    let low = (φ - radius - slack) * 180 / .pi
    let high = (φ + radius + slack) * 180 / .pi
    let rows = Self.row(low)...Self.row(high)
    var columns: ClosedRange<Int> = 0...(Self.columns - 1)
    let sine = sin(radius) / cos(φ)
    if low > -90, high < 90, sine < 1 {
      // The cap's widest longitude, at any of its latitudes.
      let width = (asin(sine) + slack) * 180 / .pi
      let west = Int((λ * 180 / .pi - width + 180).rounded(.down))
      let east = Int((λ * 180 / .pi + width + 180).rounded(.down))
      if east - west + 1 < Self.columns { columns = west...east }
    }
    var best: (index: Int, distance: Double)?
    for row in rows {
      for column in columns {
        // Columns past either edge wrap round the antimeridian.
        let wrapped = ((column % Self.columns) + Self.columns) % Self.columns
        let cell = Self.cell(row: row, column: wrapped)
        best = closer(best, nearest(point, among: cell...cell))
      }
    }
    return best
  }

  /// The nearest place to the unit vector `point` in the cells `cells`, with its squared
  /// chord (the difference is formed first, which keeps short chords accurate).
  private func nearest(_ point: SIMD3<Double>, among cells: some Sequence<Int>) -> (index: Int, distance: Double)? {
    var best: (index: Int, distance: Double)?
    for cell in cells {
      for member in members[cellStarts[cell]..<cellStarts[cell + 1]] {
        let difference = vectors[member] - point
        let distance = (difference * difference).sum()
        if best.map({ distance < $0.distance || (distance == $0.distance && member < $0.index) }) ?? true {
          best = (member, distance)
        }
      }
    }
    return best
  }

  private func closer(
    _ left: (index: Int, distance: Double)?, _ right: (index: Int, distance: Double)?
  ) -> (index: Int, distance: Double)? {
    guard let left else { return right }
    guard let right else { return left }
    return right.distance < left.distance || (right.distance == left.distance && right.index < left.index)
      ? right : left
  }

  private static func row(_ latitude: Double) -> Int {
    guard latitude.isFinite else { return 0 }
    return max(0, min(rows - 1, Int((max(-90, min(90, latitude)) + 90).rounded(.down))))
  }

  private static func column(_ longitude: Double) -> Int {
    guard longitude.isFinite else { return 0 }
    let shifted = (remainder(longitude, 360) + 180).rounded(.down)
    return ((Int(shifted) % columns) + columns) % columns
  }

  private static func cell(row: Int, column: Int) -> Int { row * columns + column }
}
