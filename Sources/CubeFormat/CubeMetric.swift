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
  @inlinable
  public func quantize(_ value: Double) -> UInt16? {
    guard !value.isNaN else { return Self.missing }
    let q = ((value - offset) / scale).rounded()
    guard q >= 0, q <= 65534 else { return nil }
    return UInt16(q)
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
