import Foundation
import Platform

/// Turns SVG into PNG with librsvg's `rsvg-convert` (Debian's librsvg2-bin), run as a
/// subprocess: a well-kept renderer, rather than a rasteriser of our own (docs/meteogram.md).
public struct SVGRasterizer: Sendable {
  /// The program's name, looked up on `PATH` when no path is given.
  public static let program = "rsvg-convert"

  /// The program's path, nil when it is not installed.
  public let executable: String?
  /// How long one drawing may take before the program is stopped: a request must never
  /// wait on a renderer that hangs. A meteogram takes rsvg-convert about 50 ms.
  public let timeLimit: Double

  /// The program at `path`, or found on `PATH` when `path` is nil; `executable` is nil when
  /// it is not there or cannot be run.
  public init(
    path: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment, timeLimit: Double = 10
  ) {
    self.timeLimit = timeLimit
    let candidates: [String]
    if let path {
      candidates = [path]
    } else {
      let directories = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
      candidates = directories.map { "\($0)/\(Self.program)" }
    }
    executable = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The PNG of `svg`.
  /// - Throws: `RasterizerError.missing` without the program, `.failed` when it fails.
  public func png(_ svg: String) throws(RasterizerError) -> [UInt8] {
    guard let executable else { throw .missing(program: Self.program) }
    // The SVG goes in as a file and the PNG comes out on standard output: with only one
    // pipe to drain, the two processes cannot wait on each other.
    let input = FileManager.default.temporaryDirectory.appendingPathComponent("nwpcube-\(UUID().uuidString).svg")
    defer { try? FileManager.default.removeItem(at: input) }
    let process = Process()
    let output = Pipe()
    let errors = FileHandle(forWritingAtPath: "/dev/null")
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--format=png", input.path]
    process.standardOutput = output
    process.standardError = errors
    do {
      try Data(svg.utf8).write(to: input)
      try process.run()
    } catch {
      throw .failed(program: executable, reason: "could not start: \(error.localizedDescription)")
    }
    // Stopping the program closes its end of the pipe, which ends the read below. SIGKILL,
    // not `terminate()`'s SIGTERM: a server that handles SIGTERM (service-lifecycle does,
    // through a dispatch source) ignores it, and its children inherit that.
    let stop = DispatchWorkItem { [process] in
      if process.isRunning { try? Posix.kill(process.processIdentifier, .kill) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: stop)
    let png = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    stop.cancel()
    try? errors?.close()
    guard process.terminationReason == .exit else {
      throw .failed(
        program: executable,
        reason: "did not finish within \(timeLimit) s and was stopped (signal \(process.terminationStatus))")
    }
    guard process.terminationStatus == 0 else {
      throw .failed(program: executable, reason: "exited with status \(process.terminationStatus)")
    }
    guard png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
      throw .failed(program: executable, reason: "wrote \(png.count) bytes that are not a PNG")
    }
    return [UInt8](png)
  }
}

/// Why an SVG could not be turned into PNG.
public enum RasterizerError: Error, Equatable, CustomStringConvertible {
  /// The renderer is not installed.
  case missing(program: String)
  /// It ran and failed.
  case failed(program: String, reason: String)

  public var description: String {
    switch self {
    case .missing(let program):
      "PNG needs \(program) (Debian package librsvg2-bin), which is not installed on this server; ask for format=svg"
    case .failed(let program, let reason): "\(program) could not draw the PNG: \(reason)"
    }
  }
}
