import CVectorKernels

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

  /// Quantizes `values` into `words` (as many), as `quantize(_:)` does each value, with
  /// missing for NaN and for every value it cannot represent; returns the index of the
  /// first such value that is not NaN, nil when every value fits.
  public func quantize(_ values: UnsafeBufferPointer<Double>, into words: UnsafeMutablePointer<UInt16>) -> Int? {
    quantize(values, into: words, checking: -Double.infinity...Double.infinity).unrepresentable
  }

  /// Quantizes `values` into `words` as `quantize(_:into:)` does, and tells, from the same
  /// pass, whether every value is NaN or a finite number within `plausible`: a caller that
  /// guards the values against a range before it stores them (ingest's last check of a
  /// derived metric) needs to read them only once when they pass, as nearly all do, rather
  /// than once to check them and again, from further down the memory hierarchy, to store
  /// them. When some value does not pass, the words are those of the values as given, and
  /// the caller guards the values and stores them again.
  ///
  /// The CPU's widest vector kernel (`CVectorKernels`) does the leading values, and
  /// `quantizeInSwift` the rest, or all of them on a CPU without one.
  public func quantize(
    _ values: UnsafeBufferPointer<Double>, into words: UnsafeMutablePointer<UInt16>,
    checking plausible: ClosedRange<Double>
  ) -> (unrepresentable: Int?, plausible: Bool) {
    quantize(values, into: words, checking: plausible, level: nwp_vector_level())
  }

  /// `quantize(_:into:checking:)` with the vector kernel capped at `level` (0: none), so
  /// that tests can compare every level's words.
  func quantize(
    _ values: UnsafeBufferPointer<Double>, into words: UnsafeMutablePointer<UInt16>,
    checking plausible: ClosedRange<Double>, level: Int32
  ) -> (unrepresentable: Int?, plausible: Bool) {
    var unfit = false
    var outside = false
    let done =
      values.baseAddress.map {
        nwp_quantize(
          $0, words, values.count, offset, scale, plausible.lowerBound, plausible.upperBound, level, &unfit, &outside)
      } ?? 0
    let rest = quantizeInSwift(
      UnsafeBufferPointer(rebasing: values[done...]), into: words + done, checking: plausible)
    let passed = rest.plausible && !outside
    guard unfit || rest.unrepresentable else { return (nil, passed) }
    // Rare: an unrepresentable value ends the ingest, so finding it again costs nothing.
    return (values.firstIndex { quantize($0) == nil }, passed)
  }

  /// The portable form of `quantize(_:into:checking:)`: whether some value that is not NaN
  /// is unrepresentable, and whether all are plausible.
  ///
  /// Eight values to a vector, without a branch or a checked conversion per value (the
  /// compiler left the scalar form of this loop scalar): the ratio, clamped to 0 when
  /// negative or out of range, is below 2^52, so adding 2^52 rounds it to an integer, to
  /// nearest with ties to even, exactly, and the integer's bits are the low bits of the sum.
  /// The fraction left, exact too, is one half only at a tie the sum rounded down, to
  /// which rounding away from zero adds one; a tie rounded up is right already. The word is
  /// the one `rounded()` gives, bit for bit.
  ///
  /// The comparisons' masks are used as their lanes' bits (all ones where true), with
  /// bitwise selects: combined as `SIMDMask`s, the compiler narrowed and widened them
  /// between every step, and the loop took 60 % longer.
  private func quantizeInSwift(
    _ values: UnsafeBufferPointer<Double>, into words: UnsafeMutablePointer<UInt16>,
    checking plausible: ClosedRange<Double>
  ) -> (unrepresentable: Bool, plausible: Bool) {
    typealias Values = SIMD8<Double>
    typealias Bits = SIMD8<UInt64>
    @inline(__always) func lanes(_ mask: SIMDMask<SIMD8<Int64>>) -> Bits { unsafeBitCast(mask, to: Bits.self) }
    @inline(__always) func bits(_ values: Values) -> Bits { unsafeBitCast(values, to: Bits.self) }
    let magic = Values(repeating: 4_503_599_627_370_496.0)  // 2^52: one unit in the last place is 1
    let offset = Values(repeating: offset)
    let scale = Values(repeating: scale)
    let lowest = Values(repeating: -0.5)
    let highest = Values(repeating: 65534.5)
    let half = Values(repeating: 0.5)
    let missing = Bits(repeating: UInt64(Self.missing))
    let (below, above) = (Values(repeating: plausible.lowerBound), Values(repeating: plausible.upperBound))
    let infinity = Values(repeating: .infinity)
    var unrepresentable = Bits.zero
    var implausible = Bits.zero
    let whole = values.count / Values.scalarCount * Values.scalarCount
    if let base = values.baseAddress {
      let input = UnsafeRawPointer(base)
      let output = UnsafeMutableRawPointer(words)
      for index in stride(from: 0, to: whole, by: Values.scalarCount) {
        let value = input.loadUnaligned(fromByteOffset: index &* 8, as: Values.self)
        let ratio = (value - offset) / scale
        // NaN fails both comparisons, like every ratio that rounds outside 0…65534.
        let fits = lanes(ratio .> lowest) & lanes(ratio .< highest)
        let clamped = unsafeBitCast(bits(ratio) & fits & lanes(ratio .> .zero), to: Values.self)
        let sum = clamped + magic
        let fraction: Values = clamped - (sum - magic)
        let tie = lanes(fraction .== half) & Bits(repeating: 1)
        let word = ((bits(sum) &+ tie) & fits) | (missing & ~fits)
        output.storeBytes(of: SIMD8<UInt16>(truncatingIfNeeded: word), toByteOffset: index &* 2, as: SIMD8<UInt16>.self)
        unrepresentable |= ~fits & lanes(value .== value)
        // NaN fails every comparison; ±∞ is outside even an unbounded range.
        implausible |=
          lanes(value .< below) | lanes(value .> above) | lanes(value .== infinity) | lanes(value .== -infinity)
      }
    }
    var tailUnrepresentable = false
    var tailImplausible = false
    for index in whole..<values.count {
      let value = values[index]
      let word = quantize(value)
      words[index] = word ?? Self.missing
      tailUnrepresentable = tailUnrepresentable || word == nil
      tailImplausible =
        tailImplausible || value < plausible.lowerBound || value > plausible.upperBound
        || value.magnitude == .infinity
    }
    let passed = implausible == .zero && !tailImplausible
    return (unrepresentable != .zero || tailUnrepresentable, passed)
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
