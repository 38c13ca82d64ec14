/// A smooth, seeded random field on the plane: value noise on a periodic lattice.
///
/// Weather detail (convective cells, humidity blobs, terrain roughness) needs randomness
/// that is continuous in space so that neighbouring cells look related, and cheap enough
/// to sample thousands of times per output step in a debug build.
struct SmoothNoise: Sendable {
  /// Lattice points per side (2⁵, see `value`); the field repeats after
  /// `period · spacing` kilometres, far more than a regional domain spans.
  private static let period = 32
  private let values: [Double]
  private let spacing: Double

  /// A field whose features are about `spacing` kilometres across.
  init(seed: UInt64, spacing: Double) {
    var generator = SplitMix64(seed: seed)
    values = (0..<(Self.period * Self.period)).map { _ in generator.nextSigned() }
    self.spacing = spacing
  }

  /// The field at a point given in kilometres; values lie in −1…1.
  func value(east: Double, north: Double) -> Double {
    guard east.isFinite, north.isFinite else { return 0 }
    let u = east / spacing
    let v = north / spacing
    let u0 = u.rounded(.down)
    let v0 = v.rounded(.down)
    let fu = Self.fade(u - u0)
    let fv = Self.fade(v - v0)
    // The period is a power of two, so masking the two's-complement index wraps negative
    // coordinates too; the clamp keeps the conversion defined for absurd inputs.
    let mask = Self.period - 1
    let i0 = Int(max(min(u0, 1e15), -1e15)) & mask
    let j0 = Int(max(min(v0, 1e15), -1e15)) & mask
    let i1 = (i0 + 1) & mask
    let j1 = (j0 + 1) & mask
    let south = values[j0 << 5 | i0] * (1 - fu) + values[j0 << 5 | i1] * fu
    let north = values[j1 << 5 | i0] * (1 - fu) + values[j1 << 5 | i1] * fu
    return south * (1 - fv) + north * fv
  }

  /// Hermite fade, so that the field has no creases along lattice lines.
  private static func fade(_ t: Double) -> Double { t * t * (3 - 2 * t) }
}
