import ArgumentParser
import Foundation
import Ingest
import Meteorology

#if canImport(Glibc)
  import Glibc
#endif

extension Convention: ExpressibleByArgument {}

struct IngestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ingest",
    abstract:
      "Derive the metrics of a run's NetCDF files (WRF, MM5 or CF) or GRIB files and publish one cube per domain.",
    discussion: """
      Files may be given in any order, one file with many steps or one file per step; they \
      are sorted by time (WRF Times, the CF-style time axis of MM5 and CF files, or GRIB's \
      reference time plus endStep; the convention is detected unless --convention says, a \
      file starting with "GRIB" being GRIB). Duplicate steps, gaps and uneven steps are errors. Metrics whose \
      inputs are missing are left out with a warning on standard error. Prints the path of \
      each published cube. Temporary files left in the store by killed ingests are removed \
      first, each named on standard error.
      """
  )

  @Option(help: "The store directory; cubes go to STORE/<model>/<domain>/<run>.cube.")
  var store: String

  @Option(
    help:
      "The model name in the store path (default: the convention: wrf, mm5 or cf; for GRIB the centre: ncep, ecmwf, dwd …)."
  )
  var model: String?

  @Option(help: "How to read the files: auto (detect from the first file), wrf, mm5, cf or grib.")
  var convention: Convention = .auto

  @Option(
    help: ArgumentHelp(
      "A JSON file mapping metrics to variables for CF files with unusual names, or to GRIB parameters.",
      discussion:
        #"Example: {"temp": {"variable": "TAIR2", "units": "degF"}}. For GRIB a variable is a shortName or discipline/category/number, optionally with :typeOfLevel:level, e.g. {"temp": {"variable": "0/0/0:heightAboveGround:2"}}."#
    ))
  var map: String?

  @Option(
    help: ArgumentHelp(
      "Quantization steps replacing the metric table's, name=step pairs (e.g. temp=0.01,rain=0.05).",
      discussion:
        "Each step is in the metric's unit; a value is stored within half its step. Categories (weather_code) are stored exactly and take no step. 'v1' stores every metric at the steps of cubes before format version 2 (0.01 in most units)."
    ))
  var precision: String?

  @Option(
    name: .customLong("max-memory"),
    help: ArgumentHelp(
      "The memory budget of a domain's ingest, e.g. 512M or 4G (default: 512M).",
      discussion:
        "Ingest writes the cube in bands of cells, each derived for every step and appended once, and picks the largest band whose predicted peak memory fits this budget (one band when the whole run does). It prints each domain's prediction and band plan on standard error before reading any field, refuses a domain whose smallest band would need more than this or whose cube needs more disk than the store has free, and ends with a line of the memory it used and the bytes it wrote (getrusage, /proc/self/io)."
    ))
  var maxMemory: String?

  @Argument(
    help:
      "Files of one run: WRF wrfout files, MM5 output in NetCDF, CF files such as GFS or ERA5, or GRIB (GFS, NAM, HRRR, ICON, IFS)."
  )
  var files: [String]

  func validate() throws {
    guard !files.isEmpty else { throw ValidationError("give at least one NetCDF or GRIB file of the run") }
    if let precision, case .failure(let error) = Metric.precisions(precision) {
      throw ValidationError("--precision: \(error.reason)")
    }
    if let maxMemory, case .failure(let error) = IngestCost.bytes(parsing: maxMemory) {
      throw ValidationError("--max-memory: \(error.reason)")
    }
  }

  func run() throws {
    keepFreedMemory()
    let variableMap = try map.map { (path) throws(IngestError) in try VariableMap(path: path) }
    let steps = try precision.map { try Metric.precisions($0).get() } ?? [:]
    let limit = try maxMemory.map { try IngestCost.bytes(parsing: $0).get() }
    let report = try Ingestor.run(
      files,
      options: .init(
        store: store, model: model, convention: convention, map: variableMap, precision: steps, maxMemory: limit))
    for leftover in report.removedTemporaryFiles { printError(leftover.description) }
    for (cost, cube) in zip(report.costs, report.published) { printError("\(cube.domain): \(cost.summary)") }
    for warning in report.warnings { printError("warning: \(warning)") }
    printError(IngestUsage.current().line)
    for cube in report.published { print(cube.path) }
  }
}

/// Lets glibc's allocator keep up to 64 MiB freed rather than returning it to the kernel.
/// Ingest frees each step's fields (a few MB) and allocates the next step's: with the
/// default, adaptive thresholds the heap top was trimmed and the pages faulted and cleared
/// again every step, 12 % of an ingest. Peak memory grows by at most what is kept.
private func keepFreedMemory() {
  #if canImport(Glibc)
    // malloc.h is not in Swift's Glibc module: mallopt is looked up, and its options are
    // glibc's fixed values (M_TRIM_THRESHOLD −1, M_MMAP_THRESHOLD −3). Without it, nothing changes.
    typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
    _ = mallopt(-3, 64 << 20)
    _ = mallopt(-1, 64 << 20)
  #endif
}

/// Writes a line to standard error.
func printError(_ line: String) {
  var stream = StandardError()
  print(line, to: &stream)
}

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    FileHandle.standardError.write(Data(string.utf8))
  }
}
