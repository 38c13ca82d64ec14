import Foundation

/// The latitudes of a Gaussian grid's rows: the arcsines of the roots of the Legendre
/// polynomial of degree `count` (twice the rows per hemisphere, ecCodes' `N`).
enum GaussianLatitudes {
  /// The most parallels per hemisphere computed. The cost grows as N² (each of N roots
  /// evaluates a polynomial of degree 2N a few times): a 298-byte message declaring
  /// N = 16,642 for a grid of 4 rows kept the fuzzer's reader busy past its 10 s limit.
  /// No model's regular Gaussian grid comes near it (GFS's T1534 has N = 768, ECMWF's
  /// F1280 1,280), and N = 5,000 takes a fraction of a second.
  static let largestN = 5_000

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
