import ArgumentParser
import SampleRun

struct SampleRunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sample-run",
    abstract: "Write the synthetic Portugal 9 km WRF sample run (one wrfout file per hour).",
    discussion: "Deterministic: the same files every time. Used by Scripts/demo and the tests."
  )

  @Option(help: "Directory to write the wrfout files into.")
  var out: String

  @Option(help: "Forecast length in hours.")
  var hours: Int = SampleRunSpec.portugal9km.hours

  func validate() throws {
    guard (1...240).contains(hours) else { throw ValidationError("--hours \(hours) must be in 1…240") }
  }

  func run() throws {
    var spec = SampleRunSpec.portugal9km
    spec.hours = hours
    let paths = try SampleRunGenerator.write(spec, to: out)
    print("wrote \(paths.count) wrfout files to \(out)")
  }
}
