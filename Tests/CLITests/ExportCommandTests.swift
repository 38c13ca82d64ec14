import Foundation
import Meteorology
import PointQuery
import Testing
import UTCTime
import _TestSupport

/// `nwpcube export`: the file's values against the library's and `query`'s at the same
/// cells, its order against the source NetCDF file, and its errors.
@Suite struct ExportCommandTests {
  /// The allvars sample: 10 west–east × 8 south–north cells (not square, so a transposed
  /// file cannot pass), 4 steps, rain missing at the first step.
  static let (width, height, steps) = (10, 8, 4)

  /// Ingests allvars into `directory`; returns the cube's path.
  private func ingest(_ directory: String, _ source: String = SampleFiles.allvars) throws -> String {
    let outcome = try CommandLineTool.run(["ingest", "--store", "\(directory)/store", source])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    return outcome.standardOutput.trimmingCharacters(in: .newlines)
  }

  /// Exports `metric` and reads the file back as numpy would (`<f4`).
  private func export(_ cube: String, _ metric: String, to out: String) throws -> [Float] {
    let outcome = try CommandLineTool.run(["export", cube, "--metric", metric, "--out", out])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let data = try Data(contentsOf: URL(fileURLWithPath: out))
    #expect(data.count == Self.steps * Self.height * Self.width * 4)
    return stride(from: 0, to: data.count, by: 4).map { offset in
      Float(
        bitPattern: UInt32(
          littleEndian: data[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
    }
  }

  /// Every value of temp, rain (missing at step 0) and wind_vel (derived from u and v) at
  /// every cell and step equals, rounded to float32, what the library answers at the point
  /// located from that cell's own XLAT/XLONG in the NetCDF file, so the file's order is the
  /// grid's by an oracle that does not share the export's cell walk. temp also matches the
  /// source T2 within half its quantization step.
  @Test func everyValueIsTheLibrarysAtTheCellLocatedFromTheSourceCoordinates() throws {
    let directory = SampleFiles.temporaryDirectory("cli-export")
    defer { SampleFiles.remove(directory) }
    let path = try ingest(directory)
    let cube = try Cube(path: path)
    #expect(cube.header.width == Self.width && cube.header.height == Self.height && cube.stepCount == Self.steps)
    let latitudes = try NCFileProbe.values(SampleFiles.allvars, "XLAT")
    let longitudes = try NCFileProbe.values(SampleFiles.allvars, "XLONG")
    let cells = Self.width * Self.height
    var compared = 0
    var missing = 0
    for name in ["temp", "rain", "wind_vel"] {
      let exported = try export(path, name, to: "\(directory)/\(name).f32")
      let metric = try cube.metric(name)
      for j in 0..<Self.height {
        for i in 0..<Self.width {
          let cell = j * Self.width + i
          let location = try cube.locate(
            latitude: latitudes[cell], longitude: longitudes[cell], method: .nearest)
          #expect(location.i == i && location.j == j, "cell (\(i), \(j)) located as (\(location.i), \(location.j))")
          for step in 0..<Self.steps {
            let value = try cube.value(metric, at: location, time: cube.time(ofStep: step))
            let written = exported[step * cells + cell]
            if let value {
              #expect(written == Float(value), "\(name) at (\(i), \(j)) step \(step): \(written) vs \(value)")
            } else {
              #expect(written.isNaN, "\(name) at (\(i), \(j)) step \(step): \(written) where the library has none")
              missing += 1
            }
            compared += 1
          }
        }
      }
    }
    #expect(compared == 3 * cells * Self.steps)
    // Rain is an amount over the hour ending at a step: none at the first step.
    #expect(missing == cells)

    let temperature = try export(path, "temp", to: "\(directory)/temp.f32")
    let source = try NCFileProbe.values(SampleFiles.allvars, "T2")
    let tolerance = (Metric.temp.step ?? 0.01) / 2 + 1e-4
    for index in 0..<source.count {
      let kelvin = source[index]
      #expect(abs(Double(temperature[index]) - (kelvin - 273.15)) <= tolerance, "T2 at flat index \(index)")
    }
  }

  /// At sampled cells and steps, every cell of one step's row included, the file holds
  /// what `nwpcube query` prints there (to the decimals it prints).
  @Test func sampledValuesEqualWhatQueryPrints() throws {
    let directory = SampleFiles.temporaryDirectory("cli-export-query")
    defer { SampleFiles.remove(directory) }
    let path = try ingest(directory)
    let cube = try Cube(path: path)
    let exported = try export(path, "temp", to: "\(directory)/temp.f32")
    let latitudes = try NCFileProbe.values(SampleFiles.allvars, "XLAT")
    let longitudes = try NCFileProbe.values(SampleFiles.allvars, "XLONG")
    let samples = (0..<Self.width).map { (i: $0, j: 5, step: 2) } + [(0, 0, 0), (9, 7, 3), (3, 1, 1), (7, 6, 0)]
    for (i, j, step) in samples {
      let cell = j * Self.width + i
      let outcome = try CommandLineTool.run([
        "query", "--store", "\(directory)/store", "--lat", String(latitudes[cell]), "--lon",
        String(longitudes[cell]), "--time", UTC.iso8601(cube.time(ofStep: step)), "--metrics", "temp",
      ])
      #expect(outcome.status == 0, "\(outcome.standardError)")
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
      let answered = try #require(json["cell"] as? [String: Any])
      #expect(answered["i"] as? Int == i && answered["j"] as? Int == j)
      let value = try #require((json["values"] as? [String: Any])?["temp"] as? Double)
      let written = Double(exported[step * Self.width * Self.height + cell])
      #expect(
        abs(written - value) <= 0.5e-2 + 1e-4, "temp at (\(i), \(j)) step \(step): file \(written), query \(value)")
    }
  }

  /// The shape goes to standard error, in the order the file is written, and nothing to
  /// standard output.
  @Test func theShapeIsPrintedOnStandardError() throws {
    let directory = SampleFiles.temporaryDirectory("cli-export-shape")
    defer { SampleFiles.remove(directory) }
    let path = try ingest(directory)
    let out = "\(directory)/wind_u.f32"
    let outcome = try CommandLineTool.run(["export", path, "--metric", "wind_u", "--out", out])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput.isEmpty)
    #expect(
      outcome.standardError
        == "\(out): wind_u (m/s) as little-endian float32, shape [4, 8, 10] = steps × south_north × west_east, NaN where missing; steps from 2005-09-21T00:00:00Z every 3 h\n"
    )
  }

  /// Each failure exits with status 1 and one line naming the cube, metric or output at
  /// fault, and leaves no file behind (a failed export never leaves a partial one).
  @Test func failuresNameWhatIsWrongAndLeaveNoFile() throws {
    let directory = SampleFiles.temporaryDirectory("cli-export-errors")
    defer { SampleFiles.remove(directory) }
    let path = try ingest(directory)
    let out = "\(directory)/out.f32"
    func expectFailure(_ arguments: [String], mentions parts: [String]) throws {
      let outcome = try CommandLineTool.run(["export"] + arguments)
      #expect(outcome.status == 1, "status \(outcome.status) for \(arguments)")
      #expect(outcome.standardError.split(separator: "\n").count == 1, "\(outcome.standardError)")
      for part in parts {
        #expect(outcome.standardError.contains(part), "'\(part)' not in: \(outcome.standardError)")
      }
      #expect(!FileManager.default.fileExists(atPath: out))
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter {
        $0.hasPrefix(".") && $0.contains(".tmp.")
      }
      #expect(leftovers.isEmpty, "\(leftovers)")
    }

    try expectFailure([path, "--metric", "tmp", "--out", out], mentions: ["unknown metric 'tmp'", "temp"])
    try expectFailure(
      [path, "--metric", "precipitation_probability", "--out", out],
      mentions: [path, "cannot export precipitation_probability", "precip_neighbourhood"])

    let nowhere = "\(directory)/nowhere.cube"
    try expectFailure([nowhere, "--metric", "temp", "--out", out], mentions: [nowhere, "No such file"])
    let good = try Data(contentsOf: URL(fileURLWithPath: path))
    let truncated = "\(directory)/truncated.cube"
    try good.prefix(good.count - 17).write(to: URL(fileURLWithPath: truncated))
    try expectFailure([truncated, "--metric", "temp", "--out", out], mentions: [truncated, "truncated"])

    let missingDirectory = "\(directory)/no/such/dir/out.f32"
    try expectFailure(
      [path, "--metric", "temp", "--out", missingDirectory],
      mentions: ["--out \(missingDirectory): cannot write: No such file or directory"])
    try expectFailure(
      [path, "--metric", "temp", "--out", directory],
      mentions: ["--out \(directory): cannot rename into place: Is a directory"])
    try expectFailure(
      [path, "--metric", "temp", "--out", path], mentions: ["--out \(path): is the cube being exported"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == good)

    // A metric the cube lacks: tip_d1 has no cloud inputs.
    let tip = try ingest("\(directory)/tip", SampleFiles.tipD1)
    try expectFailure(
      [tip, "--metric", "cloud", "--out", out],
      mentions: [tip, "cannot export cloud: not in this cube: derived from CLDFRA"])

    let usage = try CommandLineTool.run(["export", path, "--out", out])
    #expect(usage.status == 64)
    #expect(usage.standardError.contains("--metric"))
  }
}
