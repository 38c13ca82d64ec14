import Synchronization

extension CubeFile {
  /// Verifies every not-yet-verified checksum block overlapping `range` (file offsets);
  /// throws naming the block and byte range when one does not match, and the cube is then
  /// withdrawn (`CubeWithdrawal.damaged`). Bytes outside the blocks (the header, the
  /// checksum table) were verified at open; versions 1 and 2 have no blocks, and verify
  /// what `ChecksumScope` said at open.
  public func verify(bytes range: Range<Int>) throws(CubeError) {
    guard let blocks, unverified.load(ordering: .relaxed) else { return }
    for block in blocks.blocks(overlapping: range) where !blocks.isVerified(block) {
      if let problem = blocks.verify(block) { throw recordDamage(problem) }
    }
    if blocks.isComplete { unverified.store(false, ordering: .relaxed) }
  }

  /// Verifies up to `limit` bytes of not-yet-verified blocks, in file order; returns the
  /// bytes verified (0 when everything is). For a background verifier. Blocks are verified
  /// whole, at least one per call while any is left, so a limit below a block's 64 KiB
  /// still makes progress.
  public func verifyNext(limit: Int) throws(CubeError) -> Int {
    guard let blocks else { return 0 }
    var verified = 0
    while let block = blocks.nextUnverified() {
      let bytes = blocks.range(of: block).count
      if verified > 0, verified + bytes > limit { break }
      if let problem = blocks.verify(block) { throw recordDamage(problem) }
      verified += bytes
    }
    if blocks.isComplete { unverified.store(false, ordering: .relaxed) }
    return verified
  }

  /// Whether every block is verified (versions 1 and 2: whether opening hashed every
  /// checksum, `ChecksumScope.all`).
  public var isFullyVerified: Bool { blocks?.isComplete ?? hashedAll }

  /// The number of checksum blocks (0 for versions 1 and 2).
  public var checksumBlockCount: Int { blocks?.count ?? 0 }

  /// The number of checksum blocks verified so far.
  public var verifiedBlockCount: Int { blocks?.verifiedCount ?? 0 }

  /// Whether a block of the cube failed verification: its reads since give missing values,
  /// and `damage` says which block. One load, for callers to check after a read.
  @inlinable
  public var isDamaged: Bool { damaged.load(ordering: .relaxed) }

  /// The first block that failed verification, as an error naming the file, the block and
  /// its bytes; nil while none has.
  public var damage: CubeError? { firstDamage.withLock { $0 } }

  /// Records that a block failed (`problem`, without "corrupted: ") and withdraws the cube;
  /// returns the error to throw.
  func recordDamage(_ problem: String) -> CubeError {
    let error = CubeError(path: path, reason: "corrupted: \(problem)")
    firstDamage.withLock { if $0 == nil { $0 = error } }
    damaged.store(true, ordering: .relaxed)
    withdraw(.damaged)
    return error
  }

  /// Whether the bytes `range` are verified, verifying them now if need be; false (with the
  /// cube damaged) when a block does not match. For reads that cannot throw.
  func verified(_ range: Range<Int>) -> Bool {
    guard unverified.load(ordering: .relaxed) else { return true }
    do {
      try verify(bytes: range)
      return true
    } catch {
      return false
    }
  }

  /// The file offsets of `count` bytes at `pointer` in the mapping.
  func fileRange(_ pointer: UnsafeRawPointer, count: Int) -> Range<Int> {
    let start = pointer - mappingBase
    return start..<(start + count)
  }

  /// Whether the coordinates of `position` are verified, verifying them if need be.
  func verifiedCoordinates(position: Int) -> Bool {
    verified(fileRange(coordinates(position: position), count: header.cells * 2 * MemoryLayout<Float>.size))
  }

  /// The slow part of a read of a version 3 cube with unverified blocks: the block of the
  /// cell's entry in `section`, then the blocks of the payload it points to (with the 3
  /// bytes after it that a code's 4-byte load may touch). False when one does not match.
  @usableFromInline
  @inline(never)
  func verifyRead(section: UnsafeRawPointer, cell: Int) -> Bool {
    let entryAt = section + cell * CubeLayout.cellEntryBytes
    guard verified(fileRange(entryAt, count: CubeLayout.cellEntryBytes)) else { return false }
    let entry = entryAt.le(0, as: UInt64.self)
    let offset = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
    let width = Int(truncatingIfNeeded: entry >> 48) & 0xFF
    // A width above 16 reads as missing (the bounds check in `series`), without a payload.
    guard width <= SeriesFrame.maximumWidth else { return true }
    let bytes = SeriesFrame.payloadBytes(steps: stepCount, width: width) + 3
    return verified(fileRange(section + offset, count: bytes))
  }
}

extension CubeFile {
  /// Whether the record says the header's projection locates every cell of every position
  /// within 0.1 cell, as checked at ingest (geometry flag bit 0): a reader may then build
  /// the analytic locator without checking the cells. False before version 3.
  public var projectionChecked: Bool { geometryFlags & CubeLayout.Version3.projectionCheckedFlag != 0 }

  /// Lends the verified bytes `range` of the file (for example `locatorIndexRange`) to
  /// `body`: every checksum block they touch is verified first, and a block that does not
  /// match throws, naming it. `range` must lie inside the file.
  public func withVerifiedBytes<Result>(
    _ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(CubeError) -> Result {
    guard range.lowerBound >= 0, range.upperBound <= fileBytes else {
      throw CubeError(
        path: path, reason: "bytes \(range.lowerBound)..<\(range.upperBound) are not inside the file's \(fileBytes)")
    }
    try verify(bytes: range)
    return body(UnsafeRawBufferPointer(start: mappingBase + range.lowerBound, count: range.count))
  }
}
