/// One cell's series of one metric, ready to be read step by step: where its words are,
/// and in version 2 its frame, taken from the cell's entry once rather than at every step.
/// Made by `CubeFile.series(metric:cell:)`; a value type on the stack, so reading through
/// it allocates nothing.
@frozen
public struct CellSeries {
  /// Version 1: the cell's first word. Version 2: the cell's payload.
  @usableFromInline let base: UnsafeRawPointer
  /// Version 2's reference word (`SeriesFrame.reference`).
  @usableFromInline let reference: UInt32
  /// Version 2's bits per code, 0…16; −1 for version 1's 16-bit words.
  @usableFromInline let width: Int

  /// A version 1 series: 16-bit little-endian words from `words` on.
  @inlinable
  init(words: UnsafeRawPointer) {
    (base, reference, width) = (words, 0, -1)
  }

  /// A version 2 series: `width`-bit codes from `payload` on, decoding to `reference + code`.
  @inlinable
  init(payload: UnsafeRawPointer, reference: UInt32, width: Int) {
    (base, self.reference, self.width) = (payload, reference, width)
  }

  /// The word at `step` (`CubeMetric.missing` where missing).
  @inlinable @inline(__always)
  public func word(_ step: Int) -> UInt16 {
    if width < 0 { return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: step &* 2, as: UInt16.self)) }
    return SeriesFrame.word(reference: reference, width: width, payload: base, step: step)
  }
}
