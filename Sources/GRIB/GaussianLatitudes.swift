import Foundation

/// The latitudes of a Gaussian grid's rows: the arcsines of the roots of the Legendre
/// polynomial of degree `count` (twice the rows per hemisphere, ecCodes' `N`).
enum GaussianLatitudes {
  /// The `count` Gaussian latitudes in degrees, north to south, found by Newton's method
  /// from the classical first guess cos(π(k + ¾)/(count + ½)), to the last bit.
  static func northToSouth(count: Int) -> [Double] {
    guard count > 0 else { return [] }
    var latitudes = [Double](repeating: 0, count: count)
    let n = Double(count)
    for k in 0..<(count + 1) / 2 {
      var z = cos(Double.pi * (Double(k) + 0.75) / (n + 0.5))
      for _ in 0..<100 {
        // P_count(z) and P_count−1(z) by the three-term recurrence.
        var (p1, p2) = (1.0, 0.0)
        for degree in 1...count {
          let d = Double(degree)
          (p1, p2) = (((2 * d - 1) * z * p1 - (d - 1) * p2) / d, p1)
        }
        let derivative = n * (z * p1 - p2) / (z * z - 1)
        let next = z - p1 / derivative
        let done = abs(next - z) <= 1e-15
        z = next
        if done { break }
      }
      let latitude = asin(z) * 180 / .pi
      latitudes[k] = latitude
      latitudes[count - 1 - k] = -latitude
    }
    return latitudes
  }
}
