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

  /// The places' latitudes and longitudes in radians, by place index.
  private let latitudes: [Double]
  private let longitudes: [Double]
  /// The places of cell `c` are `members[cellStarts[c]..<cellStarts[c + 1]]`.
  private let cellStarts: [Int]
  private let members: [Int]

  /// The grid of places at `coordinates` (degrees), indexed by their position there.
  init(coordinates: [(latitude: Double, longitude: Double)]) {
    latitudes = coordinates.map { $0.latitude * .pi / 180 }
    longitudes = coordinates.map { $0.longitude * .pi / 180 }
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
    var radius = 0.5 * .pi / 180
    while true {
      if radius >= .pi { return nearest(φ, λ, among: 0..<(Self.rows * Self.columns)) }
      if let found = nearest(φ, λ, within: radius), found.distance <= radius { return found }
      radius *= 2
    }
  }

  /// The nearest place in the cells covering the bounding box of the cap of `radius`
  /// around (φ, λ); nil when those cells hold no place.
  private func nearest(_ φ: Double, _ λ: Double, within radius: Double) -> (index: Int, distance: Double)? {
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
        best = closer(best, nearest(φ, λ, among: cell...cell))
      }
    }
    return best
  }

  /// The nearest place in the cells `cells`.
  private func nearest(_ φ: Double, _ λ: Double, among cells: some Sequence<Int>) -> (index: Int, distance: Double)? {
    var best: (index: Int, distance: Double)?
    for cell in cells {
      for member in members[cellStarts[cell]..<cellStarts[cell + 1]] {
        let distance = Self.distance(φ, λ, latitudes[member], longitudes[member])
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

  /// The great-circle angle between two points (radians in, radians out), by the haversine
  /// formula, which stays accurate for the short distances that matter here.
  static func distance(_ φ1: Double, _ λ1: Double, _ φ2: Double, _ λ2: Double) -> Double {
    let dφ = sin((φ2 - φ1) / 2)
    let dλ = sin((λ2 - λ1) / 2)
    let a = dφ * dφ + cos(φ1) * cos(φ2) * dλ * dλ
    return 2 * asin(min(1, a.squareRoot()))
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
