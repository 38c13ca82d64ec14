/// The layout of an edition 2 field packed by simple packing (data representation
/// template 5.0, `grid_simple`), read from its sections' bytes, so that any range of its
/// points can be decoded without decoding the others.
///
/// Simple packing stores each coded value as an unsigned integer `X` of `bits` bits, one
/// after the other; the value is `(X · 2^E + R) · 10^−D`. Points a bitmap (section 6)
/// leaves out have no coded value: the coded value of point `p` is the one numbered by
/// the set bits before `p`. A range of points is therefore a range of the packed bits,
/// found after counting the bitmap's bits before it.
///
/// The arithmetic is ecCodes' own (`data_simple_packing`, 2.28): the same scale factors
/// computed the same way (`codes_power`) and the same operations in the same order, so a
/// decoded value equals ecCodes' bit for bit (`GRIBValuesTests` compares every point of
/// every simple-packed sample and generated field).
struct GRIBSimplePacking {
  /// `R`, the reference value (an IEEE single in section 5).
  let reference: Double
  /// `2^E` and `10^−D`.
  let binaryScale: Double
  let decimalScale: Double
  /// Bits per coded value; 0 for a constant field, every point `R`.
  let bits: Int
  /// The points of the grid and the values coded (fewer when a bitmap leaves some out).
  let points: Int
  let codedValues: Int
  /// The bitmap's bytes (one bit per point, most significant first), nil without a bitmap.
  let bitmap: UnsafeRawBufferPointer?
  /// The packed values (section 7 after its 5-byte header).
  let data: UnsafeRawBufferPointer

  /// The packing of the field whose sections 5, 6 and 7 are `sections` (indexed by
  /// section number, over the file's `bytes`), with `points` grid points; nil when the
  /// field is not simple-packed as this decoder reads it (another template, a predefined
  /// bitmap, more than 32 bits per value, or counts that disagree), which ecCodes then
  /// decodes whole.
  init?(sections: [Int: UnsafeRawBufferPointer], points: Int) {
    guard let representation = sections[5], let bitmapSection = sections[6],
      bitmapSection.count >= 6, let dataSection = sections[7], dataSection.count >= 5
    else { return nil }
    guard let scale = Self.scale(of: representation), Self.unsigned(representation, 10, 2) == 0 else { return nil }
    let bits = Int(representation[19])
    guard bits <= 32 else { return nil }
    let coded = Self.unsigned(representation, 6, 4)
    (reference, binaryScale, decimalScale) = scale
    self.bits = bits
    self.points = points
    self.codedValues = coded
    switch bitmapSection[5] {
    case 255:
      guard coded == points else { return nil }
      bitmap = nil
    case 0:
      let map = UnsafeRawBufferPointer(rebasing: bitmapSection[6...])
      guard map.count * 8 >= points, Self.setBits(map, before: points) == coded else { return nil }
      bitmap = map
    default:
      return nil
    }
    data = UnsafeRawBufferPointer(rebasing: dataSection[5...])
    // The check ecCodes 2.28 lacks (it reads past the section otherwise).
    let (packedBits, overflow) = coded.multipliedReportingOverflow(by: bits)
    guard !overflow, packedBits <= data.count * 8 else { return nil }
  }

  /// The reference value, `2^E` and `10^−D` of a data representation section (5) whose
  /// template begins with them: simple (5.0), complex (5.2, 5.3), JPEG 2000 (5.40), PNG
  /// (5.41) and CCSDS (5.42) packing; nil for any other.
  static func scale(of representation: UnsafeRawBufferPointer) -> (Double, Double, Double)? {
    guard representation.count >= 21, [0, 2, 3, 40, 41, 42].contains(unsigned(representation, 10, 2)) else {
      return nil
    }
    // GRIB2 codes signed integers as a sign bit and a magnitude, not in two's complement.
    func signed(_ octet: Int) -> Int {
      let raw = unsigned(representation, octet, 2)
      return raw & 0x8000 != 0 ? -(raw & 0x7FFF) : raw
    }
    return (
      Double(Float(bitPattern: UInt32(unsigned(representation, 12, 4)))), power(signed(16), 2),
      power(-signed(18), 10)
    )
  }

  /// The unsigned big-endian integer of `count` bytes at `octet` (counted from 1, as the
  /// WMO's tables count) of a section.
  static func unsigned(_ bytes: UnsafeRawBufferPointer, _ octet: Int, _ count: Int) -> Int {
    (0..<count).reduce(0) { $0 << 8 | Int(bytes[octet - 1 + $1]) }
  }

  /// `codes_power`: `base^exponent` by repeated multiplication or division, as ecCodes
  /// computes its scale factors (not `pow`, which may differ in the last bit).
  static func power(_ exponent: Int, _ base: Int) -> Double {
    var result = 1.0
    if exponent == 0 { return 1 }
    if exponent == 1 { return Double(base) }
    var remaining = exponent
    while remaining < 0 {
      result /= Double(base)
      remaining += 1
    }
    while remaining > 0 {
      result *= Double(base)
      remaining -= 1
    }
    return result
  }

  /// The number of set bits among the first `count` bits of `map`.
  static func setBits(_ map: UnsafeRawBufferPointer, before count: Int) -> Int {
    var total = 0
    let whole = count / 8
    for k in 0..<whole { total += map[k].nonzeroBitCount }
    if count % 8 != 0 { total += (map[whole] >> (8 - count % 8)).nonzeroBitCount }
    return total
  }

  /// Decodes the points `range` into `values` (which holds `range.count`), NaN where the
  /// bitmap leaves a point out.
  func decode(_ range: Range<Int>, into values: UnsafeMutableBufferPointer<Double>) {
    guard let base = values.baseAddress, values.count >= range.count else { return }
    guard let bitmap else {
      decodeCoded(from: range.lowerBound, count: range.count, into: base)
      return
    }
    // The coded values of the range, one after the other, then spread over the set bits.
    let first = Self.setBits(bitmap, before: range.lowerBound)
    var k = first
    var position = 0
    for point in range {
      if bitmap[point >> 3] & (0x80 >> UInt8(point & 7)) != 0 {
        decodeCoded(from: k, count: 1, into: base + position)
        k += 1
      } else {
        values[position] = .nan
      }
      position += 1
    }
  }

  /// Decodes `count` coded values from coded value `first` on.
  private func decodeCoded(from first: Int, count: Int, into out: UnsafeMutablePointer<Double>) {
    guard count > 0 else { return }
    guard bits > 0 else {
      // ecCodes: a constant field is its reference value, unscaled.
      for k in 0..<count { out[k] = reference }
      return
    }
    let (s, r, d) = (binaryScale, reference, decimalScale)
    var bit = first * bits
    for k in 0..<count {
      out[k] = (Double(Self.unsignedBits(data, at: bit, width: bits)) * s + r) * d
      bit += bits
    }
  }

  /// The unsigned integer of `width` bits (1…32) at bit `bit` of `data`, most significant
  /// first, as GRIB packs every coded value and group description; bytes past `data`'s
  /// end read as 0.
  @inline(__always)
  static func unsignedBits(_ data: UnsafeRawBufferPointer, at bit: Int, width: Int) -> UInt64 {
    let mask = UInt64.max >> UInt64(64 - width)
    let byte = bit >> 3
    if byte + 8 <= data.count {
      // Eight bytes from the value's first: its at most 32 bits after up to 7 others.
      let word = UInt64(bigEndian: data.loadUnaligned(fromByteOffset: byte, as: UInt64.self))
      return (word >> UInt64(64 - (bit & 7) - width)) & mask
    }
    var word: UInt64 = 0
    for b in 0..<8 { word = word << 8 | UInt64(byte + b < data.count ? data[byte + b] : 0) }
    return (word >> UInt64(64 - (bit & 7) - width)) & mask
  }
}

extension GRIBSimplePacking {
  /// The packed bytes (and the bitmap's) that a decode of the points `range` reads, as one
  /// span of the file's bytes from the first to the last; nil for a constant field.
  func bytes(of range: Range<Int>) -> UnsafeRawBufferPointer? {
    guard bits > 0, !range.isEmpty, let dataStart = data.baseAddress else { return nil }
    let first = bitmap.map { Self.setBits($0, before: range.lowerBound) } ?? range.lowerBound
    let last = bitmap.map { Self.setBits($0, before: range.upperBound) } ?? range.upperBound
    let start = first * bits / 8
    let end = Swift.min(data.count, (last * bits + 7) / 8)
    guard start < end else { return nil }
    return UnsafeRawBufferPointer(start: dataStart + start, count: end - start)
  }
}
