import Platform

/// The writer of format versions 1 and 2, kept so that tests and fixtures of their readers
/// can still make them (`CubeWriter`'s package-level `formatVersion:`); version 3's is
/// `BandWriter`.
///
/// Values arrive one time step at a time but are stored time-contiguous per cell. Words are
/// gathered first in a word area laid out as version 1's blocks, `u16[cells][steps]` per
/// metric: the cube file itself when writing version 1, an unlinked scratch file when
/// writing version 2, whose sections `publish()` packs from it once every step is known
/// (a series' frame needs all its steps). The writer gathers a block of steps of every
/// metric in memory (at most `bufferBytes`, as many steps as fit) and then writes each
/// cell's run of the block's steps contiguously into a shared file mapping: scattering
/// every word straight into the mapping touched one cache line per cell, metric and step.
/// Where not even two steps fit, words are scattered straight into the mapping.
final class WordAreaWriter {
  /// The final path of the cube.
  let destination: String
  /// The header being written.
  let header: CubeHeader
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

  /// Creates the temporary file (version 1) or the scratch word area (version 2) of a cube
  /// whose header and positions `CubeWriter` has checked, with the block buffer limited to
  /// `bufferBytes` (tests use small limits to exercise blocks and their flushes).
  init(
    header: CubeHeader, positions: [CubeGrid], stepPositions: [Int], destination: String, bufferBytes: Int,
    formatVersion: UInt32
  ) throws(CubeError) {
    self.destination = destination
    self.header = header
    self.formatVersion = formatVersion
    (self.positions, self.stepPositions) = (positions, stepPositions)
    plan = CubeLayout.Plan(
      cells: header.cells, steps: header.stepCount, metricCount: header.metrics.count,
      terrain: positions[0].terrain != nil,
      positions: positions.count)
    // One step of every metric; the limits `CubeWriter` checked keep this product small.
    let stepBytes = header.cells * header.metrics.count * MemoryLayout<UInt16>.size
    let fitting = min(header.stepCount, bufferBytes / max(stepBytes, 1))
    blockSteps = fitting >= 2 ? fitting : 0
    temporaryPath = TemporaryFiles.path(for: destination)
    let packs = formatVersion != CubeLayout.wordVersion
    let blockBytes = header.cells * header.stepCount * MemoryLayout<UInt16>.size
    wordOffsets = packs ? header.metrics.indices.map { $0 * blockBytes } : plan.dataOffsets
    mappedBytes = packs ? max(blockBytes * header.metrics.count, 1) : plan.fileBytes
    descriptor = try CubeWriter.createLocked(temporaryPath)
    // Version 2's words are scratch: unlinked at once, so that nothing is left of them
    // whatever happens to this process. The cube gets the name back at `publish()`.
    if packs { try? Posix.unlink(temporaryPath) }
    let mapping: UnsafeMutableRawPointer
    do {
      mapping = try Self.sizeAndMap(descriptor, bytes: mappedBytes)
    } catch {
      Posix.close(descriptor)
      if !packs { try? Posix.unlink(temporaryPath) }
      throw CubeError(path: temporaryPath, reason: "cannot size and map \(mappedBytes) bytes: \(error.text)")
    }
    base = mapping
    for offset in wordOffsets {
      (mapping + offset).initializeMemory(as: UInt8.self, repeating: 0xFF, count: blockBytes)
    }
    if !packs { writeGeometryAndTerrain(mapping, plan: plan) }
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
  func write(metric: Int, step: Int, values: [Double]) -> Int? {
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
  func publish() throws(CubeError) -> String {
    guard let base else { throw CubeError(path: destination, reason: "cube was already published") }
    flushBlock()
    block = []
    if formatVersion != CubeLayout.wordVersion {
      // The words' scratch file goes once the sections are packed from it; the descriptor
      // and mapping become the cube's.
      let packed = Result { () throws(CubeError) in try pack(words: UnsafeRawPointer(base)) }
      Posix.munmap(base, bytes: mappedBytes)
      Posix.close(descriptor)
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
    let cube = try CubeWriter.createLocked(temporaryPath)
    // Zero-filled by `ftruncate`: the padding, and the unused bits of every payload's last byte.
    let mapping: UnsafeMutableRawPointer
    do {
      mapping = try Self.sizeAndMap(cube, bytes: plan.fileBytes)
    } catch {
      Posix.close(cube)
      try? Posix.unlink(temporaryPath)
      throw CubeError(path: temporaryPath, reason: "cannot size and map \(plan.fileBytes) bytes: \(error.text)")
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
    let flushed = (try? Posix.msync(mapping, bytes: bytes)) != nil
    Posix.munmap(mapping, bytes: bytes)
    self.base = nil
    let cube = descriptor
    descriptor = -1
    return try CubeWriter.publish(cube, temporaryPath: temporaryPath, destination: destination, flushed: flushed)
  }

  /// Discards the temporary file; nothing becomes visible.
  func abandon() {
    if let base { Posix.munmap(base, bytes: mappedBytes) }
    base = nil
    if descriptor >= 0 {
      Posix.close(descriptor)
      // Version 2's scratch file was unlinked when it was made.
      if formatVersion == CubeLayout.wordVersion { try? Posix.unlink(temporaryPath) }
      descriptor = -1
    }
  }

  /// The file sized to `bytes` (zero-filled) and mapped read-write, shared.
  private static func sizeAndMap(_ descriptor: Int32, bytes: Int) throws(Errno) -> UnsafeMutableRawPointer {
    try Posix.ftruncate(descriptor, to: bytes)
    return try Posix.mmap(descriptor, bytes: bytes, writable: true)
  }

  /// Writes the header: the fields every version shares, then version 1 and 2's checksum
  /// per section, taken from the mapping.
  private func writeHeader(_ base: UnsafeMutableRawPointer, plan: CubeLayout.Plan) {
    func hash(_ offset: Int, _ bytes: Int) -> UInt64 {
      bytes > 0 ? XXH64.hash(UnsafeRawBufferPointer(start: base + offset, count: bytes)) : 0
    }
    let flags =
      (plan.terrainBytes > 0 ? CubeLayout.terrainFlag : 0) | (plan.positionsBytes > 0 ? CubeLayout.positionsFlag : 0)
    CubeWriter.writeHeader(
      base, header, version: formatVersion, headerBytes: plan.headerBytes, fileBytes: plan.fileBytes,
      geometry: plan.geometryOffset..<plan.geometryOffset + plan.geometryBytes, flags: flags,
      terrain: plan.terrainOffset..<plan.terrainOffset + plan.terrainBytes, dataBytes: plan.dataBytes
    ) { base in
      base.setLE(hash(plan.geometryOffset, plan.geometryBytes), at: CubeLayout.geometryChecksumOffset)
      base.setLE(hash(plan.terrainOffset, plan.terrainBytes), at: CubeLayout.terrainChecksumOffset)
      base.setLE(hash(plan.positionsOffset, plan.positionsBytes), at: CubeLayout.positionsChecksumOffset)
      for index in header.metrics.indices {
        let entry = CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes
        base.setLE(UInt64(plan.dataOffsets[index]), at: entry + CubeLayout.dataOffsetOffset)
        // A version 2 section is never empty (its padding at least), nor a version 1 block.
        base.setLE(
          XXH64.hash(UnsafeRawBufferPointer(start: base + plan.dataOffsets[index], count: plan.dataBytes[index])),
          at: entry + CubeLayout.dataChecksumOffset)
      }
    }
  }
}
