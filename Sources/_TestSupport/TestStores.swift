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

  /// Writes the Portugal sample's first `hours` hours in MM5's archiver layout, one file,
  /// for tests that run the CLI on it.
  public static func writeMM5Sample(hours: Int, to path: String) throws {
    var spec = SampleRunSpec.portugal9km
    spec.hours = hours
    try SampleRunGenerator.writeMM5(spec, to: path)
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

  /// Like `publish`, but with the run's precipitation replaced, so that a test can choose
  /// the hour's amounts: `hourlyRain(step, i, j)` is the amount (mm) in the hour ending at
  /// output step `step` (≥ 1; the spec must be hourly) at cell (i, j). The file holds it
  /// as WRF does, accumulated since the start in RAINNC (single precision), with RAINC and
  /// RAINSH zero.
  @discardableResult
  public static func publish(
    _ spec: SampleRunSpec, into store: String, model: String = "wrf", hourlyRain: (Int, Int, Int) -> Double
  ) throws -> String {
    precondition(spec.stepMinutes == 60, "hourlyRain needs hourly output")
    let scratch = SampleFiles.temporaryDirectory("rain")
    defer { SampleFiles.remove(scratch) }
    let generated = "\(scratch)/generated.nc"
    try SampleRunGenerator.writeSingleFile(spec, to: generated)
    let (width, height) = (spec.westEast, spec.southNorth)
    var accumulated = [Double](repeating: 0, count: spec.stepCount * width * height)
    for step in 1..<spec.stepCount {
      for j in 0..<height {
        for i in 0..<width {
          let cell = j * width + i
          accumulated[step * width * height + cell] =
            accumulated[(step - 1) * width * height + cell] + hourlyRain(step, i, j)
        }
      }
    }
    let file = "\(scratch)/wrfout_d01_\(spec.runStart)"
    let zeroed: Set<String> = ["RAINC", "RAINSH", "I_RAINC", "I_RAINNC"]
    try WRFFixture.copy(
      generated, to: file,
      transform: { (name: String, values: [Double]) -> [Double] in
        if name == "RAINNC" { return accumulated }
        return zeroed.contains(name) ? [Double](repeating: 0, count: values.count) : values
      })
    let report = try Ingestor.run([file], options: .init(store: store, model: model))
    return report.published[0].path
  }
}
