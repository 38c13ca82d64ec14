/// Zeroed bytes at an alignment, owned for as long as the instance lives: the staging of a
/// cube's output, which is written past the page cache (`Posix.pwriteDirect`) only from
/// memory aligned to the device's blocks, as an array's storage is not.
///
/// `@unchecked Sendable`: it owns its allocation, which only the one `CubeOutput` holding
/// it reaches (under `BandPacker`'s lock or by the writer alone), and that output's write
/// thread while a write from it is in flight, which the output waits for before it fills
/// the buffer again (`OutputWrites`).
final class AlignedBytes: @unchecked Sendable {
  let bytes: UnsafeMutableRawBufferPointer

  /// `count` zero bytes (at least one) at a multiple of `alignment`, a power of two.
  init(count: Int, alignment: Int) {
    bytes = .allocate(byteCount: Swift.max(count, 1), alignment: alignment)
    bytes.initializeMemory(as: UInt8.self, repeating: 0)
  }

  deinit { bytes.deallocate() }
}
