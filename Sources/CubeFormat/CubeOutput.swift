import Platform

/// The sequential output of a version 3 cube from its geometry on: bytes are staged in
/// memory, the XXH64 of each 64 KiB block (counted from where the output starts) is taken
/// while the block is staged, and the file is written with `pwrite`, in order. Each byte is
/// written once, so the page cache gets each page of the cube once, with no mapping to
/// write back and nothing to read again for the checksums.
///
/// Writes end on multiples of `writeAlignment` in the file, and the first ends on the page
/// after `start` (the page the header shares): the kernel counts a page cache folio as
/// written each time it is dirtied, whole, so a folio that one write left half done and
/// the next finished would count twice if writeback cleaned it in between, and the first
/// page is written again with the header.
///
/// Those aligned writes go straight to the device where the file system allows it
/// (`O_DIRECT`): the kernel then neither copies each byte into a page cache page, which
/// took about a sixth of a global ingest's CPU, nor writes the pages back later. The
/// staging is aligned for it. Where the file system refuses (tmpfs, any system but
/// Linux), the first refusal turns every later write back to the page cache, as before.
/// Either way the file's bytes are the same, and durability is the `fsync`'s.
///
/// The writes are made on a thread of their own (`OutputWrites`) from one of two staging
/// buffers while the other fills.
struct CubeOutput {
  /// Where writes end in the file: large enough for few system calls, small enough that the
  /// staging stays small beside a band's words.
  static let writeAlignment = 1 << 20
  /// Bytes of one staging buffer for items of up to `largestItem` bytes (`withSpace`): what
  /// may stay unwritten (up to an alignment and a block not yet hashed) and a write's
  /// worth, then one item.
  static func stagingBytes(largestItem: Int) -> Int {
    2 * writeAlignment + CubeLayout.Version3.checksumBlockBytes + largestItem
  }

  /// The memory an output takes: its two staging buffers.
  static func memoryBytes(largestItem: Int) -> Int { 2 * stagingBytes(largestItem: largestItem) }

  /// Where the checksummed part of the file starts.
  let start: Int
  /// The buffer being filled, and the one being written (or free).
  private var staging: AlignedBytes
  private var writing: AlignedBytes
  private let writes: OutputWrites
  /// The file offset of `staging[0]`: everything before it is written.
  private var stagedFrom: Int
  private var staged = 0
  /// The file offset up to which blocks are hashed (the staged bytes after it are not yet
  /// a whole block); everything once `endChecksums()` is called.
  private var hashedTo: Int
  private var hashing = true
  /// The XXH64 of every block so far.
  private(set) var checksums: [UInt64] = []
  /// The first error, as text, once `flush()` has waited for every write; later writes do
  /// nothing.
  private(set) var failure: String?
  /// The system's page size, for the first write.
  private let pageBytes = Posix.pageSize

  /// An output at file offset `start` of `descriptor` for items of up to `largestItem`
  /// bytes.
  init(descriptor: Int32, start: Int, largestItem: Int) {
    self.start = start
    stagedFrom = start
    hashedTo = start
    let bytes = Self.stagingBytes(largestItem: max(largestItem, 1))
    staging = AlignedBytes(count: bytes, alignment: Posix.directAlignment)
    writing = AlignedBytes(count: bytes, alignment: Posix.directAlignment)
    writes = OutputWrites(descriptor: descriptor)
  }

  /// The file offset of the next byte.
  var offset: Int { stagedFrom + staged }

  /// Lets `body` fill the next `count` bytes (at most the `largestItem` of `init`), which
  /// are zero when it starts.
  mutating func withSpace(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) {
    if staged + count > staging.bytes.count { writeAligned() }
    let space = UnsafeMutableRawBufferPointer(rebasing: staging.bytes[staged..<staged + count])
    space.initializeMemory(as: UInt8.self, repeating: 0)
    body(space)
    staged += count
  }

  /// Appends `bytes`, of any size.
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    var from = 0
    while from < bytes.count {
      if staged == staging.bytes.count { writeAligned() }
      let count = min(bytes.count - from, staging.bytes.count - staged)
      UnsafeMutableRawBufferPointer(rebasing: staging.bytes[staged..<staged + count])
        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[from..<from + count]))
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

  /// Takes the checksum of the blocks left, the last one partial, and ends checksumming:
  /// what is appended afterwards (the checksum table) is covered by none. Returns every
  /// block's checksum.
  mutating func endChecksums() -> [UInt64] {
    hashBlocks(partial: true)
    hashing = false
    return checksums
  }

  /// Writes every staged byte and waits for every write; nothing may be appended
  /// afterwards.
  mutating func flush() {
    hashBlocks(partial: !hashing)
    write(upTo: offset)
    failure = writes.finish()
  }

  /// Waits for the write in flight, so that the file may be closed: an output abandoned
  /// without `flush()`.
  func stopWriting() { writes.finish() }

  /// Takes the checksum of every whole block staged (and of a last, partial block when
  /// `partial`).
  private mutating func hashBlocks(partial: Bool) {
    guard hashing else {
      hashedTo = offset
      return
    }
    let block = CubeLayout.Version3.checksumBlockBytes
    while hashedTo + block <= offset || (partial && hashedTo < offset) {
      let from = hashedTo - stagedFrom
      let to = min(from + block, staged)
      checksums.append(XXH64.hash(UnsafeRawBufferPointer(rebasing: staging.bytes[from..<to])))
      hashedTo += to - from
    }
  }

  /// Makes room: hashes the whole blocks staged and writes the hashed bytes up to the last
  /// multiple of `writeAlignment`.
  private mutating func writeAligned() {
    hashBlocks(partial: false)
    write(upTo: hashedTo / Self.writeAlignment * Self.writeAlignment)
  }

  /// Starts writing the staged bytes before file offset `end` (nothing when it is not past
  /// `stagedFrom`) and moves the rest to the front of the other staging buffer, once that
  /// buffer's write is over, to fill next. The part of the page the header shares goes out
  /// alone, so that its folio is one page.
  private mutating func write(upTo end: Int) {
    let firstPage = start / pageBytes * pageBytes + pageBytes
    if stagedFrom == start, start % pageBytes != 0, end > firstPage { write(upTo: firstPage) }
    let count = end - stagedFrom
    guard count > 0 else { return }
    writes.finish()
    let rest = staged - count
    if let from = staging.bytes.baseAddress, let to = writing.bytes.baseAddress, rest > 0 {
      to.copyMemory(from: from + count, byteCount: rest)
    }
    writes.start(UnsafeRawBufferPointer(rebasing: staging.bytes[..<count]), at: stagedFrom)
    swap(&staging, &writing)
    stagedFrom = end
    staged = rest
  }

  /// Writes all of `bytes` at `offset` of `descriptor` with `pwrite`, again after a short
  /// write or an interruption; returns the error's text, nil on success.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> String? {
    var done = 0
    while done < bytes.count {
      let written: Int
      do {
        written = try Posix.pwrite(descriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]), at: offset + done)
      } catch {
        return "cannot write \(bytes.count - done) bytes at offset \(offset + done): \(error.text)"
      }
      if written == 0 { return "cannot write at offset \(offset + done): the file system took no bytes" }
      done += written
    }
    return nil
  }
}
