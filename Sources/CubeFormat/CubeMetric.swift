/// One entry of a cube's metric table: how its 16-bit values decode.
public struct CubeMetric: Sendable, Equatable {
  /// The metric's name (at most 23 UTF-8 bytes).
  public var name: String
  /// Its unit (at most 15 UTF-8 bytes).
  public var unit: String
  /// How it behaves in time: 0 instantaneous (linear between steps), 1 hourly amount over
  /// the interval ending at a step (constant over that interval).
  public var temporal: UInt32
  /// Value of one quantization step.
  public var scale: Double
  /// Value of q = 0.
  public var offset: Double

  /// The stored word for a missing value.
  public static let missing: UInt16 = 0xFFFF

  public init(name: String, unit: String, temporal: UInt32, scale: Double, offset: Double) {
    self.name = name
    self.unit = unit
    self.temporal = temporal
    self.scale = scale
    self.offset = offset
  }

  /// The 16-bit word for `value`: `missing` for NaN, nil when the value cannot be
  /// represented (a silently clamped number would be a wrong number).
  ///
  /// The word is `((value − offset) / scale).rounded()` (halves away from zero), in 0…65534.
  /// It is computed without libm's `round`, a call per value that was a fifth of the cost
  /// of writing a cube, and without a branch on the fraction, which a CPU mispredicts half
  /// the time: the ratio's bounds are checked first, so that truncating it is exact; the
  /// fraction left is exact too, and so is twice it, which truncates to 1 exactly when the
  /// fraction is one half or more. The word is the one `rounded()` gives, bit for bit.
  @inlinable
  public func quantize(_ value: Double) -> UInt16? {
    guard !value.isNaN else { return Self.missing }
    let ratio = (value - offset) / scale
    // `rounded()` makes −0.5 −1 and 65534.5 65535, both out of range; everything between
    // rounds into 0…65534 (−0.4… to −0, which is 0).
    guard ratio > -0.5, ratio < 65534.5 else { return nil }
    let whole = Int(ratio)
    let up = Int((ratio - Double(whole)) * 2)
    return UInt16(truncatingIfNeeded: whole + up)
  }

  /// The value of a stored word, nil when missing.
  @inlinable
  public func decode(_ word: UInt16) -> Double? {
    word == Self.missing ? nil : offset + scale * Double(word)
  }

  /// The smallest and largest representable values. A metric outside `CubeLimits` (never
  /// one a reader returns) whose bounds are not ordered numbers gets −∞…∞, not a trap.
  public var range: ClosedRange<Double> {
    let top = offset + scale * Double(CubeLimits.largestWord)
    guard offset <= top else { return -Double.infinity...Double.infinity }
    return offset...top
  }
}
