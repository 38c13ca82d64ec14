/// A smooth function tabulated at evenly spaced nodes with its derivative and read back by
/// cubic Hermite interpolation: a map projection's radius or ordinate for the price of a
/// few multiplications instead of a `pow`, a `log` or an `atan2`.
///
/// Near a singularity of the function (a pole where the projection runs to infinity, or
/// where a cone's radius has an infinite derivative) the interpolation loses accuracy, so
/// the build checks every interval at its midpoint, where a cubic's error peaks, and keeps
/// only the longest run of intervals within `tolerance` of the function. `value(at:)` is
/// nil outside it, and the caller computes the function itself there.
@usableFromInline
struct HermiteTable: Sendable {
  /// The largest error, in the function's units (cells or radians), an interval may have.
  static let tolerance = 1e-9

  /// The arguments the table answers for: [low, high).
  @usableFromInline let low: Double
  @usableFromInline let high: Double
  /// The argument of node 0 and the nodes per unit of argument.
  @usableFromInline let start: Double
  @usableFromInline let nodesPerUnit: Double
  /// Per node, the value and the derivative times the node spacing, interleaved.
  @usableFromInline let nodes: [Double]

  /// An empty table, which answers for no argument.
  init() {
    (low, high, start, nodesPerUnit, nodes) = (0, 0, 0, 1, [])
  }

  /// Tabulates `function` (value and derivative) over `range` with `nodesPerUnit` nodes per
  /// unit of argument. With a binary fraction for the spacing, node arguments are exact.
  init(
    _ range: ClosedRange<Double>, nodesPerUnit: Double, _ function: (Double) -> (value: Double, derivative: Double)
  ) {
    let step = 1 / nodesPerUnit
    let count = Int((range.upperBound - range.lowerBound) * nodesPerUnit) + 1
    var nodes: [Double] = []
    nodes.reserveCapacity(2 * count)
    for k in 0..<count {
      let (value, derivative) = function(range.lowerBound + Double(k) * step)
      nodes += [value, derivative * step]
    }
    // The longest run of intervals whose midpoint is within tolerance.
    let midpoints = nodes.withUnsafeBufferPointer { table in
      (0..<(count - 1)).map { Self.interpolate(table, $0, 0.5) }
    }
    var best = (first: 0, end: 0)
    var runStart = 0
    for k in 0..<(count - 1) {
      let error = abs(midpoints[k] - function(range.lowerBound + (Double(k) + 0.5) * step).value)
      if error <= Self.tolerance {
        if k + 1 - runStart > best.end - best.first { best = (runStart, k + 1) }
      } else {
        runStart = k + 1
      }
    }
    start = range.lowerBound
    self.nodesPerUnit = nodesPerUnit
    low = range.lowerBound + Double(best.first) * step
    high = range.lowerBound + Double(best.end) * step
    self.nodes = nodes
  }

  /// The function at `argument`, or nil where the table does not answer (and for NaN).
  @inlinable @inline(__always)
  func value(at argument: Double) -> Double? {
    guard argument >= low, argument < high else { return nil }
    // Non-negative, so truncation is the floor.
    let t = (argument - start) * nodesPerUnit
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
