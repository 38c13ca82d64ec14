import Foundation

/// Runs a program as a child process and reports, besides its status and output, its own
/// peak resident memory as the kernel counted it (`ru_maxrss`), through GNU time.
///
/// Not `wait4` on a child of the test process: Linux carries the high-water mark of the
/// address space a process replaces over its `exec`, and a child spawned from a test
/// runner holding 160 MB reports at least that, whatever it uses. GNU time is small, and
/// forks the program from its own small address space. Nor `getrusage(RUSAGE_CHILDREN)`:
/// it is the largest of every child the test process ever waited for.
public enum MeasuredProcess {
  /// GNU time, which `Scripts/install-deps` installs.
  public static let time = "/usr/bin/time"

  /// The outcome of one run.
  public struct Outcome: Sendable {
    /// The exit status, or 128 + the signal that ended the child.
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
    /// The child's peak resident set, bytes.
    public let peakBytes: Int
  }

  /// Why the child could not be started.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Runs `executable` with `arguments` and waits for it. Output goes through files, so a
  /// large output cannot stall the child.
  public static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
    let directory = SampleFiles.temporaryDirectory("measured")
    defer { SampleFiles.remove(directory) }
    let (outPath, errPath) = ("\(directory)/out", "\(directory)/err")
    guard FileManager.default.isExecutableFile(atPath: time) else {
      throw Failure(description: "\(time) is missing: install GNU time (Scripts/install-deps does)")
    }
    guard FileManager.default.createFile(atPath: outPath, contents: nil),
      FileManager.default.createFile(atPath: errPath, contents: nil),
      let standardOutput = FileHandle(forWritingAtPath: outPath),
      let standardError = FileHandle(forWritingAtPath: errPath)
    else { throw Failure(description: "cannot create the output files in \(directory)") }
    defer {
      try? standardOutput.close()
      try? standardError.close()
    }
    let peakPath = "\(directory)/peak"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: time)
    process.arguments = ["-f", "%M", "-o", peakPath, executable] + arguments
    process.standardOutput = standardOutput
    process.standardError = standardError
    do {
      try process.run()
    } catch {
      throw Failure(description: "cannot start \(executable): \(error)")
    }
    process.waitUntilExit()
    let exit =
      process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    // GNU time writes "Command exited with non-zero status N" first when it did; the peak
    // (KiB) is the last line.
    let peak = read(peakPath).split(separator: "\n").last.flatMap { Int($0) } ?? 0
    return Outcome(status: exit, standardOutput: read(outPath), standardError: read(errPath), peakBytes: peak * 1024)
  }
}
