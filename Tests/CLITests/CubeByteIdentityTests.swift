import Foundation
import Testing
import _TestSupport

/// A run whose grid does not move is ingested into the same bytes as before cubes could
/// hold a grid that moves: the reference outputs were written by nwpcube d578462
/// (SampleGrids/README.md), and ingest's output depends on its input alone (no time or
/// host in a cube), so the bytes must match exactly.
@Suite struct CubeByteIdentityTests {
  @Test func theRealWRFFileIngestsIntoTheBytesOfTheEarlierBuild() throws {
    let store = SampleFiles.temporaryDirectory("byte-identity")
    defer { SampleFiles.remove(store) }
    let outcome = try CommandLineTool.run([
      "ingest", "--store", store, SampleFiles.grid("wrf/wrf_d01_allvars_lambert.nc"),
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let written = try Data(contentsOf: URL(fileURLWithPath: "\(store)/wrf/d01/2005092012.cube"))
    let reference = try Data(contentsOf: URL(fileURLWithPath: SampleFiles.grid("cubes/wrf_d01_allvars_v2.cube")))
    #expect(written.count == reference.count)
    let first = zip(written, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(first == nil, "the cubes differ first at byte \(first ?? -1)")
    // And this build reads the earlier build's cube as a grid of one position.
    let info = try CommandLineTool.run(["info", "--json", SampleFiles.grid("cubes/wrf_d01_allvars_v2.cube")])
    #expect(info.status == 0, "\(info.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
    #expect(object?["positions"] as? Int == 1 && object?["steps"] as? Int == 4, "\(info.standardOutput)")
  }

  /// The sample run's six hours on the 135 × 80 Portugal grid, with terrain: its cube is
  /// 2.7 MB, so its SHA-256 (by coreutils' `sha256sum` of the cube nwpcube d578462 wrote
  /// from the same files) stands for it.
  @Test func theSampleRunIngestsIntoTheBytesOfTheEarlierBuild() throws {
    let directory = SampleFiles.temporaryDirectory("byte-identity-run")
    defer { SampleFiles.remove(directory) }
    let run = try CommandLineTool.run([
      "sample-run", "--out", "\(directory)/run", "--hours", "6", "--start", "2026-06-19T12:00Z",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let files = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/run")
      .filter { $0.hasPrefix("wrfout_d01_") }.sorted().map { "\(directory)/run/\($0)" }
    #expect(files.count == 7)
    let outcome = try CommandLineTool.run(["ingest", "--store", "\(directory)/store"] + files)
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let cube = "\(directory)/store/wrf/d01/2026061912.cube"
    let size = try FileManager.default.attributesOfItem(atPath: cube)[.size] as? Int
    #expect(size == 2_689_648)
    let digest = Process()
    digest.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    digest.arguments = ["sha256sum", cube]
    let output = Pipe()
    digest.standardOutput = output
    try digest.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    digest.waitUntilExit()
    #expect(text.hasPrefix("e8cac53410af9cafa141df7d7bae664aa4009e9223732930295d451e918cd3b9 "), "\(text)")
  }
}
