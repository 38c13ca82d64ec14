/// A tiny seeded generator (Steele, Lea and Flood's SplitMix64).
///
/// The sample run must be byte-identical for a seed on every platform, which rules out
/// the system generator; SplitMix64 is small, fast and good enough for noise fields. The
/// benchmark and the tests draw their random points from it too, so that runs repeat.
public struct SplitMix64: Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform value in 0…1 (excluding 1) from the top 53 bits, exact in a Double.
  public mutating func unit() -> Double {
    Double(next() >> 11) / Double(1 << 53)
  }

  /// A uniform value in −1…1.
  mutating func nextSigned() -> Double {
    unit() * 2 - 1
  }
}
