/// How format version 2 stores one cell's series of one metric: frame of reference and
/// bit packing (docs/cube-format.md, "Data sections, version 2").
///
/// A series of 16-bit words is stored as a reference word and a bit width w: step t's
/// code is the w bits at bit t·w of the series' payload (least significant bit first in
/// little-endian bytes), and decodes to `reference + code`. The all-ones code of a width
/// above 0 is the missing value, so the sentinel survives the packing; width 0 stores no
/// payload and means every step is `reference` (65535 for a series missing throughout).
///
/// Every code is found by one multiplication and one unaligned 4-byte load, so a single
/// value stays O(1) and a series decodes sequentially without a prefix sum: measured
/// against delta coding (smaller by a tenth on smooth fields, but a value needs the sum of
/// every delta before it), see docs/performance.md, "Cube format version 2".
public struct SeriesFrame: Sendable, Equatable {
  /// The word code 0 decodes to; 65535 for a series missing throughout (width 0).
  public let reference: UInt16
  /// Bits per code, 0…16.
  public let width: Int

  /// The largest width: a 16-bit word's range.
  public static let maximumWidth = 16

  public init(reference: UInt16, width: Int) {
    self.reference = reference
    self.width = width
  }

  /// The frame that stores `words` (missing as `CubeMetric.missing`) in the fewest bits.
  ///
  /// Codes 0 … span are values and the all-ones code is missing, so the width is the bit
  /// length of span + 1. The reference is lowered where needed so that every code below
  /// all-ones decodes to a word ≤ 65534, which readers check: no code of a valid frame can
  /// decode to the sentinel or past it.
  public static func fitting(_ words: UnsafeBufferPointer<UInt16>) -> SeriesFrame {
    var smallest = UInt16.max
    var largest: UInt16 = 0
    var missing = false
    for word in words {
      if word == CubeMetric.missing {
        missing = true
      } else {
        smallest = min(smallest, word)
        largest = max(largest, word)
      }
    }
    return fitting(smallest: smallest, largest: largest, missing: missing)
  }

  /// The frame of a series whose smallest and largest words other than missing are
  /// `smallest` and `largest` (65535 and 0 when every word is missing), with `missing`
  /// when some word is: what `fitting(_:)` gives the series.
  @inlinable
  public static func fitting(smallest: UInt16, largest: UInt16, missing: Bool) -> SeriesFrame {
    guard smallest <= largest else { return SeriesFrame(reference: CubeMetric.missing, width: 0) }
    let span = Int(largest - smallest)
    if span == 0, !missing { return SeriesFrame(reference: smallest, width: 0) }
    let width = Int.bitWidth - (span + 1).leadingZeroBitCount
    let top = Int(CubeMetric.missing) - 1 - ((1 << width) - 2)
    return SeriesFrame(reference: UInt16(min(Int(smallest), top)), width: width)
  }

  /// Bytes of payload for `steps` codes.
  @inlinable
  public static func payloadBytes(steps: Int, width: Int) -> Int { (steps &* width &+ 7) >> 3 }

  /// The word of the code at step `step` of a payload at `payload`. The 4 bytes from the
  /// code's first byte must be readable: sections end in `CubeLayout.sectionPadding` bytes.
  @inlinable @inline(__always)
  public static func word(reference: UInt32, width: Int, payload: UnsafeRawPointer, step: Int) -> UInt16 {
    let bit = step &* width
    let bits = UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: bit >> 3, as: UInt32.self))
    let mask: UInt32 = (1 << UInt32(width)) &- 1
    let code = (bits >> UInt32(bit & 7)) & mask
    // Width 0: mask and code are 0 and the word is the reference (65535 when missing
    // throughout). Otherwise all ones is missing.
    return width != 0 && code == mask ? CubeMetric.missing : UInt16(truncatingIfNeeded: reference &+ code)
  }

  /// Packs `words` into `payload` (`payloadBytes(steps: words.count, width: width)` bytes,
  /// zeroed by the caller). Every word must be missing or within the frame.
  ///
  /// Codes gather in a 64-bit accumulator that goes out 32 bits at a time: every byte
  /// stored holds codes alone, so the payload's last bytes are the only partial ones, and
  /// nothing past the payload is written.
  public func pack(_ words: UnsafeBufferPointer<UInt16>, into payload: UnsafeMutableRawPointer) {
    guard width > 0 else { return }
    let all: UInt64 = (1 << UInt64(width)) - 1
    let shift = UInt64(width)
    var buffer: UInt64 = 0
    var filled: UInt64 = 0
    var byte = 0
    // Wrapping and masking operators: `filled` is below 32 before each shift and a code
    // below 2^16, so nothing overflows, and the plain operators' checks (an overshift test
    // and a select for each code, and overflow traps) are work for nothing.
    for word in words {
      let code = word == CubeMetric.missing ? all : UInt64(word &- reference)
      buffer |= code &<< filled
      filled &+= shift
      if filled >= 32 {
        payload.storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, toByteOffset: byte, as: UInt32.self)
        buffer &>>= 32
        filled &-= 32
        byte &+= 4
      }
    }
    while filled > 0 {
      payload.storeBytes(of: UInt8(truncatingIfNeeded: buffer), toByteOffset: byte, as: UInt8.self)
      buffer >>= 8
      filled = filled > 8 ? filled - 8 : 0
      byte += 1
    }
  }

  /// What is wrong with a stored frame, nil when every code decodes to a word ≤ 65534 or
  /// to missing (the reader's check of every cell at open).
  public static func problem(reference: UInt64, width: UInt64) -> String? {
    guard width <= UInt64(maximumWidth) else { return "bit width \(width) is not in 0…\(maximumWidth)" }
    guard width > 0 else { return nil }
    let largest = reference + (UInt64(1) << width) - 2
    guard largest < UInt64(CubeMetric.missing) else {
      return "reference \(reference) with bit width \(width) decodes up to word \(largest), past 65534"
    }
    return nil
  }
}
