import Synchronization

/// Version 3's checksum table and which of its blocks have been verified: an XXH64 per
/// 64 KiB block of the file from the geometry up to the table, each block hashed the first
/// time a read needs it (or eagerly, by a background verifier or `ChecksumScope.all`), so
/// that opening a cube costs nothing per byte and a read costs a block's hash once.
///
/// A block whose bytes hold part of a sub-section's table of cell entries has those entries
/// checked when it is verified (as version 2 checks every entry at open): each entry's
/// frame, and that its payload lies inside the sub-section and starts where the entry
/// before it (in the same block) ends. Thereafter no entry in the block can send a read
/// outside its sub-section, and the reader's own bounds check stays as a second guard.
///
/// `@unchecked Sendable`: it reads the mapping its `CubeFile` owns, which outlives it (the
/// file holds the only reference), and its mutable state, the bitmap of verified blocks and
/// the counters, is atomic; a block verified twice by two threads at once is only hashed
/// twice.
final class ChecksumBlocks: @unchecked Sendable {
  /// One sub-section of the data region: where it starts, its bytes, and the cells of its
  /// band (its table's entries).
  struct Section {
    let offset: Int
    let bytes: Int
    let cells: Int
  }

  private let base: UnsafeRawPointer
  /// The first byte covered (the geometry's offset) and the end of the covered bytes (the
  /// checksum table's offset).
  let start: Int
  let end: Int
  /// The number of blocks.
  let count: Int
  private let table: UnsafeRawPointer
  /// Every sub-section in file order, for the entry checks of a verified block.
  private let sections: [Section]
  private let steps: Int
  /// Metrics per band, to name a sub-section by band and metric.
  private let metrics: Int
  private let words: Int
  private let bits: UnsafeMutablePointer<Atomic<UInt64>>
  private let verified = Atomic<Int>(0)
  /// Blocks before this one are verified: where `nextUnverified` starts looking.
  private let cursor = Atomic<Int>(0)

  /// The table at `table` of the blocks of `start..<end` in the mapping at `base`; the
  /// table's own checksum has been checked by the caller.
  init(
    base: UnsafeRawPointer, start: Int, end: Int, table: UnsafeRawPointer, sections: [Section], steps: Int,
    metrics: Int
  ) {
    self.base = base
    self.start = start
    self.end = end
    self.table = table
    self.sections = sections
    self.steps = steps
    self.metrics = max(metrics, 1)
    count = (end - start + CubeLayout.Version3.checksumBlockBytes - 1) / CubeLayout.Version3.checksumBlockBytes
    words = (count + 63) / 64
    bits = .allocate(capacity: max(words, 1))
    for index in 0..<max(words, 1) { (bits + index).initialize(to: Atomic(0)) }
  }

  deinit {
    bits.deinitialize(count: max(words, 1))
    bits.deallocate()
  }

  /// Whether every block is verified.
  var isComplete: Bool { verified.load(ordering: .relaxed) == count }

  /// How many blocks are verified.
  var verifiedCount: Int { verified.load(ordering: .relaxed) }

  /// Whether `block` is verified.
  @inline(__always)
  func isVerified(_ block: Int) -> Bool {
    bits[block >> 6].load(ordering: .relaxed) & (1 << UInt64(block & 63)) != 0
  }

  /// The file's byte range of `block`.
  func range(of block: Int) -> Range<Int> {
    let first = start + block * CubeLayout.Version3.checksumBlockBytes
    return first..<min(first + CubeLayout.Version3.checksumBlockBytes, end)
  }

  /// The blocks holding any byte of `bytes` (file offsets), empty when none is covered.
  func blocks(overlapping bytes: Range<Int>) -> Range<Int> {
    let lower = max(bytes.lowerBound, start)
    let upper = min(bytes.upperBound, end)
    guard lower < upper else { return 0..<0 }
    let size = CubeLayout.Version3.checksumBlockBytes
    return (lower - start) / size..<((upper - start - 1) / size + 1)
  }

  /// Verifies `block` unless it is verified: its hash against the table, then the cell
  /// entries it holds. Returns what is wrong (without "corrupted: "), nil when it holds.
  func verify(_ block: Int) -> String? {
    if isVerified(block) { return nil }
    let bytes = range(of: block)
    let stored = table.le(block * MemoryLayout<UInt64>.size, as: UInt64.self)
    guard XXH64.hash(UnsafeRawBufferPointer(start: base + bytes.lowerBound, count: bytes.count)) == stored else {
      return
        "checksum block \(block) (bytes \(bytes.lowerBound)..<\(bytes.upperBound)) does not match the checksum table"
    }
    if let problem = entryProblem(in: bytes) {
      return "checksum block \(block) (bytes \(bytes.lowerBound)..<\(bytes.upperBound)): \(problem)"
    }
    let mask: UInt64 = 1 << UInt64(block & 63)
    let (old, _) = bits[block >> 6].bitwiseOr(mask, ordering: .relaxed)
    if old & mask == 0 { verified.wrappingAdd(1, ordering: .relaxed) }
    return nil
  }

  /// The first block not yet verified at or after the cursor, nil when every one is. The
  /// cursor moves past the verified blocks it skips.
  func nextUnverified() -> Int? {
    var block = cursor.load(ordering: .relaxed)
    while block < count, isVerified(block) { block += 1 }
    cursor.store(block, ordering: .relaxed)
    if block < count { return block }
    // Blocks before the cursor were verified when it passed them; any left are after it.
    return isComplete ? nil : (0..<count).first { !isVerified($0) }
  }

  /// The first problem of the cell entries inside `bytes`: every sub-section whose table
  /// overlaps it is checked over the overlap.
  private func entryProblem(in bytes: Range<Int>) -> String? {
    // The last sub-section starting before the block's end, then back while they start
    // inside it (sections are disjoint and in order, so no earlier one can reach it).
    var low = 0
    var high = sections.count
    while low < high {
      let middle = (low + high) / 2
      if sections[middle].offset < bytes.upperBound { low = middle + 1 } else { high = middle }
    }
    var index = low - 1
    while index >= 0 {
      let section = sections[index]
      if let problem = entryProblem(of: section, in: bytes) {
        return "band \(index / metrics), metric \(index % metrics): \(problem)"
      }
      if section.offset <= bytes.lowerBound { break }
      index -= 1
    }
    return nil
  }

  /// The first problem of `section`'s entries inside `bytes`, nil when they hold.
  private func entryProblem(of section: Section, in bytes: Range<Int>) -> String? {
    let entryBytes = CubeLayout.cellEntryBytes
    let tableEnd = section.offset + section.cells * entryBytes
    let lower = max(bytes.lowerBound, section.offset)
    let upper = min(bytes.upperBound, tableEnd)
    guard lower < upper else { return nil }
    // Sections and blocks start on multiples of 64, so no entry straddles two blocks.
    let first = (lower - section.offset) / entryBytes
    let last = (upper - section.offset) / entryBytes
    let payloadEnd = UInt64(section.bytes - CubeLayout.sectionPadding)
    var expected: UInt64? = first == 0 ? UInt64(section.cells * entryBytes) : nil
    for cell in first..<last {
      let entry = base.le(section.offset + cell * entryBytes, as: UInt64.self)
      let (offset, reference, width) = (entry & 0xFFFF_FFFF, (entry >> 32) & 0xFFFF, (entry >> 48) & 0xFF)
      guard entry >> 56 == 0 else {
        return "cell \(cell) of its band has reserved bits set (entry 0x\(String(entry, radix: 16)))"
      }
      if let problem = SeriesFrame.problem(reference: reference, width: width) {
        return "cell \(cell) of its band \(problem)"
      }
      if let expected, offset != expected {
        return "cell \(cell) of its band payload offset \(offset) is not \(expected), where the payload before it ends"
      }
      guard offset >= UInt64(section.cells * entryBytes) else {
        return "cell \(cell) of its band payload offset \(offset) is inside the table of cell entries"
      }
      let payloadEnd64 = offset + UInt64(SeriesFrame.payloadBytes(steps: steps, width: Int(width)))
      guard payloadEnd64 <= payloadEnd else {
        return
          "cell \(cell) of its band payload ends at \(payloadEnd64), past the sub-section's payloads (\(payloadEnd))"
      }
      if cell == section.cells - 1, payloadEnd64 != payloadEnd {
        return
          "its \(section.bytes) bytes do not end \(CubeLayout.sectionPadding) bytes after its last payload (at \(payloadEnd64))"
      }
      expected = payloadEnd64
    }
    return nil
  }
}
