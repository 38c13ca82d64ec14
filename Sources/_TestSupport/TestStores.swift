import Ingest
import SampleRun

/// Stores of several small generated runs, for tests of run selection and live reloading.
public enum TestStores {
  /// A small run of the Portugal sample's geometry family: 24 × 18 cells, 2 levels, hourly,
  /// starting at `start` (`yyyy-MM-dd_HH:mm:ss`) for `hours` hours. `seed` makes its values
  /// differ from another run's.
  public static func spec(start: String, hours: Int, seed: UInt64) -> SampleRunSpec {
    SampleRunSpec(westEast: 24, southNorth: 18, levels: 2, dx: 27_000, runStart: start, hours: hours, seed: seed)
  }

  /// Generates the run of `spec` as one wrfout file and ingests it into `store`; returns
  /// the published cube's path.
  @discardableResult
  public static func publish(_ spec: SampleRunSpec, into store: String, model: String = "wrf") throws -> String {
    let scratch = SampleFiles.temporaryDirectory("run")
    defer { SampleFiles.remove(scratch) }
    let file = "\(scratch)/wrfout_d01_\(spec.runStart)"
    try SampleRunGenerator.writeSingleFile(spec, to: file)
    let report = try Ingestor.run([file], options: .init(store: store, model: model))
    return report.published[0].path
  }
}
