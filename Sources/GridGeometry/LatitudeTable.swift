/// A smooth function of latitude, tabulated every 1/32° with its derivative and read back by
/// cubic Hermite interpolation: a map projection's radius or ordinate for the price of a
/// few multiplications instead of a `pow` or a `log`.
///
/// Near a singularity of the function (a pole where the projection runs to infinity, or
/// where a cone's radius has an infinite derivative) the interpolation loses accuracy, so
/// the build checks every interval at its midpoint, where a cubic's error peaks, and keeps
/// only the longest run of intervals within `tolerance` of the function; `value(at:)` is
/// nil outside it, and the caller computes the function itself there.
@usableFromInline
struct LatitudeTable: Sendable {
  /// Nodes every 1/32°: a binary fraction, so that node latitudes are exact. With f in cells
  /// and f⁗ at most a few times f, the interpolation error h⁴·f⁗/384 is about 10⁻¹⁵ of f.
  @inlinable static var nodesPerDegree: Double { 32 }
  /// The largest error, in the function's units (cells), an interval may have to be used.
  static let tolerance = 1e-9

  /// The latitudes the table answers for: [low, high).
  @usableFromInline let low: Double
  @usableFromInline let high: Double
  /// The latitude of node 0.
  @usableFromInline let start: Double
  /// Per node, the value and the derivative times the node spacing, interleaved.
  @usableFromInline let nodes: [Double]

  /// An empty table, which answers for no latitude.
  init() {
    (low, high, start, nodes) = (0, 0, 0, [])
  }

  /// Tabulates `function` (value and derivative per degree) over −90…90.
  init(_ function: (Double) -> (value: Double, derivative: Double)) {
    let step = 1 / Self.nodesPerDegree
    let count = Int(180 * Self.nodesPerDegree) + 1
    var nodes: [Double] = []
    nodes.reserveCapacity(2 * count)
    for k in 0..<count {
      let (value, derivative) = function(-90 + Double(k) * step)
      nodes += [value, derivative * step]
    }
    // The longest run of intervals whose midpoint is within tolerance.
    var best = (first: 0, end: 0)
    var runStart = 0
    let midpoints = nodes.withUnsafeBufferPointer { table in (0..<(count - 1)).map { Self.interpolate(table, $0, 0.5) }
    }
    for k in 0..<(count - 1) {
      let error = abs(midpoints[k] - function(-90 + (Double(k) + 0.5) * step).value)
      if error <= Self.tolerance {
        if k + 1 - runStart > best.end - best.first { best = (runStart, k + 1) }
      } else {
        runStart = k + 1
      }
    }
    start = -90
    low = -90 + Double(best.first) * step
    high = -90 + Double(best.end) * step
    self.nodes = nodes
  }

  /// The function at `latitude`, or nil where the table does not answer (and for NaN).
  @inlinable @inline(__always)
  func value(at latitude: Double) -> Double? {
    guard latitude >= low, latitude < high else { return nil }
    // Non-negative, so truncation is the floor.
    let t = (latitude - start) * Self.nodesPerDegree
    let k = Int(t)
    return nodes.withUnsafeBufferPointer { Self.interpolate($0, k, t - Double(k)) }
  }

  /// The cubic Hermite interpolant between nodes k and k + 1 at fraction u.
  @inlinable @inline(__always)
  static func interpolate(_ nodes: UnsafeBufferPointer<Double>, _ k: Int, _ u: Double) -> Double {
    let p0 = nodes[2 &* k]
    let m0 = nodes[2 &* k &+ 1]
    let p1 = nodes[2 &* k &+ 2]
    let m1 = nodes[2 &* k &+ 3]
    let v = 1 - u
    return v * v * ((1 + 2 * u) * p0 + u * m0) + u * u * ((3 - 2 * u) * p1 - v * m1)
  }
}
