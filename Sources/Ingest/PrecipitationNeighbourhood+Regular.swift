import Foundation
import GridGeometry

extension PrecipitationNeighbourhood {
  /// A regular latitude/longitude grid, proved cell by cell: every row at one latitude,
  /// strictly monotone from row to row, at most 90° either side, and every row with the
  /// same longitudes, evenly spaced to within `deviation`. Its neighbourhoods need no
  /// unit vector. The haversine of two cells depends on the two rows and on the
  /// longitude difference alone, and grows with the difference folded into 0…180°, so
  /// the cells of row k within the radius of a cell of row j are the cells at the column
  /// offsets whose difference is under a threshold that depends on j and k only: the
  /// same offsets for every cell of the row, across the seam of a global grid as
  /// elsewhere. Offsets too close to the threshold to be told by bounds are decided cell
  /// by cell by the definition.
  struct RegularGrid {
    let width: Int
    let height: Int
    private let latitudes: [Float]
    private let longitudes: [Float]
    /// Row 0's first longitude and the spacing of the columns, in degrees.
    private let west: Double
    private let spacing: Double
    /// The largest distance of a column's longitude from `west + column * spacing`.
    private let deviation: Double

    /// The largest deviation from even spacing, as a share of the spacing, that a grid
    /// may have: beyond it the offsets near the threshold are too many to test.
    static let tolerance = 0.01

    /// The grid, or nil when it is not regular.
    init?(latitudes: [Float], longitudes: [Float], width: Int, height: Int) {
      for row in 0..<height {
        let start = row * width
        let latitude = latitudes[start]
        guard abs(latitude) <= 90 else { return nil }
        if row > 0 {
          let (here, before) = (Double(latitude), Double(latitudes[start - width]))
          let previous = row > 1 ? Double(latitudes[start - 2 * width]) : nil
          guard here != before, previous.map({ ($0 < before) == (before < here) }) ?? true else { return nil }
        }
        for column in 0..<width
        where latitudes[start + column] != latitude || longitudes[start + column] != longitudes[column] {
          return nil
        }
      }
      let west = Double(longitudes[0])
      let spacing = width > 1 ? (Double(longitudes[width - 1]) - west) / Double(width - 1) : 0
      var deviation = 0.0
      for column in 0..<width {
        deviation = Swift.max(deviation, abs(Double(longitudes[column]) - (west + Double(column) * spacing)))
      }
      guard deviation <= Self.tolerance * abs(spacing) || width == 1 else { return nil }
      (self.width, self.height, self.latitudes, self.longitudes) = (width, height, latitudes, longitudes)
      (self.west, self.spacing, self.deviation) = (west, spacing, deviation)
    }

    /// The haversine term sin²(θ/2) of the radius's angle θ, and the margin either side of it
    /// within which a pair is decided by `GreatCircle.distance` itself: far wider than the
    /// rounding of either computation, so that a pair outside it is on the same side of the
    /// radius by the definition.
    static let haversine = pow(sin(radius / (2 * GreatCircle.earthRadius)), 2)
    static let inside = haversine * (1 - 1e-9)
    static let outside = haversine * (1 + 1e-9)

    /// Every row's reach and segments, or nil when they would be more than `limit`.
    func setUp(limit: Int) -> [RowSetUp]? {
      // For each column offset o, sin²(o·spacing/2) and a bound on how far a pair's own
      // term can be from it: the longitudes are within 2·deviation of o·spacing apart
      // (and a little more for rounding), η in radians, and
      // |sin²(x/2) − sin²(y/2)| = |sin((x−y)/2)|·|sin((x+y)/2)| ≤ η/2 · (|sin x| + η/2).
      let eta = (2 * deviation + 1e-9) * .pi / 180
      var terms = [Double](repeating: 0, count: width)
      var slacks = [Double](repeating: 0, count: width)
      for offset in 0..<width {
        let angle = Double(offset) * spacing * .pi / 180
        terms[offset] = pow(sin(angle / 2), 2)
        slacks[offset] = eta / 2 * (abs(sin(angle)) + eta / 2) + 1e-15
      }
      var setUps: [RowSetUp] = []
      setUps.reserveCapacity(height)
      var total = 0
      var classes = [Class](repeating: .outside, count: width)
      for row in 0..<height {
        var builder = SegmentBuilder()
        let reached = reach(of: row)
        for other in reached {
          classify(row: row, other: other, terms: terms, slacks: slacks, into: &classes)
          add(row: row, other: other, classes: classes, to: &builder)
        }
        total += builder.segments.count
        guard total <= limit else { return nil }
        setUps.append(
          RowSetUp(lower: reached.lowerBound, upper: reached.upperBound, swept: [], segments: builder.segments))
      }
      return setUps
    }

    /// Where a column offset lies for a pair of rows: every pair at that offset surely
    /// within the radius, surely beyond it, or to be decided pair by pair.
    enum Class {
      case inside
      case outside
      case border
    }

    /// The rows that row `row` reaches: those whose cell in the same column (longitude
    /// difference zero, the nearest) is within the radius by the definition. The rows'
    /// latitudes are monotone, so the search stops at the first row surely beyond it.
    private func reach(of row: Int) -> ClosedRange<Int> {
      func distance(_ other: Int) -> Double {
        GreatCircle.distance(
          latitude1: Double(latitudes[row * width]), longitude1: Double(longitudes[0]),
          latitude2: Double(latitudes[other * width]), longitude2: Double(longitudes[0]))
      }
      let beyond = radius * (1 + 1e-9)
      var (lower, upper) = (row, row)
      var other = row - 1
      while other >= 0 {
        let d = distance(other)
        guard d <= beyond else { break }
        if d <= radius { lower = other }
        other -= 1
      }
      other = row + 1
      while other < height {
        let d = distance(other)
        guard d <= beyond else { break }
        if d <= radius { upper = other }
        other += 1
      }
      return lower...upper
    }

    /// Each column offset's class for the cells of `row` and of `other`.
    private func classify(row: Int, other: Int, terms: [Double], slacks: [Double], into classes: inout [Class]) {
      let (phi1, phi2) = (Double(latitudes[row * width]) * .pi / 180, Double(latitudes[other * width]) * .pi / 180)
      let latitudeTerm = pow(sin((phi2 - phi1) / 2), 2)
      let product = cos(phi1) * cos(phi2)
      for offset in 0..<width {
        let (term, slack) = (terms[offset], slacks[offset])
        if latitudeTerm + product * (term + slack) <= Self.inside {
          classes[offset] = .inside
        } else if latitudeTerm + product * (term - slack) >= Self.outside {
          classes[offset] = .outside
        } else {
          classes[offset] = .border
        }
      }
    }

    /// The segments of the pair of rows: each run of inside offsets o…p is two segments
    /// (offsets o…p and −p…−o) or, from offset 0, one; each border offset is decided cell
    /// by cell.
    private func add(row: Int, other: Int, classes: [Class], to builder: inout SegmentBuilder) {
      var offset = 0
      while offset < width {
        guard classes[offset] == .inside else {
          offset += 1
          continue
        }
        let first = offset
        while offset + 1 < width && classes[offset + 1] == .inside { offset += 1 }
        let last = offset
        // Every cell's clipped run is non-empty: the cells whose run would fall off the
        // row are left out of the segment.
        if first == 0 {
          builder.append(
            Segment(other: Int32(other), first: 0, end: Int32(width), lower: Int32(-last), upper: Int32(last + 1)))
        } else {
          builder.append(
            Segment(
              other: Int32(other), first: 0, end: Int32(width - first), lower: Int32(first), upper: Int32(last + 1)))
          builder.append(
            Segment(
              other: Int32(other), first: Int32(first), end: Int32(width), lower: Int32(-last), upper: Int32(1 - first))
          )
        }
        offset += 1
      }
      for offset in 0..<width where classes[offset] == .border {
        for column in 0..<width {
          for target in offset == 0 ? [column] : [column - offset, column + offset] where target >= 0 && target < width
          {
            guard isWithin(row * width + column, other * width + target, latitudes: latitudes, longitudes: longitudes)
            else { continue }
            builder.add(other: other, column: column, lower: target, upper: target + 1)
          }
        }
      }
    }
  }
}
