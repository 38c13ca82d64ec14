#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a cube into a hidden temporary file next to its destination and publishes it
/// atomically: checksums, `msync`, `fsync`, `rename`, then `fsync` of the directory. Until
/// `publish()` returns, readers see the previous cube or none, never a partial one. The
/// temporary file is named and locked as `TemporaryFiles` describes, so that one left by a
/// killed writer is recognised and removed later.
///
/// Values arrive one time step at a time but are stored time-contiguous per cell. Words are
/// gathered first in a word area laid out as version 1's blocks, `u16[cells][steps]` per
/// metric: the cube file itself when writing version 1, an unlinked scratch file when
/// writing version 2, whose sections `publish()` packs from it once every step is known
/// (a series' frame needs all its steps). The writer gathers a block of steps of every metric in memory (at most `bufferBudget` bytes, as
/// many steps as fit) and then writes each cell's run of the block's steps contiguously into
/// a shared file mapping: scattering every word straight into the mapping touched one cache
/// line per cell, metric and step, 14 % of an ingest's time. Where not even two steps fit
/// (a grid of millions of cells), words are scattered straight into the mapping, so memory
/// stays bounded whatever the grid.
public final class CubeWriter {
  /// The final path of the cube.
  public let destination: String
  /// The header being written.
  public let header: CubeHeader
  let temporaryPath: String
  /// The format version written: 2, or 1 for tests and fixtures of version 1 readers.
  let formatVersion: UInt32
  /// Version 1's plan: where the word area's blocks are in a version 1 file.
  private let plan: CubeLayout.Plan
  /// The temporary cube file (version 1), or the unlinked scratch file of the words
  /// (version 2) until `publish()`.
  private var descriptor: Int32
  /// The mapping of `descriptor`: the cube (version 1) or the words (version 2).
  private var base: UnsafeMutableRawPointer?
  /// Bytes mapped at `base`.
  private let mappedBytes: Int
  /// Where each metric's words start in the mapping.
  private let wordOffsets: [Int]
  /// Every position of the grid, the first the geometry block's (docs/cube-format.md,
  /// *Positions*): one for a grid that does not move.
  private let positions: [CubeGrid]
  /// Each step's position, canonical.
  private let stepPositions: [Int]
  /// Position 0's terrain, which decides whether the cube has a terrain section.
  private var terrain: CubeTerrain? { positions[0].terrain }
  /// Steps per block, 0 when words go straight into the mapping.
  private let blockSteps: Int
  /// The current block's words, `[metric][step - blockStart][cell]`, little-endian.
  private var block: [UInt16] = []
  /// The current block's index (its first step over `blockSteps`), nil before the first write.
  private var blockIndex: Int?
  /// Blocks already in the mapping: revisiting one (steps out of order) reads it back.
  private var flushedBlocks: Set<Int> = []

  /// The most memory the block of steps may take, bytes.
  public static let bufferBudget = 32 << 20

  /// Creates the temporary file, sized and filled with "missing", and writes the geometry
  /// and, when given, the terrain section (a cube without one reads as terrain unknown).
  public convenience init(
    header: CubeHeader, latitudes: [Float], longitudes: [Float], terrain: CubeTerrain? = nil, destination: String
  ) throws(CubeError) {
    try self.init(
      header: header, latitudes: latitudes, longitudes: longitudes, terrain: terrain, destination: destination,
      bufferBytes: Self.bufferBudget)
  }

  /// As the public initializer, with the block buffer and format version of
  /// `init(header:positions:stepPositions:destination:bufferBytes:formatVersion:)`.
  package convenience init(
    header: CubeHeader, latitudes: [Float], longitudes: [Float], terrain: CubeTerrain? = nil, destination: String,
    bufferBytes: Int = CubeWriter.bufferBudget, formatVersion: UInt32 = CubeLayout.version
  ) throws(CubeError) {
    try self.init(
      header: header, positions: [CubeGrid(latitudes: latitudes, longitudes: longitudes, terrain: terrain)],
      stepPositions: Self.unmoved(steps: header.stepCount), destination: destination,
      bufferBytes: bufferBytes, formatVersion: formatVersion)
  }

  /// Creates the temporary file of a cube whose grid takes `positions` (the first is the
  /// geometry block's), step t at `positions[stepPositions[t]]`, numbered in order of first
  /// use (docs/cube-format.md, *Positions*). Every position has terrain or none does. One
  /// position writes exactly what `init(header:latitudes:longitudes:terrain:destination:)`
  /// writes.
  public convenience init(
    header: CubeHeader, positions: [CubeGrid], stepPositions: [Int], destination: String
  ) throws(CubeError) {
    try self.init(
      header: header, positions: positions, stepPositions: stepPositions, destination: destination,
      bufferBytes: Self.bufferBudget)
  }

  /// As the public initializers, with the block buffer limited to `bufferBytes` (tests use
  /// small limits to exercise blocks and their flushes on small cubes) and the format
  /// version `formatVersion` (1 for tests of version 1 readers).
  package init(
    header: CubeHeader, positions: [CubeGrid], stepPositions: [Int], destination: String,
    bufferBytes: Int = CubeWriter.bufferBudget, formatVersion: UInt32 = CubeLayout.version
  ) throws(CubeError) {
    self.destination = destination
    self.header = header
    self.formatVersion = formatVersion
    (self.positions, self.stepPositions) = (positions, stepPositions)
    guard CubeLayout.versions.contains(formatVersion) else {
      throw CubeError(path: destination, reason: "cannot write: format version \(formatVersion) is not 1 or 2")
    }
    // The reader's limits, so that no cube is written that readers refuse, and so that the
    // layout below is computed from a shape whose sizes cannot overflow.
    if let problem = CubeLimits.problem(in: header) ?? Self.positionsProblem(positions, stepPositions, header) {
      throw CubeError(path: destination, reason: "cannot write: \(problem)")
    }
    plan = CubeLayout.Plan(
      cells: header.cells, steps: header.stepCount, metricCount: header.metrics.count,
      terrain: positions[0].terrain != nil,
      positions: positions.count)
    // One step of every metric; the limits above keep this product small enough.
    let stepBytes = header.cells * header.metrics.count * MemoryLayout<UInt16>.size
    let fitting = min(header.stepCount, bufferBytes / max(stepBytes, 1))
    blockSteps = fitting >= 2 ? fitting : 0
    let directory = FileSystem.directory(of: destination)
    try FileSystem.makeDirectories(directory, for: destination)
    temporaryPath = TemporaryFiles.path(for: destination)
    let packs = formatVersion != CubeLayout.wordVersion
    let blockBytes = header.cells * header.stepCount * MemoryLayout<UInt16>.size
    wordOffsets = packs ? header.metrics.indices.map { $0 * blockBytes } : plan.dataOffsets
    mappedBytes = packs ? max(blockBytes * header.metrics.count, 1) : plan.fileBytes
    descriptor = try Self.createLocked(temporaryPath)
    // Version 2's words are scratch: unlinked at once, so that nothing is left of them
    // whatever happens to this process. The cube gets the name back at `publish()`.
    if packs { unlink(temporaryPath) }
    guard ftruncate(descriptor, off_t(mappedBytes)) == 0,
      let mapping = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
      mapping != MAP_FAILED
    else {
      let reason = "cannot size and map \(mappedBytes) bytes: \(FileSystem.errnoText())"
      close(descriptor)
      if !packs { unlink(temporaryPath) }
      throw CubeError(path: temporaryPath, reason: reason)
    }
    base = mapping
    for offset in wordOffsets {
      (mapping + offset).initializeMemory(as: UInt8.self, repeating: 0xFF, count: blockBytes)
    }
    if !packs { writeGeometryAndTerrain(mapping, plan: plan) }
  }

  /// The step table of a grid that does not move: position 0 throughout. Bounded by the
  /// limit, so that a header the limits refuse is refused rather than allocated for.
  private static func unmoved(steps: Int) -> [Int] {
    [Int](repeating: 0, count: min(max(steps, 0), CubeLimits.stepCount.upperBound))
  }

  /// What is wrong with a grid's positions and step table for `header`, nil when a reader
  /// will accept them: the reader's checks, made before anything is written.
  private static func positionsProblem(
    _ positions: [CubeGrid], _ stepPositions: [Int], _ header: CubeHeader
  )
    -> String?
  {
    guard let first = positions.first else { return "a grid needs at least one position" }
    guard positions.count <= min(CubeLimits.positions.upperBound, header.stepCount) else {
      return
        "\(positions.count) positions is more than \(CubeLimits.positions.upperBound) or the \(header.stepCount) steps"
    }
    guard stepPositions.count == header.stepCount else {
      return "\(stepPositions.count) step positions for \(header.stepCount) steps"
    }
    if let problem = CubeLimits.stepPositionsProblem(stepPositions, positionCount: positions.count) {
      return problem
    }
    for (index, position) in positions.enumerated() {
      guard (position.terrain == nil) == (first.terrain == nil) else {
        return
          "position \(index) \(position.terrain == nil ? "has no" : "has a") terrain, position 0 \(first.terrain == nil ? "none" : "one"): every position has terrain or none does"
      }
      // Position 0's coordinates are stored as read, as they always were; the moved ones
      // are checked as a reader checks them.
      if let problem = position.problem(cells: header.cells, checkCoordinates: index > 0) {
        return index == 0 ? problem : "position \(index) \(problem)"
      }
    }
    return nil
  }

  /// A new temporary file at `path`, locked. A file under this name is a leftover of an
  /// earlier process with this PID: it is replaced by a new file (a new inode), never
  /// written over, so that no one else's open descriptor or mapping ever sees these writes.
  private static func createLocked(_ path: String) throws(CubeError) -> Int32 {
    unlink(path)
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw CubeError(path: path, reason: "cannot create: \(FileSystem.errnoText())")
    }
    // Held until the rename: it tells `TemporaryFiles` that the writer lives, whatever its PID
    // means to the process looking. Where locks are unsupported the cleaner keeps files whose
    // PID exists, so failing to lock is no error.
    _ = flock(descriptor, LOCK_EX)
    return descriptor
  }

  /// Writes the coordinates, the terrain section when there is one, and the positions
  /// section when the grid moves, where `plan` puts them. The mapping is zero-filled, so
  /// the padding is left as it is.
  private func writeGeometryAndTerrain(_ mapping: UnsafeMutableRawPointer, plan: CubeLayout.Plan) {
    let cells = header.cells
    func write(_ values: [Float], at start: UnsafeMutableRawPointer) {
      for cell in 0..<cells { start.setLE(values[cell].bitPattern, at: cell * MemoryLayout<Float>.size) }
    }
    // Heights, then the mask bytes: the heights stay 4-byte aligned.
    func write(_ terrain: CubeTerrain, at start: UnsafeMutableRawPointer) {
      write(terrain.heights, at: start)
      let masks = start + cells * MemoryLayout<Float>.size
      for cell in 0..<cells { masks.storeBytes(of: terrain.landMask[cell], toByteOffset: cell, as: UInt8.self) }
    }
    let geometry = mapping + plan.geometryOffset
    write(positions[0].latitudes, at: geometry)
    write(positions[0].longitudes, at: geometry + cells * MemoryLayout<Float>.size)
    if let terrain { write(terrain, at: mapping + plan.terrainOffset) }
    guard plan.positionsBytes > 0 else { return }
    let section = mapping + plan.positionsOffset
    section.setLE(UInt32(positions.count), at: 0)
    let table = section + CubeLayout.positionsPreambleBytes
    for (step, position) in stepPositions.enumerated() {
      table.setLE(UInt32(position), at: step * MemoryLayout<UInt32>.size)
    }
    let record = CubeLayout.positionBytes(cells: cells, terrain: terrain != nil)
    var next = table + CubeLayout.stepTableBytes(steps: header.stepCount)
    for position in positions.dropFirst() {
      write(position.latitudes, at: next)
      write(position.longitudes, at: next + cells * MemoryLayout<Float>.size)
      if let terrain = position.terrain { write(terrain, at: next + cells * 2 * MemoryLayout<Float>.size) }
      next += record
    }
  }

  deinit { abandon() }

  /// Stores one time step of one metric (`values[cell]`, NaN for missing). Returns the
  /// index of the first cell whose value the metric cannot represent, or nil when all fit;
  /// such cells are stored as missing.
  @discardableResult
  public func write(metric: Int, step: Int, values: [Double]) -> Int? {
    guard let base, header.metrics.indices.contains(metric), (0..<header.stepCount).contains(step),
      values.count == header.cells
    else { return 0 }
    let definition = header.metrics[metric]
    guard blockSteps > 0 else {
      let data = (base + wordOffsets[metric]).assumingMemoryBound(to: UInt16.self)
      return Self.store(values, definition, into: data + step, stride: header.stepCount)
    }
    if blockIndex != step / blockSteps { enterBlock(step / blockSteps) }
    let row = (metric * blockSteps + step % blockSteps) * header.cells
    return block.withUnsafeMutableBufferPointer { words in
      guard let start = words.baseAddress else { return 0 }
      return Self.store(values, definition, into: start + row, stride: 1)
    }
  }

  /// Quantizes `values` into every `stride`-th word from `destination`; returns the first
  /// cell the metric cannot represent, stored as missing.
  private static func store(
    _ values: [Double], _ definition: CubeMetric, into destination: UnsafeMutablePointer<UInt16>, stride: Int
  ) -> Int? {
    var firstBad: Int?
    values.withUnsafeBufferPointer { values in
      for cell in values.indices {
        let word = definition.quantize(values[cell])
        if word == nil, firstBad == nil { firstBad = cell }
        destination[cell * stride] = (word ?? CubeMetric.missing).littleEndian
      }
    }
    return firstBad
  }

  /// The steps of block `index`: `blockSteps` of them, fewer in the last block.
  private func steps(ofBlock index: Int) -> Range<Int> {
    index * blockSteps..<min((index + 1) * blockSteps, header.stepCount)
  }

  /// Writes the current block into the mapping and makes block `index` current: missing
  /// everywhere, or what the mapping holds when the block was written before.
  private func enterBlock(_ index: Int) {
    flushBlock()
    blockIndex = index
    if block.isEmpty {
      block = [UInt16](repeating: CubeMetric.missing, count: blockSteps * header.cells * header.metrics.count)
    } else {
      block.withUnsafeMutableBufferPointer { $0.update(repeating: CubeMetric.missing) }
    }
    guard flushedBlocks.contains(index) else { return }
    transferBlock(index, toMapping: false)
  }

  /// Writes the current block into the mapping, if there is one.
  private func flushBlock() {
    guard let index = blockIndex else { return }
    transferBlock(index, toMapping: true)
    flushedBlocks.insert(index)
    blockIndex = nil
  }

  /// Copies block `index` between the buffer and the mapping, cell by cell: the block's
  /// steps of one cell are contiguous in the mapping, and neighbouring cells share the
  /// buffer's cache lines.
  private func transferBlock(_ index: Int, toMapping: Bool) {
    guard let base else { return }
    let (cells, steps) = (header.cells, header.stepCount)
    let range = self.steps(ofBlock: index)
    block.withUnsafeMutableBufferPointer { words in
      for metric in header.metrics.indices {
        let data = (base + wordOffsets[metric]).assumingMemoryBound(to: UInt16.self)
        for cell in 0..<cells {
          let run = data + cell * steps + range.lowerBound
          var slot = metric * blockSteps * cells + cell
          for step in 0..<range.count {
            if toMapping { run[step] = words[slot] } else { words[slot] = run[step] }
            slot += cells
          }
        }
      }
    }
  }

  /// Finishes the header and checksums, flushes everything to disk and renames the cube
  /// into place. Returns the published path.
  public func publish() throws(CubeError) -> String {
    guard let base else { throw CubeError(path: destination, reason: "cube was already published") }
    flushBlock()
    block = []
    if formatVersion != CubeLayout.wordVersion {
      // The words' scratch file goes once the sections are packed from it; the descriptor
      // and mapping become the cube's.
      let packed = Result { () throws(CubeError) in try pack(words: UnsafeRawPointer(base)) }
      munmap(base, mappedBytes)
      close(descriptor)
      self.base = nil
      descriptor = -1
      let (cube, bytes, mapping) = try packed.get()
      (descriptor, self.base) = (cube, mapping)
      return try finish(mapping, bytes: bytes)
    }
    writeHeader(base, plan: plan)
    return try finish(base, bytes: plan.fileBytes)
  }

  /// Writes the version 2 cube packed from `words` (the word area) into a new temporary
  /// file under `temporaryPath`, header and checksums included; returns its locked
  /// descriptor, size and mapping.
  private func pack(
    words: UnsafeRawPointer
  ) throws(CubeError) -> (descriptor: Int32, bytes: Int, mapping: UnsafeMutableRawPointer) {
    let (cells, steps) = (header.cells, header.stepCount)
    // Each metric's table first: the frames give every section's size.
    var tables: [[UInt64]] = []
    var sizes: [Int] = []
    for (metric, definition) in header.metrics.enumerated() {
      var table = [UInt64](repeating: 0, count: cells)
      var next = cells * CubeLayout.cellEntryBytes
      let series = (words + wordOffsets[metric]).assumingMemoryBound(to: UInt16.self)
      for cell in 0..<cells {
        let frame = SeriesFrame.fitting(UnsafeBufferPointer(start: series + cell * steps, count: steps))
        guard next <= Int(UInt32.max) else {
          throw CubeError(
            path: destination,
            reason:
              "cannot write: metric \(definition.name)'s data passes 4 GiB at cell \(cell) of \(cells), more than a version 2 section's 32-bit offsets address"
          )
        }
        table[cell] = UInt64(next) | UInt64(frame.reference) << 32 | UInt64(frame.width) << 48
        next += SeriesFrame.payloadBytes(steps: steps, width: frame.width)
      }
      tables.append(table)
      sizes.append(next + CubeLayout.sectionPadding)
    }
    let plan = CubeLayout.Plan(
      cells: cells, dataBytes: sizes, terrain: terrain != nil, steps: steps, positions: positions.count)
    let cube = try Self.createLocked(temporaryPath)
    // Zero-filled by `ftruncate`: the padding, and the unused bits of every payload's last byte.
    guard ftruncate(cube, off_t(plan.fileBytes)) == 0,
      let mapping = mmap(nil, plan.fileBytes, PROT_READ | PROT_WRITE, MAP_SHARED, cube, 0), mapping != MAP_FAILED
    else {
      let reason = "cannot size and map \(plan.fileBytes) bytes: \(FileSystem.errnoText())"
      close(cube)
      unlink(temporaryPath)
      throw CubeError(path: temporaryPath, reason: reason)
    }
    writeGeometryAndTerrain(mapping, plan: plan)
    for (metric, table) in tables.enumerated() {
      let section = mapping + plan.dataOffsets[metric]
      let series = (words + wordOffsets[metric]).assumingMemoryBound(to: UInt16.self)
      for (cell, entry) in table.enumerated() {
        section.setLE(entry, at: cell * CubeLayout.cellEntryBytes)
        let frame = SeriesFrame(reference: UInt16(truncatingIfNeeded: entry >> 32), width: Int(entry >> 48))
        frame.pack(
          UnsafeBufferPointer(start: series + cell * steps, count: steps), into: section + Int(entry & 0xFFFF_FFFF))
      }
    }
    writeHeader(mapping, plan: plan)
    return (cube, plan.fileBytes, mapping)
  }

  /// Flushes the finished cube at `mapping` (`bytes` long, the temporary file's) to disk
  /// and renames it into place.
  private func finish(_ mapping: UnsafeMutableRawPointer, bytes: Int) throws(CubeError) -> String {
    let flushed = msync(mapping, bytes, MS_SYNC) == 0
    munmap(mapping, bytes)
    self.base = nil
    // The descriptor, and so the lock, is kept until the rename: a cleaner must never find
    // the finished file unlocked under its temporary name.
    defer {
      close(descriptor)
      descriptor = -1
    }
    guard flushed && fsync(descriptor) == 0 else {
      let reason = "cannot flush to disk: \(FileSystem.errnoText())"
      unlink(temporaryPath)
      throw CubeError(path: temporaryPath, reason: reason)
    }
    // Only ever a rename: a served cube is replaced, never written over or truncated (its
    // readers' mappings would change under them; see README, "Operating nwpcube").
    guard rename(temporaryPath, destination) == 0 else {
      let reason = "cannot rename into place: \(FileSystem.errnoText())"
      unlink(temporaryPath)
      throw CubeError(path: destination, reason: reason)
    }
    FileSystem.syncDirectory(FileSystem.directory(of: destination))
    return destination
  }

  /// Discards the temporary file; nothing becomes visible.
  public func abandon() {
    if let base { munmap(base, mappedBytes) }
    base = nil
    if descriptor >= 0 {
      close(descriptor)
      // Version 2's scratch file was unlinked when it was made.
      if formatVersion == CubeLayout.wordVersion { unlink(temporaryPath) }
      descriptor = -1
    }
  }

  private func writeHeader(_ base: UnsafeMutableRawPointer, plan: CubeLayout.Plan) {
    let h = header
    for (index, byte) in CubeLayout.magic.enumerated() { base.setLE(byte, at: index) }
    base.setLE(formatVersion, at: CubeLayout.versionOffset)
    base.setLE(UInt32(plan.headerBytes), at: CubeLayout.headerBytesOffset)
    base.setLE(UInt64(plan.fileBytes), at: CubeLayout.fileBytesOffset)
    base.setLE(UInt32(h.width), at: CubeLayout.widthOffset)
    base.setLE(UInt32(h.height), at: CubeLayout.heightOffset)
    base.setLE(UInt32(h.stepCount), at: CubeLayout.stepCountOffset)
    base.setLE(UInt32(h.metrics.count), at: CubeLayout.metricCountOffset)
    base.setLE(h.firstTime, at: CubeLayout.firstTimeOffset)
    base.setLE(h.stepSeconds, at: CubeLayout.stepSecondsOffset)
    base.setLE(h.runStart, at: CubeLayout.runStartOffset)
    base.setLE(h.gridSpacing, at: CubeLayout.gridSpacingOffset)
    base.setLE(h.projection.code, at: CubeLayout.projectionCodeOffset)
    for (index, value) in h.projection.parameters.enumerated() {
      base.setLE(value, at: CubeLayout.projectionParametersOffset + 8 * index)
    }
    base.setLE(UInt64(plan.geometryOffset), at: CubeLayout.geometryOffsetOffset)
    base.setLE(UInt64(plan.geometryBytes), at: CubeLayout.geometryBytesOffset)
    let geometry = UnsafeRawBufferPointer(start: base + plan.geometryOffset, count: plan.geometryBytes)
    base.setLE(XXH64.hash(geometry), at: CubeLayout.geometryChecksumOffset)
    let flags =
      (plan.terrainBytes > 0 ? CubeLayout.terrainFlag : 0) | (plan.positionsBytes > 0 ? CubeLayout.positionsFlag : 0)
    base.setLE(flags, at: CubeLayout.flagsOffset)
    base.setLE(UInt64(plan.terrainOffset), at: CubeLayout.terrainOffsetOffset)
    base.setLE(UInt64(plan.terrainBytes), at: CubeLayout.terrainBytesOffset)
    let terrainSection = UnsafeRawBufferPointer(start: base + plan.terrainOffset, count: plan.terrainBytes)
    base.setLE(plan.terrainBytes > 0 ? XXH64.hash(terrainSection) : 0, at: CubeLayout.terrainChecksumOffset)
    let positionsSection = UnsafeRawBufferPointer(start: base + plan.positionsOffset, count: plan.positionsBytes)
    base.setLE(plan.positionsBytes > 0 ? XXH64.hash(positionsSection) : 0, at: CubeLayout.positionsChecksumOffset)
    base.setText(h.model, at: CubeLayout.modelOffset, bytes: CubeLayout.modelBytes)
    base.setText(h.domain, at: CubeLayout.domainOffset, bytes: CubeLayout.domainBytes)
    for (index, metric) in h.metrics.enumerated() {
      let entry = CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes
      base.setText(metric.name, at: entry, bytes: CubeLayout.nameBytes)
      base.setText(metric.unit, at: entry + CubeLayout.unitOffset, bytes: CubeLayout.unitBytes)
      base.setLE(metric.temporal, at: entry + CubeLayout.temporalOffset)
      base.setLE(CubeMetric.missing, at: entry + CubeLayout.sentinelOffset)
      base.setLE(metric.scale, at: entry + CubeLayout.scaleOffset)
      base.setLE(metric.offset, at: entry + CubeLayout.valueOffsetOffset)
      base.setLE(UInt64(plan.dataOffsets[index]), at: entry + CubeLayout.dataOffsetOffset)
      base.setLE(UInt64(plan.dataBytes[index]), at: entry + CubeLayout.dataBytesOffset)
      let data = UnsafeRawBufferPointer(start: base + plan.dataOffsets[index], count: plan.dataBytes[index])
      base.setLE(XXH64.hash(data), at: entry + CubeLayout.dataChecksumOffset)
    }
    // The header checksum covers the whole header with its own field still zero.
    base.setLE(UInt64(0), at: CubeLayout.headerChecksumOffset)
    let headerBytes = UnsafeRawBufferPointer(start: base, count: plan.headerBytes)
    base.setLE(XXH64.hash(headerBytes), at: CubeLayout.headerChecksumOffset)
  }
}
