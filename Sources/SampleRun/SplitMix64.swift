/// A tiny seeded generator (Steele, Lea and Flood's SplitMix64).
///
/// The sample run must be byte-identical for a seed on every platform, which rules out
/// the system generator; SplitMix64 is small, fast and good enough for noise fields.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform value in −1…1 built from the top 53 bits, so that it is exact in a Double.
  mutating func nextSigned() -> Double {
    Double(next() >> 11) / Double(1 << 53) * 2 - 1
  }
}
