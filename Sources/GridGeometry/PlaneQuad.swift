/// One quad of a grid on a plane (four neighbouring cells' plane coordinates), and the
/// inverse of its bilinear map: the fractional position of a plane point within the quad.
struct PlaneQuad {
  let x00: Double
  let x10: Double
  let x01: Double
  let x11: Double
  let y00: Double
  let y10: Double
  let y01: Double
  let y11: Double

  /// The quad whose south-west corner is cell `southWest` of a grid `width` cells wide.
  init(planeX: [Double], planeY: [Double], southWest: Int, width: Int) {
    self.init(southWest: southWest, width: width) { (planeX[$0], planeY[$0]) }
  }

  /// The quad whose south-west corner is cell `southWest`, each corner's plane position
  /// from `position`.
  init(southWest: Int, width: Int, position: (Int) -> (x: Double, y: Double)) {
    let (a, b, c, d) = (
      position(southWest), position(southWest + 1), position(southWest + width), position(southWest + width + 1)
    )
    (x00, x10, x01, x11) = (a.x, b.x, c.x, d.x)
    (y00, y10, y01, y11) = (a.y, b.y, c.y, d.y)
  }

  /// Newton's method on the bilinear map from `start`; (s, t) may fall outside [0, 1] when
  /// the point is outside the quad.
  func invert(x: Double, y: Double, start: (Double, Double) = (0.5, 0.5)) -> (Double, Double) {
    var (s, t) = start
    for _ in 0..<10 {
      let fx = (1 - s) * (1 - t) * x00 + s * (1 - t) * x10 + (1 - s) * t * x01 + s * t * x11 - x
      let fy = (1 - s) * (1 - t) * y00 + s * (1 - t) * y10 + (1 - s) * t * y01 + s * t * y11 - y
      let dxs = (1 - t) * (x10 - x00) + t * (x11 - x01)
      let dys = (1 - t) * (y10 - y00) + t * (y11 - y01)
      let dxt = (1 - s) * (x01 - x00) + s * (x11 - x10)
      let dyt = (1 - s) * (y01 - y00) + s * (y11 - y10)
      let determinant = dxs * dyt - dxt * dys
      guard determinant != 0 else { break }
      let ds = (fx * dyt - fy * dxt) / determinant
      let dt = (fy * dxs - fx * dys) / determinant
      s -= ds
      t -= dt
      if abs(ds) < 1e-12, abs(dt) < 1e-12 { break }
    }
    return (s, t)
  }
}
