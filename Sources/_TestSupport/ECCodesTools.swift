import Foundation

/// ecCodes' command-line tools (`grib_ls`, `grib_get_data`, from libeccodes-tools), run
/// as a child process: the independent oracle the GRIB reader and ingest are checked against. They
/// share the library's decoder but none of the reader's code: the key access, the message
/// scanning, the missing-value handling and every coordinate computation are their own.
public enum ECCodesTools {
  /// A SampleGrids/grib file.
  public static func sample(_ name: String) -> String { SampleFiles.grid("grib/\(name)") }

  /// Runs `tool` with `arguments` and returns its standard output; throws on failure.
  public static func run(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// A tool that did not succeed.
  public struct ToolFailure: Error, CustomStringConvertible {
    /// The command and its exit status.
    public let description: String
  }

  /// `grib_ls -j` of `keys` for every message of `path`, steps in seconds and reals to ten
  /// digits: one dictionary of key to text per message, in file order (`not_found` for a
  /// key the message does not have).
  public static func keys(_ keys: [String], of path: String) throws -> [[String: String]] {
    let text = try run(
      "grib_ls", ["-j", "-F", "%.10g", "-s", "stepUnits=s", "-p", keys.joined(separator: ","), path])
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    let messages = object?["messages"] as? [[String: Any]] ?? []
    return messages.map { message in message.mapValues { "\($0)" } }
  }

  /// `grib_get_data` of message `number` of `path`: each point's latitude, longitude and
  /// value in the message's order, NaN where the bitmap marks it missing.
  public static func data(
    of path: String, message number: Int
  ) throws -> [(latitude: Double, longitude: Double, value: Double)] {
    let text = try run(
      "grib_get_data", ["-w", "count=\(number)", "-L", "%.9f %.9f", "-F", "%.17g", "-m", "nan", path])
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 3, let latitude = Double(fields[0]), let longitude = Double(fields[1]) else { return nil }
      return (latitude, longitude, Double(fields[2]) ?? .nan)
    }
  }
}
