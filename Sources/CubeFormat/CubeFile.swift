import CPrefetch
import Platform
import Synchronization

/// A cube opened read-only through `mmap`.
///
/// Opening checks everything a reader depends on — magic, version, sizes, offsets and, in
/// versions 1 and 2, the XXH64 checksums of header, geometry and every data block — so that
/// a truncated, corrupted or foreign file is refused with a one-line reason instead of
/// crashing or answering wrong numbers later. Reads after that are O(1) pointer arithmetic.
///
/// Version 3 checksums the file in 64 KiB blocks instead, and opening it does no work per
/// cell or per byte of data: each read verifies the blocks it reads the first time it
/// reads them (`verify(bytes:)`, docs/cube-format.md, *What is verified when*). A block
/// that does not match withdraws the cube (`CubeWithdrawal.damaged`); the read gives
/// missing values and `damage` says which block, and `Cube` turns that into an error.
///
/// A page of the file can still change after it was verified, if another process writes to
/// it in place: with `CubeLeases` started, the cube holds a read lease and is withdrawn
/// before the writer may proceed; without one, every file offset a read takes from the
/// mapping (a version 2 cell entry) is bounds-checked, so that a damaged entry reads as
/// missing instead of sending a read outside the file.
///
/// `@unchecked Sendable`: the class owns a read-only mapping that never changes after
/// `init` and is unmapped only in `deinit`, so sharing it between threads is safe; its one
/// mutable state, the withdrawal, is atomic.
public final class CubeFile: @unchecked Sendable {
  /// The file that was opened.
  public let path: String
  /// The decoded header.
  public let header: CubeHeader
  /// The size of the file in bytes.
  public let fileBytes: Int
  /// The file's identity when it was opened.
  public let identity: FileIdentity
  private let base: UnsafeRawPointer
  /// Where the coordinates start, as validated.
  private let geometryOffset: Int
  /// Where the terrain section starts, as validated; nil without one.
  private let terrainOffset: Int?
  /// Where the positions section starts, as validated; nil for a grid that does not move.
  let positionsOffset: Int?
  /// The number of positions of the grid: 1 for every cube without a positions section.
  public let positionCount: Int
  /// Each step's position, nil when there is one position (so that a cube whose grid
  /// does not move carries no table).
  @usableFromInline let stepTable: [Int]?
  /// The format version: 1 (16-bit words), 2 (packed series) or 3 (packed series in bands,
  /// checksummed by block).
  public let formatVersion: Int
  /// Each band's data of each metric as validated, at `band * metricCount + metric`:
  /// version 1's words, or version 2's section or version 3's sub-section (its table of one
  /// entry per cell of the band, then the payloads the entries point into); with, when
  /// packed, where its payloads must end, in bytes from the section's start (the padding
  /// after them keeps a code's 4-byte load inside the section). Side by side in one array,
  /// so that a read's bounds check costs no second array access. Versions 1 and 2 are one
  /// band.
  @usableFromInline let data: [(base: UnsafeRawPointer, payloadEnd: Int)]
  /// A cell's band is `cell >> bandShift` and its place in the band `cell & bandMask`
  /// (bands are a power of two cells); one band: a shift past every cell index.
  @usableFromInline let bandShift: Int
  @usableFromInline let bandMask: Int
  @usableFromInline let metricCount: Int
  /// Cells per band (a power of two; for versions 1 and 2, the cells) and the number of
  /// bands (1 for versions 1 and 2).
  public let bandCells: Int
  public let bandCount: Int
  /// Version 3's record geometry flags (0 for versions 1 and 2): bit 0, the header's
  /// projection locates every cell, as checked at ingest; bit 1, a locator index section.
  public let geometryFlags: UInt32
  /// The locator index section's bytes in the file, nil without one.
  public let locatorIndexRange: Range<Int>?
  /// Version 3's checksum blocks; nil for versions 1 and 2, whose checksums cover whole
  /// sections and are verified at open as `ChecksumScope` says.
  let blocks: ChecksumBlocks?
  /// Whether a read must verify the blocks it reads first: a version 3 cube some of whose
  /// blocks are unverified. Cleared when the last block is verified, so that the reads of a
  /// fully verified cube pay one load for it.
  @usableFromInline let unverified: Atomic<Bool>
  /// Set when a block failed verification; a read then gives missing values, and callers
  /// that answer (`Cube`) check this and throw `damage`.
  @usableFromInline let damaged = Atomic<Bool>(false)
  /// The first failed block's error, naming the file, the block and its bytes.
  let firstDamage = Mutex<CubeError?>(nil)
  /// Whether opening hashed every checksum of a version 1 or 2 cube (`ChecksumScope.all`).
  let hashedAll: Bool
  /// Whether `data` holds version 2 sections.
  @usableFromInline let packed: Bool
  @usableFromInline let stepCount: Int
  /// Each metric's bytes of data (its block or section), for `info`.
  public let dataBytes: [Int]
  /// The open descriptor that holds the lease, or -1 when the cube is not leased (it is
  /// closed once mapped).
  private let descriptor: Int32
  /// `CubeWithdrawal`'s raw value once the cube is withdrawn, 0 before.
  private let withdrawn = Atomic<UInt8>(0)
  /// The mapping's start, for the file offsets of pointers into it.
  var mappingBase: UnsafeRawPointer { base }

  /// Maps and validates the cube at `path`. With `verifyChecksums` false only the header is
  /// hashed.
  public convenience init(path: String, verifyChecksums: Bool = true) throws(CubeError) {
    try self.init(path: path, checksums: verifyChecksums ? .all : .headerOnly)
  }

  /// Maps and validates the cube at `path`, hashing what `checksums` names.
  public init(path: String, checksums: ChecksumScope) throws(CubeError) {
    self.path = path
    let (descriptor, status) = try Self.openFile(path)
    // Leased before it is mapped and verified, so that a file already open for writing
    // elsewhere is refused at once, and a writer that comes later is held back from here on.
    let leased: Bool
    do {
      leased = try CubeLeases.shared.lease(descriptor, path: path)
    } catch {
      Posix.close(descriptor)
      throw error
    }
    // An unleased cube needs no descriptor once mapped.
    defer { if !leased { Posix.close(descriptor) } }
    let size = Int(status.size)
    let mapping: UnsafeMutableRawPointer
    do {
      mapping = try Posix.mmap(descriptor, bytes: size)
    } catch {
      if leased { Posix.close(descriptor) }
      throw CubeError(path: path, reason: "cannot map: \(error.text)")
    }
    let base = UnsafeRawPointer(mapping)
    do {
      let validated = try Self.validate(base: base, size: size, path: path, verify: checksums)
      self.header = validated.header
      self.data = zip(validated.data, validated.sectionBytes ?? validated.dataBytes).map {
        ($0, $1 - CubeLayout.sectionPadding)
      }
      self.dataBytes = validated.dataBytes
      self.formatVersion = validated.version
      self.packed = validated.version != Int(CubeLayout.wordVersion)
      self.metricCount = validated.header.metrics.count
      let cells = validated.header.cells
      let bandCells = validated.bands?.cells ?? cells
      self.bandCells = bandCells
      self.bandCount = validated.bands?.count ?? 1
      // One band: every cell index (below 2³¹) shifts to band 0 and masks to itself.
      self.bandShift = validated.bands.map { $0.cells.trailingZeroBitCount } ?? 32
      self.bandMask = validated.bands.map { $0.cells - 1 } ?? Int(UInt32.max)
      self.geometryFlags = validated.bands?.geometryFlags ?? 0
      self.locatorIndexRange = validated.bands?.locatorIndex
      self.blocks = validated.bands?.blocks
      self.unverified = Atomic(!(validated.bands?.blocks.isComplete ?? true))
      self.hashedAll = checksums == .all
      self.geometryOffset = validated.geometryOffset
      self.terrainOffset = validated.terrainOffset
      self.positionsOffset = validated.positionsOffset
      self.positionCount = validated.positionCount
      self.stepTable = validated.stepPositions
    } catch {
      Posix.munmap(mapping, bytes: size)
      if leased { Posix.close(descriptor) }
      throw error
    }
    self.base = base
    self.fileBytes = size
    self.identity = FileIdentity(status: status)
    self.stepCount = header.stepCount
    self.descriptor = leased ? descriptor : -1
    if leased { CubeLeases.shared.register(self, descriptor: descriptor) }
  }

  // Unmapped before the descriptor closes: closing releases the lease, and a writer held
  // back by it may then shrink the file.
  deinit {
    Posix.munmap(UnsafeMutableRawPointer(mutating: base), bytes: fileBytes)
    if descriptor >= 0 {
      CubeLeases.shared.unregister(descriptor: descriptor)
      Posix.close(descriptor)
    }
  }

  /// Whether the cube holds a read lease (`CubeLeases`), which keeps other processes from
  /// changing it in place while it is mapped.
  public var isLeased: Bool { descriptor >= 0 }

  /// Why the cube must no longer be served, nil while it may be.
  public var withdrawal: CubeWithdrawal? { CubeWithdrawal(rawValue: withdrawn.load(ordering: .relaxed)) }

  /// Marks the cube withdrawn for `reason` (the first reason stays).
  func withdraw(_ reason: CubeWithdrawal) {
    _ = withdrawn.compareExchange(expected: 0, desired: reason.rawValue, ordering: .relaxed)
  }

  /// `path` opened read-only, with its status: a regular file at least a header long, or
  /// the reason it is not. The caller closes the descriptor.
  static func openFile(_ path: String) throws(CubeError) -> (descriptor: Int32, status: FileStatus) {
    // Close-on-exec: a child (the PNG renderer) must not inherit a leased descriptor, which
    // would keep the lease after the cube lets go of it.
    let descriptor: Int32
    do {
      descriptor = try Posix.open(path, [.readOnly, .closeOnExec])
    } catch {
      throw CubeError(path: path, reason: "cannot open: \(error.text)")
    }
    let status: FileStatus
    do {
      status = try Posix.fstat(descriptor)
    } catch {
      Posix.close(descriptor)
      throw CubeError(path: path, reason: "cannot stat: \(error.text)")
    }
    let reason: String? =
      if status.kind != .regular {
        "not a regular file"
      } else if Int(status.size) < CubeLayout.fixedHeaderBytes {
        "truncated or not a cube: \(status.size) bytes, shorter than the \(CubeLayout.fixedHeaderBytes)-byte header"
      } else {
        nil
      }
    if let reason {
      Posix.close(descriptor)
      throw CubeError(path: path, reason: reason)
    }
    return (descriptor, status)
  }

  /// The stored word of `metric` at `cell` and `step`; indices must be in range.
  @inlinable
  public func word(metric: Int, cell: Int, step: Int) -> UInt16 {
    series(metric: metric, cell: cell).word(step)
  }

  /// `metric`'s series at `cell`, its version 2 entry decoded once, for reading several
  /// of its steps (a series, or the two steps a time between them needs). `cell` must be
  /// in range, and so must every step read through it.
  ///
  /// In a version 3 cube with unverified blocks, the blocks of the cell's entry and
  /// payload are verified first; when one does not match, the series reads as missing and
  /// the cube is damaged (`isDamaged`, `damage`).
  @inlinable @inline(__always)
  public func series(metric: Int, cell: Int) -> CellSeries {
    let section = data[(cell &>> bandShift) &* metricCount &+ metric]
    let cell = cell & bandMask
    guard packed else { return CellSeries(words: section.base + (cell &* stepCount) &* 2) }
    if unverified.load(ordering: .relaxed), !verifyRead(section: section.base, cell: cell) {
      return CellSeries(payload: section.base, reference: UInt32(CubeMetric.missing), width: 0)
    }
    let entry = UInt64(littleEndian: section.base.loadUnaligned(fromByteOffset: cell &* 8, as: UInt64.self))
    let offset = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
    let width = Int(truncatingIfNeeded: entry >> 48) & 0xFF
    // Every entry was checked at open, but a page can change after that: an entry that
    // would send a read past its section's payloads is damage, never an address, and reads
    // as missing throughout (width 0 at the section's start). A width above 16 sets a bit
    // far above any section's size (it is at most 255, so the shift stays below bit 60), so
    // that one comparison checks both. Selected rather than branched on, and without marking
    // the cube: measured side by side, a branch to a call cost the lookups 5–12 % at the
    // median, the selection nothing. The store notices the file changed (`StoreScan`).
    let wide = ((width &+ 15) >> 5) << 56
    let end = offset &+ SeriesFrame.payloadBytes(steps: stepCount, width: width)
    let sound = end | wide <= section.payloadEnd
    return CellSeries(
      payload: section.base + (sound ? offset : 0),
      reference: sound ? UInt32(truncatingIfNeeded: entry >> 32) & 0xFFFF : UInt32(CubeMetric.missing),
      width: sound ? width : 0)
  }

  /// Writes the words of `metric` at `cell` for the steps `range` into `output`, decoding
  /// version 2's codes in one sequential pass. `range` must lie in `0..<stepCount` and
  /// `output` hold `range.count` words.
  @inlinable
  public func words(metric: Int, cell: Int, steps range: Range<Int>, into output: UnsafeMutablePointer<UInt16>) {
    let cells = series(metric: metric, cell: cell)
    for index in 0..<range.count { output[index] = cells.word(range.lowerBound &+ index) }
  }

  /// Starts fetching what reading `metric` at `cell` and `step` touches into the cache, so
  /// that a read shortly after does not wait for memory. Indices must be in range. In
  /// version 2 that is the cell's entry: its payload's place is in the entry.
  @inlinable
  public func prefetch(metric: Int, cell: Int, step: Int) {
    let section = data[(cell &>> bandShift) &* metricCount &+ metric].base
    let cell = cell & bandMask
    if packed {
      nwp_prefetch(section + cell &* 8)
    } else {
      nwp_prefetch(section + (cell &* stepCount &+ step) &* 2)
    }
  }

  /// Starts fetching every cache line of `metric`'s data at `cell` for `steps` (a range
  /// of step indices, which must be in range): a caller about to read many series at one
  /// point issues them all first, so that their memory latencies overlap instead of being
  /// paid one series after another. In version 2 only the entry is fetched.
  @inlinable
  public func prefetch(metric: Int, cell: Int, steps range: Range<Int>) {
    guard !range.isEmpty else { return }
    let section = data[(cell &>> bandShift) &* metricCount &+ metric].base
    let cell = cell & bandMask
    guard !packed else {
      nwp_prefetch(section + cell &* 8)
      return
    }
    let first = section + (cell &* stepCount &+ range.lowerBound) &* 2
    let last = section + (cell &* stepCount &+ range.upperBound - 1) &* 2
    // One prefetch per 64-byte line, aligned down so that the last line is not skipped.
    var line = UnsafeRawPointer(bitPattern: UInt(bitPattern: first) & ~63) ?? first
    while line <= last {
      nwp_prefetch(line)
      line += 64
    }
  }

  /// Latitudes of every cell (copied out of the mapping).
  public var latitudes: [Float] { latitudes(position: 0) }
  /// Longitudes of every cell (copied out of the mapping).
  public var longitudes: [Float] { longitudes(position: 0) }

  /// Whether the cube has a terrain section (cubes written before it have none, and read
  /// as terrain unknown).
  public var hasTerrain: Bool { terrainOffset != nil }

  /// The terrain height of `cell` in metres, nil where unknown (no section, or NaN in it).
  /// `cell` must be in range.
  public func terrainHeight(cell: Int) -> Double? { terrainHeight(cell: cell, position: 0) }

  /// Whether `cell` is land (true) or water (false), nil where unknown. `cell` must be in
  /// range.
  public func isLand(cell: Int) -> Bool? { isLand(cell: cell, position: 0) }

  /// The whole terrain section (copied out of the mapping), nil when the cube has none.
  public var terrain: CubeTerrain? { terrain(position: 0) }

  /// Whether `other` has this cube's grid: the same shape, the same projection record,
  /// the same positions used at the same steps, and byte for byte the same cell
  /// coordinates in every position. Every run of a domain whose grid does not move shares
  /// its grid, so a reader that already built locators for one run can use them for the
  /// next instead of building them again. The coordinates are compared, not their
  /// checksums: a crafted file with a colliding checksum must not borrow another grid's
  /// locator.
  public func hasSameGrid(as other: CubeFile) -> Bool {
    // Bit patterns, so that two absent (NaN) parameters compare equal.
    let (mine, theirs) = (header.projection, other.header.projection)
    guard header.width == other.header.width, header.height == other.header.height, mine.code == theirs.code,
      mine.parameters.map(\.bitPattern) == theirs.parameters.map(\.bitPattern), stepTable == other.stepTable
    else { return false }
    return (0..<positionCount).allSatisfy { position in
      verifiedCoordinates(position: position) && other.verifiedCoordinates(position: position)
        && Posix.bytesEqual(
          coordinates(position: position), other.coordinates(position: position), count: header.cells * 8)
    }
  }

  /// Where the coordinates of `position` start in the mapping: latitudes, then longitudes,
  /// `cells` f32 each. `position` must be in range.
  func coordinates(position: Int) -> UnsafeRawPointer {
    guard position > 0, let positionsOffset else { return base + geometryOffset }
    let record = CubeLayout.positionBytes(cells: header.cells, terrain: hasTerrain)
    return base + positionsOffset + CubeLayout.positionsPreambleBytes
      + CubeLayout.stepTableBytes(steps: header.stepCount) + (position - 1) * record
  }

  /// Where the terrain of `position` starts in the mapping: heights, then mask bytes, nil
  /// when the cube has no terrain section. `position` must be in range.
  func terrainBase(position: Int) -> UnsafeRawPointer? {
    guard let terrainOffset else { return nil }
    guard position > 0 else { return base + terrainOffset }
    return coordinates(position: position) + header.cells * 2 * MemoryLayout<Float>.size
  }
}
