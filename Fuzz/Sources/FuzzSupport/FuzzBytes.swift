/// Reads typed values off the front of a fuzz input. Past the end every read gives zero,
/// so that a short input is still a complete (if dull) case rather than a rejected one.
public struct FuzzBytes {
  private let bytes: [UInt8]
  private var position = 0

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Bytes not read yet.
  public var remaining: Int { bytes.count - position }

  /// The next byte.
  public mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// The next `count` bytes as a little-endian unsigned integer.
  public mutating func unsigned(_ count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<count { value |= UInt64(byte()) << (8 * UInt64(index)) }
    return value
  }

  /// The next two bytes, little-endian.
  public mutating func uint16() -> UInt16 { UInt16(truncatingIfNeeded: unsigned(2)) }

  /// The next four bytes as a float's bit pattern: any float, NaNs and infinities included.
  public mutating func float() -> Float { Float(bitPattern: UInt32(truncatingIfNeeded: unsigned(4))) }

  /// The next eight bytes as a double's bit pattern.
  public mutating func double() -> Double { Double(bitPattern: unsigned(8)) }

  /// A value in `range` from the next two bytes: mostly ordinary numbers, so that the
  /// fuzzer also explores plausible inputs and not only bit patterns.
  public mutating func scaled(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * Double(uint16()) / Double(UInt16.max)
  }
}
