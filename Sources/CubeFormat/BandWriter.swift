import Dispatch
import Platform

/// The writer of format version 3 (docs/cube-format.md, *Version 3*): the cube is written
/// front to back, once, by band of cells.
///
/// The words of one band (every step of every metric over the band's cells) are held in
/// memory (`BandWords`), where several threads may quantize a step each at once; the first
/// write to a later band packs the band held, metric by metric, exactly as a version 2
/// section over the band's cells, and appends it to the file (`BandPacker`). A band with
/// another after it is packed on a background thread while the next band's steps are
/// derived: those steps wait to be stored until the words are free again, or, with
/// `Layout.packsInBackground`, go into a second band's words at once. The geometry goes
/// out when the writer is made; the terrain, positions, locator index, band index and
/// checksum table at `publish()`, then the header. `CubeOutput` takes each 64 KiB block's
/// checksum as the block goes out, so nothing is read back and no page is written twice.
final class BandWriter {
  let destination: String
  let header: CubeHeader
  let temporaryPath: String
  /// Cells per band, a power of two, and the number of bands.
  let bandCells: Int
  let bandCount: Int
  private let positions: [CubeGrid]
  private let stepPositions: [Int]
  private let layout: CubeWriter.Layout
  /// The temporary file, -1 once published or abandoned.
  private var descriptor: Int32
  /// The output, which packing appends to band by band.
  private let packer: BandPacker
  /// The band whose words are held; every band before it is packed or being packed.
  private var band = 0
  /// The held band's words, `[metric][step][cell of the band]`: a step of a metric arrives
  /// as one contiguous row, and packing reads the rows a tile of cells at a time. Nil once
  /// published or abandoned.
  private var held: BandWords?
  /// With `packsInBackground`: the other band's words, being packed.
  private var spare: BandWords?
  /// The pack of the band before the held one, while it may be running.
  private var packing: BandPacker.Job?
  private let packingQueue = DispatchQueue(label: "nwpcube.band-packer")
  /// The first call that was refused, which `publish()` reports.
  private(set) var refusedWrite: String?

  /// Cells whose series are gathered together when a band is packed: enough that each
  /// step's read of a row spans whole cache lines, few enough for a long run's steps.
  static func tileCells(steps: Int) -> Int { max(1, min(64, 65_536 / max(steps, 1))) }

  /// The largest single item the output stages: one cell's payload at 16 bits, or a chunk
  /// of a table or of coordinates (`CubeOutput`'s appends), or a 64 KiB run of padding.
  static func largestItem(steps: Int) -> Int {
    max(65_536, SeriesFrame.payloadBytes(steps: steps, width: SeriesFrame.maximumWidth))
  }

  /// The memory a band of `bandCells` cells takes: its words (twice when a band is packed
  /// in the background while the next is filled), what each of the two threads that may
  /// pack a band at once holds (`BandPacker.Job`), and the output's staging.
  static func bandBytes(bandCells: Int, steps: Int, metrics: Int, packsInBackground: Bool = false) -> Int {
    (packsInBackground ? 2 : 1) * bandCells * steps * metrics * MemoryLayout<UInt16>.size
      + 2 * packingBytes(bandCells: bandCells, steps: steps)
      + CubeOutput.memoryBytes(largestItem: largestItem(steps: steps))
  }

  /// What one thread packing a band holds: its frames' table, its tile of series, and the
  /// sub-section it packs a metric into (a table entry and at most 16 bits a value for each
  /// cell, and the padding) until the sub-section may be appended.
  static func packingBytes(bandCells: Int, steps: Int) -> Int {
    bandCells * MemoryLayout<UInt64>.size
      + tileCells(steps: steps) * steps * MemoryLayout<UInt16>.size
      + bandCells
      * (CubeLayout.cellEntryBytes + SeriesFrame.payloadBytes(steps: steps, width: SeriesFrame.maximumWidth))
      + CubeLayout.sectionPadding
  }

  /// Creates the temporary file and writes the geometry, for a header and positions that
  /// `CubeWriter` has checked.
  init(
    header: CubeHeader, positions: [CubeGrid], stepPositions: [Int], destination: String, layout: CubeWriter.Layout
  ) throws(CubeError) {
    let cells = header.cells
    let steps = header.stepCount
    let bandCells = layout.bandCells ?? Self.powerOfTwo(atLeast: cells)
    guard bandCells > 0, bandCells <= 1 << 31, bandCells & (bandCells - 1) == 0 else {
      throw CubeError(
        path: destination, reason: "cannot write: band cells \(bandCells) is not a power of two in 1…2147483648")
    }
    let bandCount = CubeLayout.Plan3.bandCount(cells: cells, bandCells: bandCells)
    guard bandCount <= CubeLayout.Version3.maxBands else {
      throw CubeError(
        path: destination,
        reason:
          "cannot write: \(cells) cells in bands of \(bandCells) is \(bandCount) bands, more than \(CubeLayout.Version3.maxBands)"
      )
    }
    // A payload's offset is a u32 from its sub-section's start: refused here, for the
    // largest sub-section the band could need, rather than after hours of ingest.
    let held = min(bandCells, cells)
    let largest = CubeLayout.Plan3.subsectionBytes(cells: held, steps: steps).upperBound
    guard largest <= Int(UInt32.max) else {
      throw CubeError(
        path: destination,
        reason:
          "cannot write: a band of \(held) cells over \(steps) steps may take \(largest) bytes per metric, more than the 4 GiB a sub-section's 32-bit offsets address; use smaller bands"
      )
    }
    if let index = layout.locatorIndex, index.isEmpty {
      throw CubeError(path: destination, reason: "cannot write: the locator index has no bytes")
    }
    self.destination = destination
    self.header = header
    self.bandCells = bandCells
    self.bandCount = bandCount
    self.positions = positions
    self.stepPositions = stepPositions
    self.layout = layout
    let directory = FileSystem.directory(of: destination)
    try FileSystem.makeDirectories(directory, for: destination)
    temporaryPath = TemporaryFiles.path(for: destination)
    descriptor = try CubeWriter.createLocked(temporaryPath)
    // Sized to its header at once: a cleaner takes an empty temporary file for a writer
    // between creating and locking it and keeps it for a while (`TemporaryFiles`), so a
    // writer killed before its first band must leave a file that is not empty. The header
    // is written over these zeros at `publish()`.
    let headerEnd = CubeLayout.Plan3.geometryOffset(metricCount: header.metrics.count)
    do {
      try Posix.ftruncate(descriptor, to: headerEnd)
    } catch {
      Posix.close(descriptor)
      try? Posix.unlink(temporaryPath)
      throw CubeError(path: temporaryPath, reason: "cannot size to \(headerEnd) bytes: \(error.text)")
    }
    self.held = BandWords(bandCells: held, cells: held, steps: steps, metrics: header.metrics)
    var output = CubeOutput(
      descriptor: descriptor, start: CubeLayout.Plan3.geometryOffset(metricCount: header.metrics.count),
      largestItem: Self.largestItem(steps: steps))
    output.append(littleEndian: positions[0].latitudes)
    output.append(littleEndian: positions[0].longitudes)
    packer = BandPacker(output: output, steps: steps, metrics: header.metrics.count)
  }

  deinit { abandon() }

  /// The smallest power of two at least `count` (1 for 1): one band over every cell.
  static func powerOfTwo(atLeast count: Int) -> Int {
    count <= 1 ? 1 : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
  }

  /// The cells of band `band` (empty for a band that does not exist).
  func cells(ofBand band: Int) -> Range<Int> {
    guard (0..<bandCount).contains(band) else { return 0..<0 }
    return CubeLayout.Plan3.cells(ofBand: band, bandCells: bandCells, cells: header.cells)
  }

  /// Records a refused call (the first is kept) and returns what `write` returns for it.
  func refuse(_ reason: String, returning cell: Int) -> Int {
    if refusedWrite == nil { refusedWrite = reason }
    return cell
  }

  /// See `CubeWriter.write(band:metric:step:values:)`.
  func write(band: Int, metric: Int, step: Int, values: UnsafeBufferPointer<Double>) -> Int? {
    let call = "write(band: \(band), metric: \(metric), step: \(step)) with \(values.count) values"
    if let (problem, cell) = refusal(ofBand: band, call: call) { return refuse(problem, returning: cell) }
    let range = cells(ofBand: band)
    guard header.metrics.indices.contains(metric), (0..<header.stepCount).contains(step), values.count == range.count
    else {
      return refuse(
        "\(call): the cube has \(header.metrics.count) metrics, \(header.stepCount) steps and \(range.count) cells in band \(band)",
        returning: range.lowerBound)
    }
    guard let row = words(ofBand: band, call: call)?.claim(step: step) else {
      return refuse("\(call) while another write of step \(step) was under way", returning: range.lowerBound)
    }
    return row.store(metric: metric, values: values).map { range.lowerBound + $0 }
  }

  /// Why band `band` cannot be written now, and the cell a refused write returns (the
  /// band's first, 0 for a band that does not exist); nil when it can.
  private func refusal(ofBand band: Int, call: String) -> (String, Int)? {
    guard descriptor >= 0 else { return ("\(call) after the cube was published or abandoned", 0) }
    guard (0..<bandCount).contains(band) else { return ("\(call): there are \(bandCount) bands", 0) }
    guard band >= self.band else {
      return (
        "\(call) after band \(self.band) was begun: bands are written in order, and band \(band) is already in the file",
        cells(ofBand: band).lowerBound
      )
    }
    return nil
  }

  /// The words of band `band`, to fill a step at a time from any thread (`BandWords.claim`),
  /// packing the band held and any band skipped (missing throughout) first; nil, refused
  /// (`refusedWrite`), for a band that does not exist or is already packed, or after
  /// `publish()` or `abandon()`. `call` names the caller in the refusal.
  func words(ofBand band: Int, call: String) -> BandWords? {
    if let (problem, cell) = refusal(ofBand: band, call: call) {
      _ = refuse(problem, returning: cell)
      return nil
    }
    while self.band < band { packBand() }
    return held
  }

  /// Packs the held band into the output and holds the next band, missing throughout.
  ///
  /// With a band after it, the band is packed on the background thread: with
  /// `packsInBackground` from these words while the next band fills the other ones;
  /// otherwise the words are sealed to be held again (`BandWords.seal(reopening:)`), so
  /// that the next band's steps are derived while the band is packed and wait only to be
  /// stored. The last band is packed at once, on this thread and the background one.
  private func packBand() {
    let next = cells(ofBand: band + 1).count
    band += 1
    guard let words = held else { return }
    // The previous band's pack is over (this thread helps it there): its words are this
    // band's, or ready for the next.
    finishPacking()
    guard words.seal(reopening: next > 0 && !layout.packsInBackground) else {
      // Every write of a step ends before the call that packs its band is made: a claim
      // still held is the caller's fault, and the cube is not published.
      _ = refuse("band \(band - 1) was packed while a step of it was still being written", returning: 0)
      return
    }
    if next > 0, layout.packsInBackground {
      held =
        spare
        ?? BandWords(
          bandCells: min(bandCells, header.cells), cells: next, steps: header.stepCount, metrics: header.metrics)
      spare = words
    }
    // Once packed, the words are held again: for the band after the next with a second
    // set of words, for the next without (the last band may be shorter: the allocation of
    // a full band is kept). Failures are the output's, reported at `publish()`.
    let after = cells(ofBand: band + (layout.packsInBackground ? 1 : 0)).count
    guard let job = packer.job(words, finished: { if after > 0 { _ = words.reset(cells: after) } }) else {
      _ = refuse("band \(band - 1) could not be packed", returning: 0)
      return
    }
    packing = job
    packingQueue.async { job.work() }
    // Nothing is derived beside the last band: this thread packs it too.
    if next == 0 { finishPacking() }
  }

  /// Joins the pack under way, if any, and waits for its end.
  private func finishPacking() {
    guard let job = packing else { return }
    job.work()
    job.wait()
    packing = nil
  }

  /// Packs the bands left (those never written are missing throughout), writes the
  /// sections after the data, the checksum table and the header, and publishes the cube.
  func publish() throws(CubeError) -> String {
    guard descriptor >= 0 else { throw CubeError(path: destination, reason: "cube was already published") }
    if let refusedWrite {
      abandon()
      throw CubeError(path: destination, reason: "cannot publish: a write was refused: \(refusedWrite)")
    }
    while band < bandCount { packBand() }
    finishPacking()
    held = nil
    spare = nil
    if let refusedWrite {
      abandon()
      throw CubeError(path: destination, reason: "cannot publish: \(refusedWrite)")
    }
    let cells = header.cells
    let terrain = positions[0].terrain
    let subsectionBytes = packer.withPacked { $0.subsectionBytes }
    let plan = CubeLayout.Plan3(
      cells: cells, steps: header.stepCount, metricCount: header.metrics.count, bandCells: bandCells,
      subsectionBytes: subsectionBytes, terrain: terrain != nil, positions: positions.count,
      locatorIndexBytes: layout.locatorIndex?.count ?? 0)
    // The plan is the layout's one definition: the data just streamed must be where it says.
    guard plan.subsectionOffsets == packer.withPacked({ $0.subsectionOffsets }) else {
      abandon()
      throw CubeError(path: destination, reason: "cannot write: the data sections are not where the layout puts them")
    }
    let failure = packer.withPacked { packed in finish(&packed.output, plan: plan) }
    if let failure {
      abandon()
      throw CubeError(path: temporaryPath, reason: failure)
    }
    let cube = descriptor
    descriptor = -1
    return try CubeWriter.publish(cube, temporaryPath: temporaryPath, destination: destination)
  }

  /// Appends the sections after the data and the checksum table to `output`, then writes
  /// the header; returns the first failure, nil when all is written.
  private func finish(_ output: inout CubeOutput, plan: CubeLayout.Plan3) -> String? {
    if let terrain = positions[0].terrain {
      output.pad(to: plan.terrainOffset)
      appendTerrain(terrain, to: &output)
    }
    if plan.positionsBytes > 0 {
      output.pad(to: plan.positionsOffset)
      appendPositions(to: &output)
    }
    if let index = layout.locatorIndex {
      output.pad(to: plan.locatorIndexOffset)
      index.withUnsafeBytes { output.append($0) }
    }
    output.pad(to: plan.bandIndexOffset)
    output.append(littleEndian: zip(plan.subsectionOffsets, plan.subsectionBytes).flatMap { [UInt64($0), UInt64($1)] })
    output.pad(to: plan.checksumTableOffset)
    // The checksum table goes out through the output too, so that the file's last page is
    // written once.
    let checksums = output.endChecksums()
    var table = [UInt8](repeating: 0, count: checksums.count * MemoryLayout<UInt64>.size)
    table.withUnsafeMutableBytes { bytes in
      for (index, checksum) in checksums.enumerated() {
        bytes.storeBytes(of: checksum.littleEndian, toByteOffset: index * 8, as: UInt64.self)
      }
    }
    table.withUnsafeBytes { output.append($0) }
    output.flush()
    var headerBytes = [UInt8](repeating: 0, count: plan.geometryOffset)
    headerBytes.withUnsafeMutableBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      writeHeader(base, plan: plan, checksumTableHash: XXH64.hash(table))
    }
    return output.failure
      ?? (table.count == plan.checksumTableBytes && output.offset == plan.fileBytes
        ? nil : "the checksum table does not cover the file as the layout says")
      ?? headerBytes.withUnsafeBytes { CubeOutput.write(descriptor, $0, at: 0) }
  }

  /// Heights, then the mask bytes: the heights stay 4-byte aligned.
  private func appendTerrain(_ terrain: CubeTerrain, to output: inout CubeOutput) {
    output.append(littleEndian: terrain.heights)
    terrain.landMask.withUnsafeBytes { output.append($0) }
  }

  /// The positions section (docs/cube-format.md, *Positions*): the count, each step's
  /// position, then each position after the first, every part padded to 8 bytes.
  private func appendPositions(to output: inout CubeOutput) {
    let start = output.offset
    output.withSpace(CubeLayout.positionsPreambleBytes) {
      $0.storeBytes(of: UInt32(positions.count).littleEndian, as: UInt32.self)
    }
    output.append(littleEndian: stepPositions.map { UInt32($0) })
    output.pad(to: start + CubeLayout.positionsPreambleBytes + CubeLayout.stepTableBytes(steps: header.stepCount))
    for position in positions.dropFirst() {
      let record = output.offset
      output.append(littleEndian: position.latitudes)
      output.append(littleEndian: position.longitudes)
      if let terrain = position.terrain { appendTerrain(terrain, to: &output) }
      output.pad(to: record + CubeLayout.positionBytes(cells: header.cells, terrain: position.terrain != nil))
    }
  }

  /// The header: the fields every version shares, the data bytes of each metric, and the
  /// version 3 record; version 2's per-section checksums and data offsets stay 0.
  private func writeHeader(_ base: UnsafeMutableRawPointer, plan: CubeLayout.Plan3, checksumTableHash: UInt64) {
    let flags =
      (plan.terrainBytes > 0 ? CubeLayout.terrainFlag : 0) | (plan.positionsBytes > 0 ? CubeLayout.positionsFlag : 0)
    CubeWriter.writeHeader(
      base, header, version: CubeLayout.bandVersion, headerBytes: plan.headerBytes, fileBytes: plan.fileBytes,
      geometry: plan.geometryOffset..<plan.geometryOffset + plan.geometryBytes, flags: flags,
      terrain: plan.terrainOffset..<plan.terrainOffset + plan.terrainBytes,
      dataBytes: header.metrics.indices.map { plan.dataBytes(metric: $0) }
    ) { base in
      typealias V3 = CubeLayout.Version3
      let record = base + plan.recordOffset
      record.setLE(UInt32(plan.bandCells), at: V3.bandCellsOffset)
      record.setLE(UInt32(plan.bandCount), at: V3.bandCountOffset)
      record.setLE(UInt64(plan.bandIndexOffset), at: V3.bandIndexOffsetOffset)
      record.setLE(UInt64(plan.bandIndexBytes), at: V3.bandIndexBytesOffset)
      record.setLE(UInt64(plan.checksumTableOffset), at: V3.checksumTableOffsetOffset)
      record.setLE(UInt64(plan.checksumTableBytes), at: V3.checksumTableBytesOffset)
      record.setLE(checksumTableHash, at: V3.checksumTableChecksumOffset)
      record.setLE(UInt32(V3.checksumBlockBytes), at: V3.checksumBlockBytesOffset)
      let geometryFlags =
        (layout.projectionChecked ? V3.projectionCheckedFlag : 0)
        | (plan.locatorIndexBytes > 0 ? V3.locatorIndexFlag : 0)
      record.setLE(geometryFlags, at: V3.geometryFlagsOffset)
      record.setLE(UInt64(plan.locatorIndexOffset), at: V3.locatorIndexOffsetOffset)
      record.setLE(UInt64(plan.locatorIndexBytes), at: V3.locatorIndexBytesOffset)
      record.setLE(header.inputConvention, at: V3.inputConventionOffset)
    }
  }

  /// Discards the temporary file; nothing becomes visible.
  func abandon() {
    guard descriptor >= 0 else { return }
    // A band being packed in the background writes to the file until it is done, and so
    // does the output's write in flight.
    finishPacking()
    packer.withPacked { $0.output.stopWriting() }
    Posix.close(descriptor)
    try? Posix.unlink(temporaryPath)
    descriptor = -1
    held = nil
    spare = nil
  }
}
