/// Writes a cube into a hidden temporary file next to its destination and publishes it
/// atomically: `fsync`, `rename`, then `fsync` of the directory. Until `publish()` returns,
/// readers see the previous cube or none, never a partial one. The temporary file is named
/// and locked as `TemporaryFiles` describes, so that one left by a killed writer is
/// recognised and removed later.
///
/// The cube is written in format version 3 (docs/cube-format.md, *Version 3*) by band of
/// cells: the writer holds one band's words (`bandBytes(bandCells:steps:metrics:)`), and
/// appends each band to the file, in its final place, when the next band begins. Values
/// arrive one time step of one metric of one band at a time, steps in any order within a
/// band, bands in order. With one band (the default layout), `write(metric:step:values:)`
/// takes a step of the whole grid.
///
/// Versions 1 and 2 stay writable, through the package-level `formatVersion:`, for the tests
/// and fixtures of their readers (`WordAreaWriter`).
public final class CubeWriter {
  /// The final path of the cube.
  public let destination: String
  /// The header being written.
  public let header: CubeHeader
  /// The writer of the format version chosen.
  private enum Engine {
    case words(WordAreaWriter)
    case bands(BandWriter)
  }
  private let engine: Engine

  /// The most memory the block of steps of a version 1 or 2 writer may take, bytes.
  public static let bufferBudget = 32 << 20

  /// Creates the temporary file of a cube over one band and writes the geometry; the
  /// terrain section, when given, is written at `publish()` (a cube without one reads as
  /// terrain unknown).
  public convenience init(
    header: CubeHeader, latitudes: [Float], longitudes: [Float], terrain: CubeTerrain? = nil, destination: String
  ) throws(CubeError) {
    try self.init(
      header: header, latitudes: latitudes, longitudes: longitudes, terrain: terrain, destination: destination,
      bufferBytes: Self.bufferBudget)
  }

  /// As the public initializer, with the block buffer and format version of
  /// `init(header:positions:stepPositions:destination:layout:bufferBytes:formatVersion:)`.
  package convenience init(
    header: CubeHeader, latitudes: [Float], longitudes: [Float], terrain: CubeTerrain? = nil, destination: String,
    bufferBytes: Int = CubeWriter.bufferBudget, formatVersion: UInt32 = CubeLayout.bandVersion
  ) throws(CubeError) {
    try self.init(
      header: header, positions: [CubeGrid(latitudes: latitudes, longitudes: longitudes, terrain: terrain)],
      stepPositions: Self.unmoved(steps: header.stepCount), destination: destination,
      bufferBytes: bufferBytes, formatVersion: formatVersion)
  }

  /// Creates the temporary file of a cube over one band whose grid takes `positions` (the
  /// first is the geometry block's), step t at `positions[stepPositions[t]]`, numbered in
  /// order of first use (docs/cube-format.md, *Positions*). Every position has terrain or
  /// none does. One position writes exactly what
  /// `init(header:latitudes:longitudes:terrain:destination:)` writes.
  public convenience init(
    header: CubeHeader, positions: [CubeGrid], stepPositions: [Int], destination: String
  ) throws(CubeError) {
    try self.init(
      header: header, positions: positions, stepPositions: stepPositions, destination: destination, layout: Layout())
  }

  /// Creates the temporary file of a cube laid out as `layout` says (its bands, and what
  /// the cube records about its geometry), with the positions of
  /// `init(header:positions:stepPositions:destination:)`.
  public convenience init(
    header: CubeHeader, positions: [CubeGrid], stepPositions: [Int], destination: String, layout: Layout
  ) throws(CubeError) {
    try self.init(
      header: header, positions: positions, stepPositions: stepPositions, destination: destination, layout: layout,
      bufferBytes: Self.bufferBudget)
  }

  /// As the public initializers, with the format version `formatVersion` (1 and 2 for the
  /// tests of their readers, which ignore `layout`) and, for those versions, the block
  /// buffer limited to `bufferBytes` (tests use small limits to exercise its flushes).
  package init(
    header: CubeHeader, positions: [CubeGrid], stepPositions: [Int], destination: String, layout: Layout = Layout(),
    bufferBytes: Int = CubeWriter.bufferBudget, formatVersion: UInt32 = CubeLayout.bandVersion
  ) throws(CubeError) {
    self.destination = destination
    self.header = header
    guard (CubeLayout.wordVersion...CubeLayout.bandVersion).contains(formatVersion) else {
      throw CubeError(path: destination, reason: "cannot write: format version \(formatVersion) is not 1, 2 or 3")
    }
    // The reader's limits, so that no cube is written that readers refuse, and so that the
    // layout is computed from a shape whose sizes cannot overflow.
    if let problem = CubeLimits.problem(in: header) ?? Self.positionsProblem(positions, stepPositions, header) {
      throw CubeError(path: destination, reason: "cannot write: \(problem)")
    }
    if formatVersion == CubeLayout.bandVersion {
      engine = .bands(
        try BandWriter(
          header: header, positions: positions, stepPositions: stepPositions, destination: destination, layout: layout))
    } else {
      try FileSystem.makeDirectories(FileSystem.directory(of: destination), for: destination)
      engine = .words(
        try WordAreaWriter(
          header: header, positions: positions, stepPositions: stepPositions, destination: destination,
          bufferBytes: bufferBytes, formatVersion: formatVersion))
    }
  }

  /// The temporary file the cube is written to until `publish()`.
  var temporaryPath: String {
    switch engine {
    case .words(let writer): writer.temporaryPath
    case .bands(let writer): writer.temporaryPath
    }
  }

  /// Cells per band, a power of two (versions 1 and 2: one band, as for version 3's default).
  public var bandCells: Int {
    switch engine {
    case .words: BandWriter.powerOfTwo(atLeast: header.cells)
    case .bands(let writer): writer.bandCells
    }
  }

  /// The number of bands: `ceil(cells / bandCells)`.
  public var bandCount: Int {
    switch engine {
    case .words: 1
    case .bands(let writer): writer.bandCount
    }
  }

  /// The cells (indices in the whole grid) of band `band`: `band × bandCells ..<
  /// min((band + 1) × bandCells, cells)`; empty for a band that does not exist.
  public func cells(ofBand band: Int) -> Range<Int> {
    switch engine {
    case .words: band == 0 ? 0..<header.cells : 0..<0
    case .bands(let writer): writer.cells(ofBand: band)
    }
  }

  /// The first write the writer refused (described), nil while none was; `publish()` then
  /// throws with it.
  public var refusedWrite: String? {
    switch engine {
    case .words: nil
    case .bands(let writer): writer.refusedWrite
    }
  }

  /// The memory a version 3 writer holds for bands of `bandCells` cells over `steps` steps
  /// and `metrics` metrics: the band's words (2 bytes each), one sub-section's table of cell
  /// entries, the series being packed and the staging of the output. Ingest sizes its bands
  /// with it.
  public static func bandBytes(bandCells: Int, steps: Int, metrics: Int) -> Int {
    BandWriter.bandBytes(bandCells: bandCells, steps: steps, metrics: metrics)
  }

  /// As `bandBytes(bandCells:steps:metrics:)`, with a second band's words when a band is
  /// packed in the background while the next is filled (`Layout.packsInBackground`).
  public static func bandBytes(bandCells: Int, steps: Int, metrics: Int, packsInBackground: Bool) -> Int {
    BandWriter.bandBytes(bandCells: bandCells, steps: steps, metrics: metrics, packsInBackground: packsInBackground)
  }

  /// The words of band `band` of a version 3 cube, which several threads may fill at once,
  /// a step each (`BandWords.claim(step:)`); the band held before it, and any skipped, are
  /// packed first, as by the first `write(band:metric:step:values:)` to `band`. Nil, with
  /// `refusedWrite` saying why, for a band that does not exist or is already packed, after
  /// `publish()` or `abandon()`, or for versions 1 and 2. Every claim of a band's steps
  /// must have ended before the next band is asked for or the cube is published.
  package func words(ofBand band: Int) -> BandWords? {
    switch engine {
    case .words: nil
    case .bands(let writer): writer.words(ofBand: band, call: "words(ofBand: \(band))")
    }
  }

  /// Stores `values` (one per cell of `band`, NaN for missing) of `metric` at `step`; a
  /// step written again replaces what it held. Bands are written in order: the first write
  /// to band b + 1 packs band b (and any band skipped, missing throughout) and appends it
  /// to the file. Returns the index in the whole grid of the first cell whose value the
  /// metric cannot represent, stored as missing; nil when all fit.
  ///
  /// A call the writer cannot honour stores nothing and returns the band's first cell (0
  /// for a band that does not exist): a band already in the file, a metric, step or band
  /// out of range, a count of values other than the band's cells, a call after `publish()`
  /// or `abandon()`. `refusedWrite` describes the first, and `publish()` throws with it.
  @discardableResult
  public func write(band: Int, metric: Int, step: Int, values: UnsafeBufferPointer<Double>) -> Int? {
    switch engine {
    case .words(let writer):
      guard band == 0 else { return 0 }
      return writer.write(metric: metric, step: step, values: Array(values))
    case .bands(let writer):
      return writer.write(band: band, metric: metric, step: step, values: values)
    }
  }

  /// Stores one time step of one metric over every cell (`values[cell]`, NaN for missing),
  /// for a cube of one band; returns as `write(band:metric:step:values:)` does (0, refused,
  /// for a cube of more than one band).
  @discardableResult
  public func write(metric: Int, step: Int, values: [Double]) -> Int? {
    switch engine {
    case .words(let writer):
      return writer.write(metric: metric, step: step, values: values)
    case .bands(let writer):
      guard writer.bandCount == 1 else {
        return writer.refuse(
          "write(metric: \(metric), step: \(step)) of the whole grid to a cube of \(writer.bandCount) bands: write each band",
          returning: 0)
      }
      return values.withUnsafeBufferPointer { writer.write(band: 0, metric: metric, step: step, values: $0) }
    }
  }

  /// Finishes the cube (every band not yet written is missing throughout), flushes it to
  /// disk and renames it into place. Returns the published path.
  public func publish() throws(CubeError) -> String {
    switch engine {
    case .words(let writer): try writer.publish()
    case .bands(let writer): try writer.publish()
    }
  }

  /// Discards the temporary file; nothing becomes visible.
  public func abandon() {
    switch engine {
    case .words(let writer): writer.abandon()
    case .bands(let writer): writer.abandon()
    }
  }
}
