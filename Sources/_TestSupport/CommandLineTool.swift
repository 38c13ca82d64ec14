import Foundation

/// Runs the built `nwpcube` executable, as a user would.
public enum CommandLineTool {
  /// The result of one run.
  public struct Outcome: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
  }

  /// The `nwpcube` binary next to the test bundle (SwiftPM builds both into one folder).
  public static var executable: String {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" {
      url.deleteLastPathComponent()
      let candidate = url.appendingPathComponent("nwpcube").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return "\(SampleFiles.packageRoot)/.build/debug/nwpcube"
  }

  /// Runs `nwpcube` with `arguments` and waits for it.
  public static func run(_ arguments: [String]) throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read before waiting so that a large output cannot fill the pipe and stall the child.
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
      standardError: String(decoding: err, as: UTF8.self))
  }
}
