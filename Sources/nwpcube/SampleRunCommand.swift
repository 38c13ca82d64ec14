import ArgumentParser
import SampleRun
import UTCTime

struct SampleRunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sample-run",
    abstract: "Write the synthetic Portugal 9 km WRF sample run (one wrfout file per hour).",
    discussion: """
      Deterministic: the same files every time. Used by Scripts/demo and the tests.

      With --nest moving, a 3 km nest follows a storm along the coast, as WRF's \
      vortex-following nests do, written as wrfout_d02_* files whose XLAT/XLONG change with \
      time: \(SampleNest.coastalStorm.motionDescription) RAINC, RAINNC and RAINSH accumulate \
      by place: the nest's fields move with it.
      """
  )

  /// The nests sample-run can add to the Portugal domain.
  enum Nest: String, ExpressibleByArgument, CaseIterable {
    case moving
  }

  @Option(help: "Directory to write the wrfout files into.")
  var out: String

  @Option(help: "Forecast length in hours.")
  var hours: Int = SampleRunSpec.portugal9km.hours

  @Option(help: "The run's start, an ISO 8601 UTC hour (e.g. 2026-06-19T12:00Z).")
  var start: String?

  @Option(help: "Add a nest (d02): 'moving' follows a storm by whole d01 cells (see above).")
  var nest: Nest?

  func validate() throws {
    guard (1...240).contains(hours) else { throw ValidationError("--hours \(hours) must be in 1…240") }
    if let start, UTC.parseISO8601(start).map({ $0 % 3600 == 0 }) != true {
      throw ValidationError("--start '\(start)' is not a whole UTC hour in ISO 8601, e.g. 2026-06-19T12:00Z")
    }
  }

  func run() throws {
    var spec = SampleRunSpec.portugal9km
    spec.hours = hours
    if let start, let seconds = UTC.parseISO8601(start) {
      // WRF's date form, yyyy-MM-dd_HH:mm:ss.
      spec.runStart = String(UTC.iso8601(seconds).dropLast().map { $0 == "T" ? "_" : $0 })
    }
    if nest == .moving { spec.nest = .coastalStorm }
    let paths = try SampleRunGenerator.write(spec, to: out)
    print("wrote \(paths.count) wrfout files to \(out)")
  }
}
