import CubeFormat
import Foundation
import Testing
import _TestSupport

/// Ingest predicts a run's memory and disk from its dimensions and refuses, before reading
/// a field, what it cannot afford; what it predicts bounds what it uses.
@Suite struct IngestCostTests {
  /// Runs `nwpcube` under a cap on its address space (`ulimit -v`, KiB) and a timeout, so
  /// that an ingest that tried to allocate the grid fails the test instead of taking the
  /// machine.
  private static func boundedIngest(
    _ arguments: [String], kibibytes: Int, seconds: Int
  ) throws
    -> MeasuredProcess.Outcome
  {
    let quoted = ([CommandLineTool.executable, "ingest"] + arguments).map { "'\($0)'" }.joined(separator: " ")
    return try MeasuredProcess.run(
      "/bin/bash", ["-c", "ulimit -v \(kibibytes) && exec timeout -s KILL \(seconds) \(quoted)"])
  }

  /// The issue's file: a 28 KB NetCDF-4 file declaring a 40,000 × 40,000 grid drove ingest to
  /// 23.7 GB. Now it is refused before the coordinates are read, in a process capped at
  /// 2 GiB of address space, with a message naming the dimensions and the limit.
  @Test func aHugeGridInATinyFileIsRefusedNamingItsDimensionsAndTheLimit() throws {
    let directory = SampleFiles.temporaryDirectory("huge-grid")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrfout_d01_huge.nc"
    try DeclaredGrid(westEast: 40_000, southNorth: 40_000).write(to: path)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(size < 100_000, "the file is tiny: \(size) bytes")
    let outcome = try Self.boundedIngest(
      ["--store", "\(directory)/store", "--max-memory", "4G", path], kibibytes: 2 << 20, seconds: 60)
    #expect(outcome.status == 1, "exit status \(outcome.status): \(outcome.standardError)")
    #expect(outcome.standardError.contains("\(path): ingesting 40000×40000 cells, 1 steps"))
    #expect(outcome.standardError.contains("more than the limit of 4.0 GiB (--max-memory)"))
    #expect(outcome.peakBytes < 512 << 20, "peak \(outcome.peakBytes) bytes")
  }

  /// Declared dimensions near 2^31 each (a grid of 2^62 cells) neither overflow the
  /// estimate nor reach an allocation: the default limit refuses them.
  @Test func aGridOfTwoToTheSixtyTwoCellsIsRefusedWithoutOverflow() throws {
    let directory = SampleFiles.temporaryDirectory("overflow-grid")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrfout_d01_overflow.nc"
    try DeclaredGrid(westEast: Int(Int32.max), southNorth: Int(Int32.max)).write(to: path)
    let outcome = try Self.boundedIngest(["--store", "\(directory)/store", path], kibibytes: 2 << 20, seconds: 60)
    #expect(outcome.status == 1, "exit status \(outcome.status): \(outcome.standardError)")
    #expect(outcome.standardError.contains("ingesting 2147483647×2147483647 cells"))
    #expect(outcome.standardError.contains("(--max-memory)"))
  }

  /// A limit below what a sample run needs refuses it, naming the run's dimensions and the
  /// limit, and publishes nothing.
  @Test func aMaxMemoryBelowASampleRunsNeedRefusesIt() throws {
    let directory = SampleFiles.temporaryDirectory("max-memory")
    defer { SampleFiles.remove(directory) }
    let outcome = try CommandLineTool.run([
      "ingest", "--store", "\(directory)/store", "--max-memory", "64M", SampleFiles.allvars,
    ])
    #expect(outcome.status == 1)
    #expect(outcome.standardError.contains("ingesting 10×8 cells, 4 steps, 28 levels"))
    #expect(outcome.standardError.contains("more than the limit of 64.0 MiB (--max-memory)"))
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/store/wrf/d01"))
    let invalid = try CommandLineTool.run(["ingest", "--store", directory, "--max-memory", "lots", SampleFiles.allvars])
    #expect(invalid.status == 64)
    #expect(invalid.standardError.contains("--max-memory: 'lots' is not a size"))
  }

  /// The prediction is an upper bound: real ingests of the bundled samples (a NetCDF-4 and
  /// a classic WRF file, the CF grid, and the generated Portugal run, 25 hourly WRF files
  /// and the same in MM5's layout)
  /// peak, by the kernel's count of the child's resident set, below what they printed.
  @Test func peakMemoryOfSampleIngestsStaysWithinThePrediction() throws {
    let directory = SampleFiles.temporaryDirectory("peak")
    defer { SampleFiles.remove(directory) }
    let generated = "\(directory)/portugal"
    let sample = try CommandLineTool.run(["sample-run", "--out", generated, "--hours", "24"])
    #expect(sample.status == 0, "\(sample.standardError)")
    let hourly = try FileManager.default.contentsOfDirectory(atPath: generated).sorted().map { "\(generated)/\($0)" }
    let mm5 = "\(directory)/mm5.nc"
    try TestStores.writeMM5Sample(hours: 24, to: mm5)
    let runs = [
      [SampleFiles.allvars], [SampleFiles.allvarsCDF2], [SampleFiles.grid("cf/gfs_1deg_subset.nc")], hourly, [mm5],
    ]
    for (index, files) in runs.enumerated() {
      let outcome = try MeasuredProcess.run(
        CommandLineTool.executable, ["ingest", "--store", "\(directory)/store\(index)"] + files)
      #expect(outcome.status == 0, "\(outcome.standardError)")
      let predictions = outcome.standardError.split(separator: "\n").compactMap { line -> Int? in
        guard let range = line.range(of: "predicted peak memory ") else { return nil }
        let rest = line[range.upperBound...]
        guard let open = rest.firstIndex(of: "("), let end = rest.range(of: " bytes)") else { return nil }
        return Int(rest[rest.index(after: open)..<end.lowerBound])
      }
      let predicted = try #require(predictions.first, "no prediction in \(outcome.standardError)")
      #expect(outcome.peakBytes > 0)
      #expect(
        outcome.peakBytes <= predicted, "\(files.first ?? ""): peak \(outcome.peakBytes) > predicted \(predicted)")
    }
  }

  /// The byte count in parentheses after `label` on the line of `text` that has it:
  /// `(1234 bytes resident)` or `wrote 1.2 MiB (1234 bytes)`.
  private static func count(after label: String, ending: String = " bytes", in text: String) -> Int? {
    for line in text.split(separator: "\n") {
      guard let range = line.range(of: label) else { continue }
      let rest = line[range.upperBound...]
      guard let open = rest.firstIndex(of: "("), let end = rest.range(of: ending) else { continue }
      return Int(rest[rest.index(after: open)..<end.lowerBound])
    }
    return nil
  }

  /// A run written in several bands (forced by a small `--max-memory`) peaks within its
  /// prediction, writes to disk at most 1.3 times its cube by its own report
  /// (`/proc/self/io`), and stores every word a one-band ingest of the same files stores.
  /// The ingest runs under a cap on its address space and a timeout.
  @Test func aRunInBandsStaysWithinItsPredictionWritesAboutItsCubeAndEqualsOneBand() throws {
    let directory = SampleFiles.temporaryDirectory("bands")
    defer { SampleFiles.remove(directory) }
    let generated = "\(directory)/run"
    let sample = try CommandLineTool.run(["sample-run", "--out", generated, "--hours", "24"])
    #expect(sample.status == 0, "\(sample.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: generated).sorted().map { "\(generated)/\($0)" }
    let whole = try CommandLineTool.run(["ingest", "--store", "\(directory)/whole"] + files)
    #expect(whole.status == 0, "\(whole.standardError)")
    #expect(whole.standardError.contains("in 1 band of"), "\(whole.standardError)")
    // A budget 4 MiB below the one-band prediction: less than the whole grid's words
    // (135 × 80 cells × 25 steps × 2 bytes a metric, 0.5 MiB each), so the plan splits it.
    let onePlan = try #require(Self.count(after: "predicted peak memory ", in: whole.standardError))
    let banded = try Self.boundedIngest(
      ["--store", "\(directory)/banded", "--max-memory", "\(onePlan - (4 << 20))"] + files, kibibytes: 4 << 20,
      seconds: 600)
    #expect(banded.status == 0, "\(banded.standardError)")
    let plan = try #require(banded.standardError.firstMatch(of: /, in (\d+) bands of (\d+) cells/))
    let bands = try #require(Int(plan.1))
    #expect(bands > 1, "\(banded.standardError)")
    let predicted = try #require(Self.count(after: "predicted peak memory ", in: banded.standardError))
    let resident = try #require(
      Self.count(after: "ingest used at most ", ending: " bytes resident", in: banded.standardError))
    let written = try #require(Self.count(after: ", wrote ", in: banded.standardError))
    #expect(resident <= predicted, "peak \(resident) > predicted \(predicted)")
    #expect(banded.peakBytes <= predicted, "peak \(banded.peakBytes) > predicted \(predicted)")
    let path = try #require(banded.standardOutput.split(separator: "\n").first.map(String.init))
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(Double(written) <= 1.3 * Double(size), "wrote \(written) bytes for a cube of \(size)")
    // Both cubes decoded by the format's definition (`Version3Cube`), independently of the
    // reader: the same words, one band against several.
    func decoded(_ path: String) throws -> Version3Cube {
      try Version3Cube(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }
    let one = try decoded(try #require(whole.standardOutput.split(separator: "\n").first.map(String.init)))
    let many = try decoded(path)
    #expect(one.bandCount == 1)
    #expect(many.bandCount == bands)
    #expect(many.metrics.map(\.name) == one.metrics.map(\.name))
    // The sample's Lambert projection locates every cell: the record says so.
    #expect(many.geometryFlags & 1 == 1)
    var differences = 0
    for metric in one.metrics.indices {
      for cell in 0..<one.cells {
        for step in 0..<one.steps
        where many.word(metric: metric, cell: cell, step: step) != one.word(metric: metric, cell: cell, step: step) {
          differences += 1
        }
      }
    }
    #expect(differences == 0)
  }

  /// Whether this process may mount a file system (root with CAP_SYS_ADMIN), tried once.
  static let canMountTmpfs: Bool = {
    let directory = SampleFiles.temporaryDirectory("can-mount")
    defer { SampleFiles.remove(directory) }
    guard getuid() == 0,
      (try? MeasuredProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory]))?.status == 0
    else { return false }
    _ = try? MeasuredProcess.run("/bin/umount", [directory])
    return true
  }()

  /// A store on a file system too small for the cube is refused before anything is
  /// written, naming the store and the space. Needs a 1 MiB tmpfs, so root.
  @Test(.enabled(if: canMountTmpfs, "mounting a tmpfs needs root with CAP_SYS_ADMIN"))
  func aStoreWithoutRoomForTheCubeIsRefusedNamingTheStoreAndTheSpace() throws {
    let directory = SampleFiles.temporaryDirectory("small-disk")
    defer { SampleFiles.remove(directory) }
    let store = "\(directory)/store"
    try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
    #expect(try MeasuredProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", store]).status == 0)
    defer { _ = try? MeasuredProcess.run("/bin/umount", [store]) }
    let outcome = try CommandLineTool.run(["ingest", "--store", store, SampleFiles.allvars])
    #expect(outcome.status == 1)
    #expect(outcome.standardError.contains("of disk in \(store), which has"))
    #expect(outcome.standardError.contains("10×8 cells"))
  }
}
