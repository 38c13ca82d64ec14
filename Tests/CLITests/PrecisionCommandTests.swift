import Foundation
import Testing
import _TestSupport

/// `ingest --precision` and `info --json`: the chosen steps reach the cube, bad choices are
/// refused naming the metric and why, and `info --json` reports each metric's share of the
/// file so that bytes per value of any set of metrics can be added up.
@Suite struct PrecisionCommandTests {
  /// The `info --json` object of `cube`.
  static func info(_ cube: String) throws -> [String: Any] {
    let outcome = try CommandLineTool.run(["info", "--json", cube])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
  }

  @Test func chosenPrecisionsReachTheCubeAndInfoReportsThem() throws {
    let directory = SampleFiles.temporaryDirectory("cli-precision")
    defer { SampleFiles.remove(directory) }
    let ingest = try CommandLineTool.run([
      "ingest", "--store", "\(directory)/store", "--precision", "temp=0.01,rain=0.05", SampleFiles.allvars,
    ])
    #expect(ingest.status == 0, "\(ingest.standardError)")
    let cube = ingest.standardOutput.trimmingCharacters(in: .newlines)
    let json = try Self.info(cube)
    #expect(json["format_version"] as? Int == 3)
    let cells = try #require(json["cells"] as? Int)
    let steps = try #require(json["steps"] as? Int)
    #expect(cells == 80 && steps == 4)
    let fileBytes = try #require(json["file_bytes"] as? Int)
    #expect(fileBytes == (try FileManager.default.attributesOfItem(atPath: cube)[.size] as? Int))
    let metrics = try #require(json["metrics"] as? [[String: Any]])
    let byName = Dictionary(uniqueKeysWithValues: metrics.compactMap { m in (m["name"] as? String).map { ($0, m) } })
    #expect(byName["temp"]?["precision"] as? Double == 0.01)
    #expect(byName["rain"]?["precision"] as? Double == 0.05)
    #expect(byName["hum"]?["precision"] as? Double == 1)
    #expect(byName["temp"]?["unit"] as? String == "°C")
    #expect(byName["weather_code"]?["precision"] as? Double == 1)
    // Each metric's bytes are its section: table (8 per cell) and padding at least, and
    // together less than the file.
    var total = 0
    for metric in metrics {
      let stored = try #require(metric["stored_bytes"] as? Int)
      #expect(stored >= 8 * cells + 8)
      let perValue = try #require(metric["bytes_per_value"] as? Double)
      #expect(abs(perValue - Double(stored) / Double(cells * steps)) < 1e-12)
      total += stored
    }
    #expect(total < fileBytes)
    // The text form says the version and the precisions too.
    let text = try CommandLineTool.run(["info", cube])
    #expect(text.standardOutput.contains("format    version 3"))
    #expect(text.standardOutput.contains("precision"))
  }

  /// A version 1 cube: precision is its step, stored bytes 2 × cells × steps.
  @Test func infoJSONDescribesAVersionOneCube() throws {
    let json = try Self.info(SampleFiles.grid("cubes/wrf_d01_allvars_v1.cube"))
    #expect(json["format_version"] as? Int == 1)
    let metrics = try #require(json["metrics"] as? [[String: Any]])
    #expect(metrics.count == 21)
    for metric in metrics {
      #expect(metric["stored_bytes"] as? Int == 2 * 80 * 4)
      #expect(metric["bytes_per_value"] as? Double == 2)
    }
    #expect(metrics.first?["precision"] as? Double == 0.01)
  }

  @Test func badPrecisionsAreRefusedNamingTheMetricAndWhy() throws {
    let directory = SampleFiles.temporaryDirectory("cli-precision-bad")
    defer { SampleFiles.remove(directory) }
    for (choice, reason) in [
      ("tmp=0.1", "unknown metric 'tmp'"), ("temp=0", "temp=0.0 is not a positive step"),
      ("temp=-0.5", "temp=-0.5 is not a positive step"), ("temp=abc", "temp=abc is not a number"),
      ("temp=0.1,temp=0.2", "temp is given twice"), ("weather_code=2", "weather_code is a category"),
      ("wind_vel=0.1", "wind_vel is computed at query time"),
      ("temp=1000", "temp=1000.0 is coarser than its whole range"),
      ("sfc_press=0.01", "sfc_press=0.01 is too fine"), ("temp", "'temp' is not name=step"),
      ("temp=nan", "temp=nan is not a positive step"),
    ] {
      let outcome = try CommandLineTool.run([
        "ingest", "--store", "\(directory)/store", "--precision", choice, SampleFiles.allvars,
      ])
      #expect(outcome.status == 64, "\(choice): status \(outcome.status)")
      let first = outcome.standardError.split(separator: "\n").first.map(String.init) ?? ""
      #expect(first.contains("--precision: \(reason)"), "\(choice): \(first)")
    }
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/store/wrf"))
  }
}
