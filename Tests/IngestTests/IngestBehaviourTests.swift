import CubeFormat
import Foundation
import Meteorology
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

@testable import Ingest

/// A short generated run (hourly unless `stepMinutes` says otherwise) in a fresh directory.
private func generatedRun(hours: Int, stepMinutes: Int = 60, in directory: String) throws -> [String] {
  var spec = SampleRunSpec.portugal9km
  spec.hours = hours
  spec.stepMinutes = stepMinutes
  return try SampleRunGenerator.write(spec, to: directory)
}

private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

@Suite struct IngestBehaviourTests {
  @Test func inputOrderAndFileSplittingDoNotChangeTheCube() throws {
    let directory = SampleFiles.temporaryDirectory("order")
    defer { SampleFiles.remove(directory) }
    let files = try generatedRun(hours: 5, in: "\(directory)/run")
    let sorted = try Ingestor.run(files, options: .init(store: "\(directory)/a", precision: Metric.versionOneSteps))
    let shuffled = try Ingestor.run(
      files.reversed().shuffled(), options: .init(store: "\(directory)/b", precision: Metric.versionOneSteps))
    var spec = SampleRunSpec.portugal9km
    spec.hours = 5
    try SampleRunGenerator.writeSingleFile(spec, to: "\(directory)/single.nc")
    let single = try Ingestor.run(
      ["\(directory)/single.nc"], options: .init(store: "\(directory)/c", precision: Metric.versionOneSteps))
    let reference = try bytes(sorted.published[0].path)
    #expect(try bytes(shuffled.published[0].path) == reference)
    #expect(try bytes(single.published[0].path) == reference)
    #expect(sorted.published[0].path.hasSuffix("/wrf/d01/2026062000.cube"))
    #expect(sorted.published[0].steps == 6)
  }

  @Test func rainAtTheRunsFirstStepIsZeroAndLaterStepsAreHourlyDifferences() throws {
    let directory = SampleFiles.temporaryDirectory("rain")
    defer { SampleFiles.remove(directory) }
    let files = try generatedRun(hours: 6, in: "\(directory)/run")
    let cube = try Cube(
      path: try Ingestor.run(files, options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps))
        .published[0].path)
    let rain = try cube.metric("rain")
    let accumulated = try files.map { path in
      let file = try NCFile.open(path)
      defer { file.close() }
      let c = try file.readRaw("RAINC", start: [0, 0, 0], count: [1, 80, 135])
      let n = try file.readRaw("RAINNC", start: [0, 0, 0], count: [1, 80, 135])
      let s = try file.readRaw("RAINSH", start: [0, 0, 0], count: [1, 80, 135])
      return (0..<(80 * 135)).map { c[$0] + n[$0] + s[$0] }
    }
    // The wettest cell at the end of the run, so that the check is not of zeros.
    let wettest = try #require(accumulated.last!.indices.max { accumulated.last![$0] < accumulated.last![$1] })
    #expect(accumulated.last![wettest] > 1)
    let grid = cube.locator.grid
    let location = try cube.locate(
      latitude: Double(grid.latitudes[wettest]), longitude: Double(grid.longitudes[wettest]), method: .nearest)
    #expect(try cube.value(rain, at: location, time: cube.time(ofStep: 0)) == 0)
    for step in 1..<files.count {
      let expected = max(accumulated[step][wettest] - accumulated[step - 1][wettest], 0)
      let value = try #require(try cube.value(rain, at: location, time: cube.time(ofStep: step)))
      #expect(abs(value - expected) <= 0.01)
      // Between steps, rain is the amount of the hour that contains the time, not a blend.
      if step < files.count - 1 {
        let half = try cube.value(rain, at: location, time: cube.time(ofStep: step) - 1800)
        #expect(half == value)
      }
    }
  }

  @Test func quarterHourStepsSumTheLastHour() throws {
    let directory = SampleFiles.temporaryDirectory("quarter")
    defer { SampleFiles.remove(directory) }
    let files = try generatedRun(hours: 2, stepMinutes: 15, in: "\(directory)/run")
    #expect(files.count == 9)
    let cube = try Cube(
      path: try Ingestor.run(files, options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps))
        .published[0].path)
    #expect(cube.header.stepSeconds == 900)
    let totals = try files.map { path in
      let file = try NCFile.open(path)
      defer { file.close() }
      let parts = try ["RAINC", "RAINNC", "RAINSH"].map {
        try file.readRaw($0, start: [0, 0, 0], count: [1, 80, 135])
      }
      return (0..<(80 * 135)).map { parts[0][$0] + parts[1][$0] + parts[2][$0] }
    }
    let cell = try #require(totals.last!.indices.max { totals.last![$0] < totals.last![$1] })
    let grid = cube.locator.grid
    let location = try cube.locate(
      latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]), method: .nearest)
    for step in 0..<files.count {
      let expected = max(totals[step][cell] - totals[max(step - 4, 0)][cell], 0)
      let value = try #require(try cube.value(try cube.metric("rain"), at: location, time: cube.time(ofStep: step)))
      #expect(abs(value - expected) <= 0.01, "step \(step)")
    }
  }

  /// Steps are derived several at once and in no fixed order (`CubePublisher`), so each
  /// step's values must depend on the files alone, never on which steps came before:
  /// deriving backwards gives every value, bit for bit, that deriving forwards gives,
  /// including the hour's amounts of quarter-hour steps, which reach back four steps.
  @Test(arguments: [60, 15]) func eachStepIsDerivedFromTheFilesAlone(stepMinutes: Int) throws {
    let directory = SampleFiles.temporaryDirectory("alone")
    defer { SampleFiles.remove(directory) }
    let files = try generatedRun(hours: 2, stepMinutes: stepMinutes, in: "\(directory)/run")
    let plan = try #require(try WRFConvention.plans(files).first).addingPrecipitationNeighbourhood()
    let steps = plan.steps.indices
    let grid = RowBand.whole(width: plan.width, height: plan.height)
    let forwards = try steps.map { try plan.derive($0, grid) }
    let backwards = try steps.reversed().map { try plan.derive($0, grid) }.reversed()
    let bits = { (values: [[[Double]]]) in values.map { $0.map { $0.map(\.bitPattern) } } }
    #expect(bits(Array(backwards)) == bits(forwards))
    // The comparison is not of empty or unknown values: rain is known after the first step.
    let rain = try #require(plan.metrics.firstIndex(of: .rain))
    #expect(forwards.last?[rain].contains { $0 > 0 } == true)
  }

  @Test func duplicateStepsAndGapsAreErrorsNamingTheFiles() throws {
    let directory = SampleFiles.temporaryDirectory("axis")
    defer { SampleFiles.remove(directory) }
    let files = try generatedRun(hours: 4, in: "\(directory)/run")
    let duplicate = #expect(throws: IngestError.self) {
      try Ingestor.run(files + [files[2]], options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps))
    }
    #expect(duplicate?.description.contains("duplicate step 2026-06-20T02:00:00Z") == true)
    #expect(duplicate?.description.contains(files[2]) == true)
    let gap = #expect(throws: IngestError.self) {
      try Ingestor.run(
        [files[0], files[1], files[3], files[4]],
        options: .init(store: "\(directory)/s", precision: Metric.versionOneSteps))
    }
    #expect(gap?.description.contains("gap in the time axis") == true)
    #expect(gap?.description.contains(files[3]) == true)
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/s/wrf/d01/2026062000.cube"))
  }

  @Test func missingOptionalInputsLeaveTheirMetricsOutWithAWarning() throws {
    let store = SampleFiles.temporaryDirectory("optional")
    defer { SampleFiles.remove(store) }
    let report = try Ingestor.run(
      [SampleFiles.tipD2, SampleFiles.tipD1],
      options: .init(store: store, model: "tip", precision: Metric.versionOneSteps))
    #expect(report.published.map(\.domain) == ["d01", "d02"])
    #expect(report.published.allSatisfy { $0.metrics == ["temp"] })
    #expect(
      report.warnings.contains { $0.contains("no cloud: CLDFRA, QVAPOR, P, PB, T missing in \(SampleFiles.tipD1)") })
    #expect(report.warnings.contains { $0.contains("no wind: U10, V10 missing") })
    let cube = try Cube(path: report.published[1].path)
    #expect(cube.header.gridSpacing == 10_000)
    let cloud = try cube.metric("cloud")
    #expect(!cloud.isAvailable)
    let location = try cube.locate(latitude: 33.2, longitude: 86.0, method: .nearest)
    #expect(try cube.value(cloud, at: location, time: cube.time(ofStep: 0)) == nil)
  }

  @Test func badInputsGetOneLineErrorsNamingTheFileAndTheProblem() throws {
    let directory = SampleFiles.temporaryDirectory("bad")
    defer { SampleFiles.remove(directory) }
    let text = "\(directory)/notes.txt"
    try "not a netcdf file\n".write(toFile: text, atomically: true, encoding: .utf8)
    let noT2 = "\(directory)/wrfout_no_t2.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: noT2, dropping: ["T2"])
    let hot = "\(directory)/wrfout_hot.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: hot,
      transform: { name, values in name == "T2" ? values.map { _ in 1_000 } : values })
    let cases: [(String, String)] = [
      (text, "\(text): not a NetCDF file"),
      (noT2, "\(noT2): T2: required variable is missing"),
      ("\(directory)/missing.nc", "\(directory)/missing.nc: no such file"),
      // 1,000 K everywhere is no weather: refused by T2's plausible range, before any metric.
      (hot, "\(hot): T2: 100.0 % of its values (320 of 320) are outside its range 150.0…350.0 K"),
    ]
    for (path, message) in cases {
      let error = #expect(throws: IngestError.self) {
        try Ingestor.run([path], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
      }
      #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "no error")")
      #expect(error?.description.contains("\n") == false)
    }
    // Nothing half-written is left behind, not even the hidden temporary file.
    let leftovers = FileManager.default.enumerator(atPath: "\(directory)/store")?.allObjects as? [String] ?? []
    #expect(leftovers.allSatisfy { !$0.hasSuffix(".cube") && !$0.contains(".tmp.") })
    #expect(throws: IngestError.self) {
      try Ingestor.run(
        [SampleFiles.allvars], options: .init(store: directory, model: "../x", precision: Metric.versionOneSteps))
    }
  }
}
