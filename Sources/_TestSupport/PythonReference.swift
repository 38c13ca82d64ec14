import Foundation

/// Scripts/flatbuffers-reference.py in a Python that has the PyPI packages `flatbuffers` and
/// `openmeteo-sdk`: the independent side of the FlatBuffers tests.
///
/// The Python is `$NWPCUBE_PYTHON`, else the virtual environment `Scripts/test` makes at
/// `.build/python-venv`. Tests that need it are skipped, saying why, when neither has the
/// packages (`isAvailable`, `unavailableReason`).
public enum PythonReference {
  /// The interpreter that would be used.
  public static let python: String =
    ProcessInfo.processInfo.environment["NWPCUBE_PYTHON"] ?? "\(SampleFiles.packageRoot)/.build/python-venv/bin/python"

  /// The script.
  public static let script = "\(SampleFiles.packageRoot)/Scripts/flatbuffers-reference.py"

  /// Whether the interpreter exists and imports both packages.
  public static let isAvailable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python) else { return false }
    let outcome = try? run(["-c", "import flatbuffers, openmeteo_sdk.WeatherApiResponse"], input: Data())
    return outcome?.status == 0
  }()

  /// What a skipped test says.
  public static let unavailableReason =
    "needs Python with the PyPI packages flatbuffers and openmeteo-sdk: run Scripts/test (which makes "
    + ".build/python-venv) or set NWPCUBE_PYTHON"

  /// The script run in `mode` (`build` or `decode`) on `input`.
  /// - Throws: when Python cannot start or the script fails, with its standard error.
  public static func run(mode: String, input: Data) throws -> Data {
    let outcome = try run([script, mode], input: input)
    guard outcome.status == 0 else {
      throw PythonReferenceError(message: "\(mode) failed: \(String(decoding: outcome.error, as: UTF8.self))")
    }
    return outcome.output
  }

  private static func run(_ arguments: [String], input: Data) throws -> (status: Int32, output: Data, error: Data) {
    // The input from a file: a large input and a large output must not wait on each other.
    let directory = SampleFiles.temporaryDirectory("python")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let inputPath = "\(directory)/input"
    try input.write(to: URL(fileURLWithPath: inputPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = arguments
    let (stdout, stderr) = (Pipe(), Pipe())
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let error = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, output, error)
  }
}

/// The reference script failed.
public struct PythonReferenceError: Error, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}
