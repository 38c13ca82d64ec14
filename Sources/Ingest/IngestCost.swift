import CubeFormat
import Foundation
import Meteorology

/// What an ingest of one domain will cost and how it keeps within its memory budget,
/// computed from its dimensions alone before any field is read.
///
/// Ingest works by band of cells (`CubeWriter`'s bands): for one band it derives every
/// step over the rows covering the band (and the neighbourhood's halo rows), holds the
/// band's words, then packs and appends them. The plan picks the band cells (a power of
/// two) as large as the budget allows, one band when the whole run fits, and the steps
/// derived at once; `memory` bounds the plan's peak resident memory and `disk` the cube's
/// bytes in the store. docs/inputs.md derives each term.
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
  /// Rows above and below a band that the precipitation neighbourhood reaches.
  public let haloRows: Int
  /// The memory budget planned within, bytes (`--max-memory`).
  public let budget: Int
  /// Cells per band: a power of two; at least the grid's cells for one band.
  public let bandCells: Int
  /// Bands the cube is written in.
  public let bands: Int
  /// Steps derived at once (one per core when the budget allows).
  public let concurrentSteps: Int
  /// Whether a band is packed in the background while the next is derived, which holds a
  /// second band's words (`CubeWriter.Layout.packsInBackground`): when there is more than
  /// one band and the budget allows.
  public let packsInBackground: Bool
  /// Fields decoded whole that the plan keeps for the bands after the first (a GRIB run's
  /// complex-packed messages).
  public let keptFields: Int
  /// The bytes the kept fields take: part of `memory`.
  public let keptBytes: Double
  /// Peak resident memory of the plan, bytes, at most.
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
  /// Whole grids of doubles a GRIB step holds at once: the decoded field, and ecCodes' own
  /// decoding buffers (its unpacked values and the packed data), one message at a time.
  public static let gribFieldsDecoded = 3
  /// Band-sized fields a WRF step holds over its rows: its surface fields and its earlier
  /// step's accumulations. The default of every convention that reads by variable.
  public static let wrfStepFields = 48
  /// A cube has at most this many bands (`CubeLayout`'s band count).
  static let maximumBands = 65_536
  /// The default budget, `--max-memory`: 512 MiB.
  public static let defaultBudget = 512 << 20

  /// The plan of a domain of `width × height` cells, `steps` steps, 3-D fields of up to
  /// `levels` levels and `metrics` stored metrics, on `positions` grid positions (with
  /// `terrain` at each, when the cube has a terrain section), whose neighbourhood reaches
  /// `haloRows` rows, within `budget` bytes; `chunked` when the inputs are NetCDF-4 (HDF5
  /// keeps a chunk cache per variable read; classic files have none). `wholeFieldReads`
  /// whole-grid fields of doubles a step holds at once however small its band, for inputs
  /// that cannot be read by rows (a GRIB message is decoded whole: `gribFieldsDecoded`).
  /// `stepFields` band-sized fields a step holds over its rows besides its 3-D fields
  /// (`wrfStepFields` unless the plan knows what it reads: a GRIB step's quantities).
  /// `neighbourhood` the bytes the precipitation neighbourhood holds, when it is known
  /// (`PrecipitationNeighbourhood.heldBytes`), else its bound for any grid of the size.
  /// `wholeFields` the fields decoded whole (`count` of `bytes` each, kept compact) that a
  /// band after the first would decode again unless they are kept: the plan picks, among
  /// the band sizes that fit with the most steps at once, the one that decodes fewest
  /// fields, keeping as many as its room holds.
  /// Computed in floating point so that no declared dimension, however large, can overflow it.
  public init(
    width: Int, height: Int, steps: Int, levels: Int, metrics: Int, positions: Int = 1, terrain: Bool = false,
    haloRows: Int = 0, budget: Int = IngestCost.defaultBudget, chunked: Bool = true, wholeFieldReads: Int = 0,
    stepFields: Int = IngestCost.wrfStepFields, neighbourhood: Double? = nil,
    wholeFields: (count: Int, bytes: Double) = (0, 0)
  ) {
    (self.width, self.height, self.steps, self.levels, self.metrics) = (width, height, steps, levels, metrics)
    (self.positions, self.haloRows, self.budget) = (positions, haloRows, budget)
    let (cells, s, m) = (Double(width) * Double(height), Double(steps), Double(metrics))
    let fixed = Self.fixed(
      cells: cells, steps: s, levels: Double(levels), positions: positions, chunked: chunked,
      neighbourhood: neighbourhood ?? PrecipitationNeighbourhood.bytes(cells: cells))
    // The largest band a cube can hold in `maximumBands` bands is the smallest band.
    let whole = Self.powerOfTwo(atLeast: cells)
    let smallest = Self.powerOfTwo(atLeast: (cells / Double(Self.maximumBands)).rounded(.up))
    let cores = Double(Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, 8, Swift.max(steps, 1))))
    func band(_ bandCells: Double, _ batch: Double, _ background: Bool) -> Double {
      Self.band(
        cells: bandCells, width: Double(width), height: Double(height), halo: Double(haloRows), steps: s,
        levels: Double(levels), metrics: m, batch: batch, packsInBackground: background,
        wholeFields: Double(wholeFieldReads), stepFields: Double(stepFields),
        counting: neighbourhood == nil ? 0 : PrecipitationNeighbourhood.countingBytesPerCell)
    }
    // As large a band as fits with a step per core, packed in the background when that
    // fits too; failing that, one step at a time; and failing that, the smallest band
    // (refused by `require`). Among the bands that fit with the most steps at once, the
    // one whose later bands decode fewest fields again; at a tie, the overlapped one, then
    // the larger.
    func decodes(_ bandCells: Double, room: Double) -> (decodes: Double, kept: Double) {
      let bands = (cells / bandCells).rounded(.up)
      guard bands > 1, wholeFields.count > 0, wholeFields.bytes > 0 else { return (0, 0) }
      let kept = Swift.min(Double(wholeFields.count), (room / wholeFields.bytes).rounded(.down))
      return (Double(wholeFields.count) * bands - kept * (bands - 1), kept)
    }
    // A band packed beside the next one's derivation keeps both cores busy to the end, which
    // a larger band packed alone does not (a global 0.25° run of 25 steps: 2.2 s in 16
    // overlapped bands, 2.4 s in 8 bands one after the other); one band has nothing to
    // overlap and ranks with the overlapped.
    var chosen: (cells: Double, batch: Double, background: Bool, decodes: Double, kept: Double, overlaps: Bool)?
    for batch in Set([cores, 1]).sorted(by: >) where chosen == nil {
      var candidate = whole
      while candidate >= smallest {
        // One band has no next band to pack beside.
        for background in candidate < cells ? [true, false] : [false] {
          let cost = fixed + band(candidate, batch, background)
          guard cost <= Double(budget) else { continue }
          let (count, kept) = decodes(candidate, room: Double(budget) - cost)
          let overlaps = background || candidate >= cells
          if let best = chosen, count > best.decodes || (count == best.decodes && (best.overlaps || !overlaps)) {
            continue
          }
          chosen = (candidate, batch, background, count, kept, overlaps)
        }
        candidate /= 2
      }
    }
    let plan = chosen ?? (smallest, 1, false, 0, 0, false)
    bandCells = plan.cells >= 9e18 ? Int.max : Int(plan.cells)
    bands = cells == 0 ? 1 : Int(Swift.min((cells / plan.cells).rounded(.up), 9e18))
    concurrentSteps = Int(plan.batch)
    packsInBackground = plan.background
    keptFields = Int(plan.kept)
    keptBytes = plan.kept * wholeFields.bytes
    memory = fixed + band(plan.cells, plan.batch, plan.background) + keptBytes
    disk = Self.disk(
      cells: cells, steps: s, metrics: m, positions: positions, terrain: terrain, bands: Double(bands))
  }

  /// What does not depend on the band: the process, the geometry, the neighbourhood and
  /// HDF5's chunk caches.
  private static func fixed(
    cells: Double, steps s: Double, levels l: Double, positions: Int, chunked: Bool, neighbourhood: Double
  ) -> Double {
    // The coordinates read as doubles and kept as floats, the terrain, the grid checks;
    // a further position keeps its first and most common coordinates, cell sizes and
    // terrain while the positions are decided (40 bytes a cell).
    let extraPositions = Double(Swift.max(positions, 1) - 1)
    let geometry = cells * 64 + extraPositions * cells * 40
    // Every open NetCDF-4 file (up to `OpenInputs`' 256, one a step at most) keeps a
    // cache per variable read; no cache holds more than the data read from it.
    let openFiles = Swift.min(s, 256)
    let chunkCache =
      chunked
      ? Swift.min(chunkCachePerVariable * variablesRead * openFiles, cells * s * (variablesRead + 10 * l) * 4) : 0
    return baseline + geometry + neighbourhood + chunkCache
  }

  /// What one band of `cells` cells costs: the writer's words (twice when a band is packed
  /// in the background) and packing, and `batch` steps derived at once over the band's rows.
  private static func band(
    cells: Double, width: Double, height: Double, halo: Double, steps s: Double, levels l: Double, metrics m: Double,
    batch: Double, packsInBackground: Bool, wholeFields: Double, stepFields: Double, counting: Double
  ) -> Double {
    // The writer's own account (`CubeWriter.bandBytes`), in floating point: per cell, step
    // and metric, found from one cell so that no band, however large, overflows it.
    func writerBytes(_ cells: Int) -> Double {
      Double(
        CubeWriter.bandBytes(
          bandCells: cells, steps: Int(Swift.min(s, 1e6)), metrics: Int(m), packsInBackground: packsInBackground))
    }
    let perCell = writerBytes(1)
    let fixedPart = perCell * 2 - writerBytes(2)
    let writer = (perCell - fixedPart) * cells + fixedPart
    // The rows covering the band (it may start and end mid-row) and the halo each side.
    let rows = Swift.min(height, (cells / Swift.max(width, 1)).rounded(.up) + 1 + 2 * halo)
    // Each step holds its `stepFields` fields (WRF: its surface fields and its earlier
    // step's accumulations, 48 fields' worth; GRIB: its quantities), its 3-D fields (ten volumes' worth: CLDFRA, QVAPOR, P, PB, T, PH, PHB, U, V
    // and cloud per level), its derived values twice over (the values, and the
    // derivation's intermediate arrays) and the neighbourhood's percentages.
    // Inputs decoded whole (GRIB) hold whole grids, whatever the band.
    // A neighbourhood whose held bytes are known counts each step over the band's rows
    // (`counting` bytes a cell); the bound for any grid counts that among its fixed bytes.
    let perStep =
      rows * width * (8 * (stepFields + 10 * l + 2 * m + 1) + counting) + wholeFields * width * height * 8
    return writer + batch * perStep
  }

  /// The cube's bytes at most: geometry, data (a word per value, a table entry per cell
  /// and metric, padding per sub-section), terrain, positions, band index and checksums.
  private static func disk(
    cells: Double, steps s: Double, metrics m: Double, positions: Int, terrain: Bool, bands: Double
  ) -> Double {
    func padded(_ bytes: Double) -> Double { (bytes / 8).rounded(.up) * 8 }
    let extraPositions = Double(Swift.max(positions, 1) - 1)
    // A moving grid's positions section (docs/cube-format.md): a count, each step's
    // position, and every position after the first (coordinates and terrain), each part
    // padded to 8 bytes, after up to 63 bytes of alignment.
    let positionsSection =
      extraPositions > 0
      ? 64 + 8 + padded(s * 4) + extraPositions * (padded(cells * 8) + (terrain ? padded(cells * 5) : 0)) : 0
    let header = 1_048_576.0
    let data = cells * s * m * 2 + cells * m * 8 + bands * m * (8 + 64 + 16)
    let sections = header + cells * 16 + data + positionsSection
    // One checksum of 8 bytes per 64 KiB.
    return sections + (sections / 65_536).rounded(.up) * 8
  }

  /// Whether the file at `path` is NetCDF-4 (HDF5, chunked), by its signature; false for
  /// classic NetCDF and GRIB; true when it cannot be read, which costs the most.
  public static func isChunked(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return true }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 4)) ?? Data()
    // Classic and 64-bit-offset files begin "CDF" and a version byte; HDF5 "\u{89}HDF".
    // GRIB files ("GRIB") are read through ecCodes, which keeps no chunk cache.
    return !(head.count == 4 && (head.prefix(3) == Data("CDF".utf8) || head == Data("GRIB".utf8)))
  }

  /// The smallest power of two at or above `value` (at least 1).
  private static func powerOfTwo(atLeast value: Double) -> Double {
    guard value > 1 else { return 1 }
    return Foundation.pow(2, Foundation.log2(value).rounded(.up))
  }

  /// Whether the plan fits its budget.
  public var fits: Bool { memory <= Double(budget) }

  /// The prediction in one line, exact byte counts included so that a script can compare
  /// them: `predicted peak memory 136.2 MiB (142800000 bytes), disk 8.1 KiB (8300 bytes)
  /// for 10×8 cells, …, in 1 band of 128 cells, 2 steps at once` (and `, each band packed
  /// while the next is derived` when a band is packed in the background, and `, 128 fields
  /// decoded whole kept for the later bands` when a GRIB run keeps some).
  public var summary: String {
    "predicted peak memory \(Self.text(memory)) (\(Self.whole(memory)) bytes), disk \(Self.text(disk)) (\(Self.whole(disk)) bytes) for \(dimensions), in \(bands == 1 ? "1 band" : "\(bands) bands") of \(bandCells) cells, \(concurrentSteps) \(concurrentSteps == 1 ? "step" : "steps") at once"
      + (packsInBackground ? ", each band packed while the next is derived" : "")
      + (keptFields > 0 ? ", \(keptFields) fields decoded whole kept for the later bands" : "")
  }

  /// `w×h cells, s steps, l levels, m metrics`, as messages name the dimensions.
  public var dimensions: String {
    "\(width)×\(height) cells, \(steps) steps, \(levels) levels, \(metrics) metrics"
      + (positions > 1 ? ", \(positions) grid positions" : "")
  }
}

extension IngestCost {
  /// Refuses this run when even its smallest band needs more memory than its budget, or
  /// it needs more disk than the store's file system has free, naming `path`, the
  /// dimensions, the estimate and the limit. `store` is checked only when given (a grid
  /// checked before the store matters).
  public func require(store: String?, path: String) throws(IngestError) {
    if !fits {
      throw IngestError(
        path: path,
        reason:
          "ingesting \(dimensions) needs up to \(Self.text(memory)) of memory even in bands of \(bandCells) cells, more than the limit of \(Self.text(Double(budget))) (--max-memory)"
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
    width: Int, height: Int, steps: Int, levels: Int, maxMemory: Int, path: String, wholeFieldReads: Int = 0,
    stepFields: Int = wrfStepFields
  ) throws(IngestError) {
    try IngestCost(
      width: width, height: height, steps: steps, levels: levels, metrics: Metric.stored.count, budget: maxMemory,
      chunked: isChunked(path), wholeFieldReads: wholeFieldReads, stepFields: stepFields
    ).require(store: nil, path: path)
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
