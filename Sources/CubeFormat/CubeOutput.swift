#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sequential output of a version 3 cube from its geometry on: bytes are staged in
/// memory, the XXH64 of each 64 KiB block (counted from where the output starts) is taken
/// while the block is staged, and whole blocks go to the file with `pwrite`, in order.
/// Each byte is written once, so the page cache gets each page of the cube once, with no
/// mapping to write back and nothing to read again for the checksums.
struct CubeOutput {
  /// Blocks staged before they are written: a few calls' worth of 64 KiB, few enough that
  /// the staging stays small beside a band's words.
  static let stagedBlocks = 16
  /// Bytes of staging for items of up to `largestItem` bytes (`withSpace`): one item more
  /// than the staged blocks, so that an item always fits after the blocks are written.
  static func stagingBytes(largestItem: Int) -> Int {
    stagedBlocks * CubeLayout.Version3.checksumBlockBytes + largestItem
  }

  private let descriptor: Int32
  /// The file offset of the first staged byte; a multiple of the block size from `start`.
  private var flushedTo: Int
  /// Where the checksummed part of the file starts.
  let start: Int
  private var staging: [UInt8]
  private var staged = 0
  /// The XXH64 of every block written so far.
  private(set) var checksums: [UInt64] = []
  /// The first error, as text; later writes do nothing.
  private(set) var failure: String?

  /// An output at file offset `start` of `descriptor` for items of up to `largestItem`
  /// bytes.
  init(descriptor: Int32, start: Int, largestItem: Int) {
    self.descriptor = descriptor
    self.start = start
    flushedTo = start
    staging = [UInt8](repeating: 0, count: Self.stagingBytes(largestItem: max(largestItem, 1)))
  }

  /// The file offset of the next byte.
  var offset: Int { flushedTo + staged }

  /// Lets `body` fill the next `count` bytes (at most the `largestItem` of `init`), which
  /// are zero when it starts.
  mutating func withSpace(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) {
    if staged + count > staging.count { writeWholeBlocks() }
    let start = staged
    staging.withUnsafeMutableBytes { bytes in
      let space = UnsafeMutableRawBufferPointer(rebasing: bytes[start..<start + count])
      space.initializeMemory(as: UInt8.self, repeating: 0)
      body(space)
    }
    staged += count
  }

  /// Appends `bytes`, of any size.
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    var from = 0
    while from < bytes.count {
      if staged == staging.count { writeWholeBlocks() }
      let count = min(bytes.count - from, staging.count - staged)
      let start = staged
      staging.withUnsafeMutableBytes { staging in
        UnsafeMutableRawBufferPointer(rebasing: staging[start..<start + count])
          .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[from..<from + count]))
      }
      staged += count
      from += count
    }
  }

  /// Appends `values` little-endian.
  mutating func append<T: FixedWidthInteger>(littleEndian values: [T]) {
    let size = MemoryLayout<T>.size
    let chunkCount = 32_768 / size
    for chunk in stride(from: 0, to: values.count, by: chunkCount) {
      let part = values[chunk..<min(chunk + chunkCount, values.count)]
      withSpace(part.count * size) { space in
        for (index, value) in part.enumerated() {
          space.storeBytes(of: value.littleEndian, toByteOffset: index * size, as: T.self)
        }
      }
    }
  }

  /// Appends `values` as little-endian f32s.
  mutating func append(littleEndian values: [Float]) {
    for chunk in stride(from: 0, to: values.count, by: 8192) {
      let part = values[chunk..<min(chunk + 8192, values.count)]
      withSpace(part.count * 4) { space in
        for (index, value) in part.enumerated() {
          space.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: index * 4, as: UInt32.self)
        }
      }
    }
  }

  /// Appends zeros up to file offset `target`, which must not be behind `offset`.
  mutating func pad(to target: Int) {
    var left = target - offset
    while left > 0 {
      let count = min(left, 65_536)
      withSpace(count) { _ in }
      left -= count
    }
  }

  /// Writes every staged byte and takes the checksum of the last, partial block; returns
  /// the checksums of every block. Nothing may be appended afterwards.
  mutating func finish() -> [UInt64] {
    writeWholeBlocks()
    if staged > 0 {
      checksums.append(staging.withUnsafeBytes { XXH64.hash(UnsafeRawBufferPointer(rebasing: $0[..<staged])) })
      write(count: staged)
      staged = 0
    }
    return checksums
  }

  /// Takes the checksums of the staged whole blocks, writes them, and moves the rest (part
  /// of a block) to the front.
  private mutating func writeWholeBlocks() {
    let block = CubeLayout.Version3.checksumBlockBytes
    let whole = staged / block * block
    guard whole > 0 else { return }
    staging.withUnsafeBytes { bytes in
      for first in stride(from: 0, to: whole, by: block) {
        checksums.append(XXH64.hash(UnsafeRawBufferPointer(rebasing: bytes[first..<first + block])))
      }
    }
    write(count: whole)
    let rest = staged - whole
    staging.withUnsafeMutableBytes { bytes in
      guard let base = bytes.baseAddress, rest > 0 else { return }
      base.copyMemory(from: base + whole, byteCount: rest)
    }
    staged = rest
  }

  /// Writes the first `count` staged bytes at `flushedTo`.
  private mutating func write(count: Int) {
    if failure == nil {
      let offset = flushedTo
      failure = staging.withUnsafeBytes { bytes in
        Self.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<count]), at: offset)
      }
    }
    flushedTo += count
  }

  /// Writes all of `bytes` at `offset` of `descriptor` with `pwrite`, again after a short
  /// write or an interruption; returns the error's text, nil on success.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> String? {
    var done = 0
    while done < bytes.count {
      guard let base = bytes.baseAddress else { return nil }
      let written = pwrite(descriptor, base + done, bytes.count - done, off_t(offset + done))
      if written < 0 {
        if errno == EINTR { continue }
        return "cannot write \(bytes.count - done) bytes at offset \(offset + done): \(FileSystem.errnoText())"
      }
      if written == 0 { return "cannot write at offset \(offset + done): the file system took no bytes" }
      done += written
    }
    return nil
  }
}
