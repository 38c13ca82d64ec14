import CubeFormat
import Foundation
import Meteorology

/// What an ingest of one domain will cost, computed from its dimensions alone before any
/// field is read: an upper bound of its peak memory (resident set) and of the disk its
/// cube and the cube's scratch take in the store. docs/inputs.md derives each term.
public struct IngestCost: Sendable, Equatable {
  /// Grid columns and rows.
  public let width: Int
  public let height: Int
  /// Output steps.
  public let steps: Int
  /// The most levels a 3-D field has (staggered ones included); 0 without 3-D fields.
  public let levels: Int
  /// Metrics stored.
  public let metrics: Int
  /// Grid positions: more than one for a moving nest, whose every position the cube keeps.
  public let positions: Int
  /// Peak resident memory, bytes, at most.
  public let memory: Double
  /// Store disk space, bytes, at most.
  public let disk: Double

  /// The process before any grid: Swift's runtime, libnetcdf and HDF5 (measured: about
  /// 30 MiB), and the 64 MiB of freed heap `ingest` lets the allocator keep.
  static let baseline = 128.0 * 1_048_576
  /// HDF5's chunk cache holds decompressed chunks of each variable read: up to 16 MiB
  /// each, libnetcdf's default (`nc_get_chunk_cache`, 4.9), and never more than the data.
  static let chunkCachePerVariable = 16.0 * 1_048_576
  /// Variables a step reads at most (surface fields, 3-D fields, the earlier step's
  /// accumulations).
  static let variablesRead = 40.0

  /// The cost of a domain of `width × height` cells, `steps` steps, 3-D fields of up to
  /// `levels` levels and `metrics` stored metrics, on `positions` grid positions (with
  /// `terrain` at each, when the cube has a terrain section). Computed in floating point
  /// so that no declared dimension, however large, can overflow it.
  public init(
    width: Int, height: Int, steps: Int, levels: Int, metrics: Int, positions: Int = 1, terrain: Bool = false
  ) {
    (self.width, self.height, self.steps, self.levels, self.metrics) = (width, height, steps, levels, metrics)
    self.positions = positions
    let (cells, s, l, m) = (Double(width) * Double(height), Double(steps), Double(levels), Double(metrics))
    let double = 8.0
    // The coordinates read as doubles and kept as floats, the terrain, the grid checks;
    // a further position keeps its first and most common coordinates, cell sizes and
    // terrain while the positions are decided (40 bytes a cell).
    let extraPositions = Double(Swift.max(positions, 1) - 1)
    let geometry = cells * 64 + extraPositions * cells * 40
    let neighbourhood = PrecipitationNeighbourhood.bytes(cells: cells)
    // Steps derived at once (`CubePublisher.concurrentSteps`), each holding its surface
    // fields and its earlier step's accumulations (48 fields' worth), its 3-D fields (ten
    // volumes' worth: CLDFRA, QVAPOR, P, PB, T, PH, PHB, U, V and cloud per level) and
    // its derived values twice over (the values and the publisher's copy).
    let perStep = cells * double * (48 + 10 * l + 2 * m)
    let batch = Swift.max(
      1,
      Swift.min(
        Double(Swift.min(ProcessInfo.processInfo.activeProcessorCount, 8)),
        (Double(CubePublisher.derivedBudget) / Swift.max(cells * Swift.max(m, 1) * double, 1)).rounded(.down)))
    let derivation = batch * perStep
    // The cube writer: the word area (every step of every metric, 2 bytes a value, a
    // mapped scratch file that is resident once written), the packed cube mapped while
    // the words are, its cell tables, and the block buffer.
    let words = cells * s * m * 2
    let tables = cells * m * 8
    let header = 1_048_576.0
    let packed = words + tables + cells * 16 + header
    let block = Swift.min(Double(CubeWriter.bufferBudget), words)
    // Every open NetCDF-4 file (up to `OpenInputs`' 256, one a step at most) keeps a
    // cache per variable read; no cache holds more than the data read from it.
    let openFiles = Swift.min(s, 256)
    let chunkCache = Swift.min(
      Self.chunkCachePerVariable * Self.variablesRead * openFiles, cells * s * (Self.variablesRead + 10 * l) * 4)
    memory = Self.baseline + geometry + neighbourhood + derivation + words + packed + tables + block + chunkCache
    // A moving grid's positions section (docs/cube-format.md): a count, each step's
    // position, and every position after the first (coordinates and terrain), each part
    // padded to 8 bytes, after up to 63 bytes of alignment.
    func padded(_ bytes: Double) -> Double { (bytes / 8).rounded(.up) * 8 }
    let positionsSection =
      extraPositions > 0
      ? 64 + 8 + padded(s * 4) + extraPositions * (padded(cells * 8) + (terrain ? padded(cells * 5) : 0)) : 0
    // The scratch words and the packed cube exist at once until the cube is published.
    disk = words + packed + positionsSection
  }

  /// The prediction in one line, exact byte counts included so that a script can compare
  /// them: `predicted peak memory 136.2 MiB (142800000 bytes), disk 8.1 KiB (8300 bytes)
  /// for 10×8 cells, …`.
  public var summary: String {
    "predicted peak memory \(Self.text(memory)) (\(Self.whole(memory)) bytes), disk \(Self.text(disk)) (\(Self.whole(disk)) bytes) for \(dimensions)"
  }

  /// `w×h cells, s steps, l levels, m metrics`, as messages name the dimensions.
  public var dimensions: String {
    "\(width)×\(height) cells, \(steps) steps, \(levels) levels, \(metrics) metrics"
      + (positions > 1 ? ", \(positions) grid positions" : "")
  }
}

extension IngestCost {
  /// Refuses this run when it needs more memory than `maxMemory` or more disk than the
  /// store's file system has free, naming `path`, the dimensions, the estimate and the
  /// limit. `store` is checked only when given (a grid checked before the store matters).
  func require(maxMemory: Int, store: String?, path: String) throws(IngestError) {
    if memory > Double(maxMemory) {
      throw IngestError(
        path: path,
        reason:
          "ingesting \(dimensions) needs up to \(Self.text(memory)) of memory, more than the limit of \(Self.text(Double(maxMemory))) (--max-memory)"
      )
    }
    if let store, let free = Self.freeBytes(near: store), disk > free {
      throw IngestError(
        path: path,
        reason:
          "ingesting \(dimensions) needs up to \(Self.text(disk)) of disk in \(store), which has \(Self.text(free)) free"
      )
    }
  }

  /// Refuses, before its coordinates are read, a grid whose cost with what is known of the
  /// run so far (`steps` steps, `levels` levels, every storable metric) exceeds
  /// `maxMemory`: a tiny file may declare a grid no machine can hold.
  static func requireGrid(
    width: Int, height: Int, steps: Int, levels: Int, maxMemory: Int, path: String
  ) throws(IngestError) {
    try IngestCost(width: width, height: height, steps: steps, levels: levels, metrics: Metric.stored.count)
      .require(maxMemory: maxMemory, store: nil, path: path)
  }

  /// A byte count in digits, rounded up; in floating point beyond what `Int` holds.
  static func whole(_ bytes: Double) -> String {
    bytes.isFinite && abs(bytes) < 9e18 ? "\(Int(bytes.rounded(.up)))" : "\(bytes)"
  }

  /// Bytes as `12.3 MiB` (binary units, as `--max-memory` reads them).
  static func text(_ bytes: Double) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    guard bytes.isFinite else { return "\(bytes) bytes" }
    var (value, unit) = (bytes, 0)
    while value >= 1024, unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    if unit == 0 { return "\(Int(value)) bytes" }
    if !value.isFinite || value >= 1e6 { return "\(bytes) bytes" }
    return "\((value * 10).rounded() / 10) \(units[unit])"
  }

  /// The free bytes (for an unprivileged writer) of the file system holding `path`, or of
  /// its nearest existing parent directory; nil when none can be asked.
  static func freeBytes(near path: String) -> Double? {
    var candidate = path.isEmpty ? "." : path
    while true {
      var info = statvfs()
      if statvfs(candidate, &info) == 0 { return Double(info.f_bavail) * Double(info.f_frsize) }
      guard let slash = candidate.lastIndex(of: "/") else {
        return candidate == "." ? nil : freeBytes(near: ".")
      }
      if slash == candidate.startIndex { return candidate == "/" ? nil : freeBytes(near: "/") }
      candidate = String(candidate[..<slash])
    }
  }
}
