import CubeFormat
import Foundation
import Testing
import _TestSupport

/// Ingest now writes cube format version 3, and a grid that does not move holds exactly what
/// the earlier builds' version 2 cubes held: the reference outputs were written by nwpcube
/// d578462 (SampleGrids/README.md), and ingest's output depends on its input alone (no time
/// or host in a cube). The version 3 cube is decoded by `Version3Cube` (from the
/// specification), compared with the reference through the version 2 reader, and written
/// again as version 2, which must reproduce the reference byte for byte. Metrics added since
/// (`snow_depth`, from the file's SNOWH) are left out of the comparison, and so is the
/// input convention that version 3 records and version 2 has no field for.
@Suite struct CubeByteIdentityTests {
  /// The metrics the earlier build stored.
  static let earlierMetrics: Set<String> = [
    "temp", "hum", "dew_point", "rain", "snow", "cloud", "wind_u", "wind_v", "atm_press", "sfc_press", "shortwave",
    "apparent_temp", "visibility", "weather_code", "showers", "snowfall", "cloud_low", "cloud_mid", "cloud_high",
    "wind_gusts", "precip_neighbourhood",
  ]

  /// The version 3 cube at `path`, decoded; its header as the earlier build would have
  /// written it (its metrics only, no input convention) with each of those metrics' index in
  /// the cube; and the bytes of that cube re-encoded as version 2 (written with that header,
  /// the same positions and words, at `rewritten`).
  static func decodeAndRewrite(
    _ path: String, as rewritten: String
  ) throws -> (cube: Version3Cube, header: CubeHeader, indices: [Int], bytes: [UInt8]) {
    let cube = try Version3Cube(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    var header = cube.header
    let indices = header.metrics.indices.filter { Self.earlierMetrics.contains(header.metrics[$0].name) }
    header.metrics = indices.map { header.metrics[$0] }
    header.inputConvention = 0
    let writer = try CubeWriter(
      header: header, positions: cube.grids, stepPositions: cube.stepPositions, destination: rewritten,
      formatVersion: 2)
    for (metric, source) in indices.enumerated() {
      let definition = header.metrics[metric]
      for step in 0..<cube.steps {
        let values = (0..<cube.cells).map { definition.decode(cube.word(metric: source, cell: $0, step: step)) ?? .nan }
        #expect(writer.write(metric: metric, step: step, values: values) == nil)
      }
    }
    _ = try writer.publish()
    return (cube, header, indices, Array(try Data(contentsOf: URL(fileURLWithPath: rewritten))))
  }

  @Test func theRealWRFFileIngestsIntoTheContentOfTheEarlierBuild() throws {
    let store = SampleFiles.temporaryDirectory("byte-identity")
    defer { SampleFiles.remove(store) }
    let outcome = try CommandLineTool.run([
      "ingest", "--store", store, SampleFiles.grid("wrf/wrf_d01_allvars_lambert.nc"),
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let referencePath = SampleFiles.grid("cubes/wrf_d01_allvars_v2.cube")
    let reference = Array(try Data(contentsOf: URL(fileURLWithPath: referencePath)))
    let (cube, header, indices, rewritten) = try Self.decodeAndRewrite(
      "\(store)/wrf/d01/2005092012.cube", as: "\(store)/rewritten/wrf/d01/2005092012.cube")
    // This build adds snow_depth from SNOWH and records that the input was WRF.
    #expect(cube.metrics.map(\.name).filter { !Self.earlierMetrics.contains($0) } == ["snow_depth"])
    #expect(cube.inputConvention == 1)
    // The words, coordinates and terrain of the version 3 cube are the reference's, as the
    // version 2 reader reads them.
    let old = try CubeFile(path: referencePath)
    #expect(old.formatVersion == 2 && old.header == header)
    var differing: [String] = []
    for (metric, source) in indices.enumerated() {
      for cell in 0..<cube.cells {
        for step in 0..<cube.steps
        where old.word(metric: metric, cell: cell, step: step) != cube.word(metric: source, cell: cell, step: step) {
          differing.append("\(old.header.metrics[metric].name) cell \(cell) step \(step)")
        }
      }
    }
    #expect(differing.isEmpty, "\(differing.prefix(5))")
    #expect(old.latitudes.map(\.bitPattern) == cube.latitudes[0].map(\.bitPattern))
    #expect(old.longitudes.map(\.bitPattern) == cube.longitudes[0].map(\.bitPattern))
    #expect(old.terrain?.heights.map(\.bitPattern) == cube.heights.first?.map(\.bitPattern))
    #expect(old.terrain?.landMask == cube.landMasks.first)
    // And version 2 written from it is the reference, byte for byte.
    #expect(rewritten.count == reference.count)
    let first = zip(rewritten, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    #expect(first == nil, "the cubes differ first at byte \(first ?? -1)")
    // This build reads the earlier build's cube as a grid of one position.
    let info = try CommandLineTool.run(["info", "--json", referencePath])
    #expect(info.status == 0, "\(info.standardError)")
    let object = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
    #expect(object?["positions"] as? Int == 1 && object?["steps"] as? Int == 4, "\(info.standardOutput)")
  }

  /// The sample run's six hours on the 135 × 80 Portugal grid, with terrain: the version 2
  /// cube nwpcube d578462 wrote from the same files is 2.7 MB, so its SHA-256 (by coreutils'
  /// `sha256sum`) stands for it; the version 3 cube written now, re-encoded as version 2,
  /// must have that digest.
  @Test func theSampleRunIngestsIntoTheContentOfTheEarlierBuild() throws {
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
    let rewritten = "\(directory)/rewritten/wrf/d01/2026061912.cube"
    let (cube, _, _, bytes) = try Self.decodeAndRewrite("\(directory)/store/wrf/d01/2026061912.cube", as: rewritten)
    #expect(cube.bandCount == 1 && cube.heights.count == 1)
    #expect(bytes.count == 2_689_648)
    let digest = Process()
    digest.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    digest.arguments = ["sha256sum", rewritten]
    let output = Pipe()
    digest.standardOutput = output
    try digest.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    digest.waitUntilExit()
    #expect(text.hasPrefix("e8cac53410af9cafa141df7d7bae664aa4009e9223732930295d451e918cd3b9 "), "\(text)")
  }
}
