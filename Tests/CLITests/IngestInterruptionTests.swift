import CubeFormat
import Foundation
import Testing
import _TestSupport

/// An ingest killed while writing leaves its hidden temporary file, never a partial cube;
/// the next ingest removes the leftover and says so.
@Suite struct IngestInterruptionTests {
  @Test func theNextIngestRemovesTheTemporaryFileOfAKilledOne() throws {
    let directory = SampleFiles.temporaryDirectory("cli-kill")
    defer { SampleFiles.remove(directory) }
    let generated = try CommandLineTool.run(["sample-run", "--out", "\(directory)/run", "--hours", "24"])
    try #require(generated.status == 0, "\(generated.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/run").sorted()
      .map { "\(directory)/run/\($0)" }
    let store = "\(directory)/store"
    let domain = "\(store)/wrf/d01"

    let ingest = Process()
    ingest.executableURL = URL(fileURLWithPath: CommandLineTool.executable)
    ingest.arguments = ["ingest", "--store", store] + files
    ingest.standardOutput = FileHandle.nullDevice
    ingest.standardError = FileHandle.nullDevice
    try ingest.run()
    defer { if ingest.isRunning { kill(ingest.processIdentifier, SIGKILL) } }
    // The writer creates its file at the start of the cube and appends each band to it as
    // the band is done. Polled, with a generous limit only as a hang detector.
    let leftover = try #require(
      Self.poll(seconds: 300) { () -> String? in
        guard ingest.isRunning else { return "" }
        return (try? FileManager.default.contentsOfDirectory(atPath: domain))?.first { $0.hasPrefix(".") }
      })
    try #require(!leftover.isEmpty, "the ingest ended before its temporary file was seen")
    #expect(kill(ingest.processIdentifier, SIGKILL) == 0)
    ingest.waitUntilExit()  // reaped: its PID no longer exists
    #expect(ingest.terminationReason == .uncaughtSignal)
    let path = "\(domain)/\(leftover)"
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(leftover.hasSuffix(".tmp.\(Self.host).\(ingest.processIdentifier)"), "\(leftover)")
    #expect(leftover.hasPrefix(".2026062000.cube.tmp."))
    // At least the header the writer sized it to at once, so that a cleaner never takes it
    // for a writer that has not locked its file yet.
    #expect(size >= 256)
    // Never a partial cube in sight.
    #expect(try FileManager.default.contentsOfDirectory(atPath: domain) == [leftover])

    let again = try CommandLineTool.run(["ingest", "--store", store] + files)
    #expect(again.status == 0, "\(again.standardError)")
    #expect(
      again.standardError.contains(
        "removed stale temporary file \(path) (\(size) bytes), left by process \(ingest.processIdentifier), which no longer exists"
      ), "\(again.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: domain) == ["2026062000.cube"])
  }

  @Test func pruneRemovesTheTemporaryFilesOfDeadWritersAndDryRunOnlySaysSo() throws {
    let directory = SampleFiles.temporaryDirectory("cli-prune-tmp")
    defer { SampleFiles.remove(directory) }
    let store = "\(directory)/store"
    try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 3, seed: 1), into: store)
    let exited = Process()
    exited.executableURL = URL(fileURLWithPath: "/bin/true")
    try exited.run()
    exited.waitUntilExit()
    let path = "\(store)/wrf/d01/.2026062006.cube.tmp.\(Self.host).\(exited.processIdentifier)"
    try Data(repeating: 1, count: 5000).write(to: URL(fileURLWithPath: path))
    let line =
      "stale temporary file \(path) (5000 bytes), left by process \(exited.processIdentifier), which no longer exists"

    let dry = try CommandLineTool.run(["prune", "--store", store, "--keep", "1", "--dry-run"])
    #expect(dry.status == 0, "\(dry.standardError)")
    #expect(dry.standardOutput.contains("would remove \(line)"), "\(dry.standardOutput)")
    #expect(FileManager.default.fileExists(atPath: path))

    let pruned = try CommandLineTool.run(["prune", "--store", store, "--keep", "1"])
    #expect(pruned.status == 0, "\(pruned.standardError)")
    #expect(pruned.standardOutput.contains("removed \(line)"), "\(pruned.standardOutput)")
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(pruned.standardOutput.contains("wrf/d01 2026062000 keep"))
  }

  static let host = TemporaryFiles.host

  /// Calls `body` every 10 ms until it returns a value, for at most `seconds`.
  static func poll<T>(seconds: Double, _ body: () -> T?) -> T? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
      if let value = body() { return value }
      usleep(10_000)
    }
    return nil
  }
}
