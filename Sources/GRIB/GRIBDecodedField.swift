/// A message's values decoded whole once, kept compact so that later reads of any range of
/// its points need no decode: for a field whose packing cannot be decoded by ranges
/// (complex packing as GFS, NAM and HRRR write it, JPEG 2000, PNG, CCSDS).
///
/// Every such packing codes a value as an unsigned integer `X` and decodes it as
/// `(X · 2^E + R) · 10^−D` (ecCodes' common form). The field is kept as those integers,
/// 16 bits each when they fit and 32 otherwise, recovered from the decoded values and
/// checked: a value is kept as an integer only if the formula gives it back bit for bit,
/// so a read equals the decode exactly by construction. A field that fails the check
/// anywhere, or whose packing has no such form, keeps its doubles.
public struct GRIBDecodedField: Sendable {
  enum Storage: Sendable {
    /// Integers with `UInt16.max` for a missing point.
    case narrow([UInt16])
    /// Integers with `UInt32.max` for a missing point.
    case wide([UInt32])
    case doubles([Double])
  }

  let storage: Storage
  let reference: Double
  let binaryScale: Double
  let decimalScale: Double
  /// The field's points.
  public let count: Int

  /// The bytes the field holds.
  public var byteCount: Int {
    switch storage {
    case .narrow(let codes): codes.count * 2
    case .wide(let codes): codes.count * 4
    case .doubles(let values): values.count * 8
    }
  }

  /// Keeps `values`, decoded from a field whose scaling is `scale` (nil: unknown, the
  /// doubles are kept).
  init(values: [Double], scale: (reference: Double, binaryScale: Double, decimalScale: Double)?) {
    count = values.count
    (reference, binaryScale, decimalScale) = scale ?? (0, 1, 1)
    storage = scale.flatMap { Self.codes(of: values, $0) } ?? .doubles(values)
  }

  /// The integers that give `values` back exactly, nil when some value has none.
  private static func codes(
    of values: [Double], _ scale: (reference: Double, binaryScale: Double, decimalScale: Double)
  ) -> Storage? {
    let (r, s, d) = scale
    guard s > 0, d > 0, s.isFinite, d.isFinite, r.isFinite else { return nil }
    var codes = [UInt32](repeating: 0, count: values.count)
    var largest: UInt32 = 0
    for (k, value) in values.enumerated() {
      if value.isNaN {
        codes[k] = .max
        continue
      }
      let estimate = ((value / d - r) / s).rounded()
      guard estimate >= 0, estimate < Double(UInt32.max) else { return nil }
      // The nearest integer may miss by one where the division rounds: try its neighbours.
      let code: Double
      if (estimate * s + r) * d == value {
        code = estimate
      } else if estimate >= 1, ((estimate - 1) * s + r) * d == value {
        code = estimate - 1
      } else if ((estimate + 1) * s + r) * d == value {
        code = estimate + 1
      } else {
        return nil
      }
      guard code < Double(UInt32.max) else { return nil }
      codes[k] = UInt32(code)
      largest = Swift.max(largest, codes[k])
    }
    guard largest < UInt32(UInt16.max) else { return .wide(codes) }
    return .narrow(codes.map { $0 == .max ? .max : UInt16($0) })
  }

  /// The values at the points `range` (inside `0..<count`) into `values`, which holds
  /// `range.count`.
  public func read(_ range: Range<Int>, into values: UnsafeMutableBufferPointer<Double>) {
    guard range.lowerBound >= 0, range.upperBound <= count, values.count >= range.count else { return }
    let (r, s, d) = (reference, binaryScale, decimalScale)
    switch storage {
    case .narrow(let codes):
      for k in 0..<range.count {
        let code = codes[range.lowerBound + k]
        values[k] = code == .max ? .nan : (Double(code) * s + r) * d
      }
    case .wide(let codes):
      for k in 0..<range.count {
        let code = codes[range.lowerBound + k]
        values[k] = code == .max ? .nan : (Double(code) * s + r) * d
      }
    case .doubles(let all):
      for k in 0..<range.count { values[k] = all[range.lowerBound + k] }
    }
  }
}

extension GRIBFile {
  /// `message` decoded whole by ecCodes, once, and kept compact (`GRIBDecodedField`).
  public func decodedField(of message: GRIBMessage) throws(GRIBError) -> GRIBDecodedField {
    let values = try values(of: message)
    let scale = message.edition == 2 ? sections(of: message)?[5].flatMap(GRIBSimplePacking.scale(of:)) : nil
    return GRIBDecodedField(values: values, scale: scale)
  }

  /// The bytes `decodedField(of:)` keeps for `message` when its integers fit 16 bits as its
  /// bits per value say (section 5's octet 20, the same place in every template that has
  /// one), 32 bits for wider ones, and its doubles when the message tells nothing.
  public func compactByteCount(of message: GRIBMessage) -> Int {
    let representation = message.edition == 2 ? sections(of: message)?[5] : nil
    let bits = representation.flatMap { $0.count > 19 ? Int($0[19]) : nil }
    return message.numberOfDataPoints * (bits.map { $0 <= 16 ? 2 : 4 } ?? 8)
  }
}
