import Foundation
import Ingest
import Meteorology
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

/// The allvars sample (10 × 8 cells, 4 three-hourly steps) with one value of one field
/// replaced, ingested: what an implausible input does to the cube and the warnings.
private struct HostileRun {
  static let (width, height, steps) = (10, 8, 4)
  static var cells: Int { width * height }

  let directory = SampleFiles.temporaryDirectory("plausibility")
  let copy: String
  let report: Ingestor.Report
  let cube: Cube

  /// `name` (a `(Time, south_north, west_east)` field) replaced by `change(step, cell, value)`.
  init(_ name: String, change: @escaping (Int, Int, Double) -> Double) throws {
    copy = "\(directory)/wrfout_d01_hostile.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: copy,
      transform: { variable, values in
        guard variable == name else { return values }
        return values.indices.map { change($0 / Self.cells, $0 % Self.cells, values[$0]) }
      })
    report = try Ingestor.run([copy], options: .init(store: "\(directory)/store", precision: Metric.versionOneSteps))
    cube = try Cube(path: try #require(report.published.first).path)
  }

  /// The stored value of `metric` at `cell` and `step`, nil when missing.
  func value(_ metric: String, cell: Int, step: Int) throws -> Double? {
    let grid = try WRFFixture.grid(SampleFiles.allvars)
    let location = try cube.locate(
      latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]), method: .nearest)
    #expect(location.j * Self.width + location.i == cell)
    return try cube.value(try cube.metric(metric), at: location, time: cube.time(ofStep: step))
  }

  /// The one warning naming `name` first.
  func warning(_ name: String) -> String? {
    report.warnings.first { $0.hasPrefix("\(name): ") }
  }

  func remove() { SampleFiles.remove(directory) }
}

/// A cell and step of the allvars sample where the hour had rain (so that the lifted index,
/// computed only there, is computed), found from the file itself.
private func wetCellAndStep() throws -> (cell: Int, step: Int) {
  let file = try NCFile.open(SampleFiles.allvars)
  defer { file.close() }
  let count = [HostileRun.steps, HostileRun.height, HostileRun.width]
  let total = try ["RAINC", "RAINNC", "RAINSH"].map { try file.readRaw($0, start: [0, 0, 0], count: count) }
    .reduce([Double](repeating: 0, count: count.reduce(1, *))) { zip($0, $1).map(+) }
  var best = (cell: 0, step: 1, amount: 0.0)
  for step in 1..<HostileRun.steps {
    for cell in 0..<HostileRun.cells {
      let amount = total[step * HostileRun.cells + cell] - total[(step - 1) * HostileRun.cells + cell]
      if amount > best.amount { best = (cell, step, amount) }
    }
  }
  #expect(best.amount > 0.1, "the sample has a wet hour")
  return (best.cell, best.step)
}

@Suite struct InputPlausibilityTests {
  /// An infinite surface pressure used to trap in the lifted index (an `Int` of an infinite
  /// number of integration steps) on a wet cell. Now the cell's PSFC is missing, so are the
  /// metrics derived from it, and one warning names PSFC, the file, time and cell.
  @Test func infiniteSurfacePressureInOneCellIngestsWithThatCellsDerivedMetricsMissing() throws {
    let (cell, step) = try wetCellAndStep()
    let run = try HostileRun("PSFC") { s, c, value in s == step && c == cell ? .infinity : value }
    defer { run.remove() }
    for metric in ["hum", "dew_point", "atm_press", "sfc_press", "apparent_temp", "weather_code"] {
      #expect(try run.value(metric, cell: cell, step: step) == nil, "\(metric) is missing where PSFC is +Inf")
      #expect(try run.value(metric, cell: cell, step: step == 1 ? 2 : 1) != nil, "\(metric) elsewhere is kept")
    }
    #expect(try run.value("temp", cell: cell, step: step) != nil, "temp does not depend on PSFC")
    let warning = try #require(run.warning("PSFC"), "\(run.report.warnings)")
    let (i, j) = (cell % HostileRun.width, cell / HostileRun.width)
    #expect(warning.contains("1 value at 1 step outside its range 20000.0…110000.0 Pa or not finite"))
    #expect(warning.contains("first in \(run.copy) at "))
    #expect(warning.contains("cell i=\(i), j=\(j) (lat "))
    #expect(warning.contains("value inf"))
  }

  /// Q2 = −1 gave a dew point of 108.9 °C, and Q2 = +Inf a humidity of 100 %: both are now
  /// missing at that cell, with a warning naming Q2.
  @Test(arguments: [-1.0, .infinity])
  func animpossibleMixingRatioStoresNoDewPointAndNoHumidity(q2: Double) throws {
    let (cell, step) = (34, 2)
    let run = try HostileRun("Q2") { s, c, value in s == step && c == cell ? q2 : value }
    defer { run.remove() }
    #expect(try run.value("dew_point", cell: cell, step: step) == nil)
    #expect(try run.value("hum", cell: cell, step: step) == nil)
    #expect(try run.value("apparent_temp", cell: cell, step: step) == nil)
    #expect(try run.value("temp", cell: cell, step: step) != nil)
    #expect(try run.value("hum", cell: cell + 1, step: step) != nil)
    let warning = try #require(run.warning("Q2"), "\(run.report.warnings)")
    #expect(warning.contains("1 value at 1 step outside its range"))
  }

  /// A field most of which is impossible (here a quarter of T2: one whole step in kelvin
  /// times ten) is a broken file, refused with its path, the variable and the share.
  @Test func aFieldWithMoreThanTheRefusedShareBadIsRefusedNamingFileVariableAndShare() throws {
    let directory = SampleFiles.temporaryDirectory("share")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_d01_broken.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: copy,
      transform: { variable, values in
        variable == "T2" ? values.indices.map { $0 / HostileRun.cells == 1 ? values[$0] * 10 : values[$0] } : values
      })
    let store = "\(directory)/store"
    #expect {
      try Ingestor.run([copy], options: .init(store: store))
    } throws: { error in
      let error = error as? IngestError
      return error?.path == copy && error?.variable == "T2"
        && error?.reason.hasPrefix("25.0 % of its values (80 of 320) are outside its range 150.0…350.0 K") == true
        && error?.reason.contains("more than 5.0 % is refused") == true
    }
    let published = (try? FileManager.default.subpathsOfDirectory(atPath: store))?.filter { $0.hasSuffix(".cube") }
    #expect(published?.isEmpty ?? true, "nothing is published")
  }

  /// A T2 of 160 K is within T2's range, but its temperature (−113 °C) is beyond what the
  /// temp metric holds: the last guard stores it missing and names the metric.
  @Test func aDerivedValueOutsideItsMetricsRangeIsStoredMissingWithAWarningNamingTheMetric() throws {
    let run = try HostileRun("T2") { s, c, value in s == 3 && c == 5 ? 160 : value }
    defer { run.remove() }
    #expect(try run.value("temp", cell: 5, step: 3) == nil)
    #expect(try run.value("temp", cell: 6, step: 3) != nil)
    let warning = try #require(run.warning("derived temp"), "\(run.report.warnings)")
    #expect(warning.contains("1 value at 1 step outside the metric's plausible range -100.0…70.0 °C"))
    #expect(warning.contains("value -113.1"))
  }

  /// An accumulation that falls between steps by more than round-off is no amount: the
  /// hour's rain there is missing (never the 0 that flooring the difference gave), with a
  /// warning naming the accumulated fields.
  @Test func anAccumulationThatFallsMakesThatHoursAmountMissingWithAWarning() throws {
    let (cell, step) = try wetCellAndStep()
    // 100 mm more at the step before, gone again at the step: a fall of about 100 mm.
    let run = try HostileRun("RAINNC") { s, c, value in c == cell && s == step - 1 ? value + 100 : value }
    defer { run.remove() }
    #expect(try run.value("rain", cell: cell, step: step) == nil)
    #expect(try run.value("rain", cell: cell + 1, step: step) != nil)
    let warning = try #require(run.warning("RAINC+RAINNC+RAINSH"), "\(run.report.warnings)")
    #expect(warning.contains("falling by more than 0.01 mm"))
  }

  /// Every metric a bad input feeds is missing, never a number computed around it: for
  /// each field, one value at a wet cell is made impossible, and each metric there is
  /// either missing or exactly what it was with the good value (then it does not read the
  /// field). A `min`, `max` or clamp that swallowed the NaN would leave a third outcome: a
  /// different number.
  @Test(arguments: [
    "T2", "Q2", "PSFC", "U10", "V10", "SWDOWN", "RAINC", "RAINNC", "SNOWNC", "CLDFRA", "QVAPOR", "QCLOUD", "P", "PB",
    "T",
  ])
  func everyMetricAnImpossibleInputFeedsIsMissingNeverANumberComputedAroundIt(field: String) throws {
    let (cell, step) = try wetCellAndStep()
    let directory = SampleFiles.temporaryDirectory("propagation")
    defer { SampleFiles.remove(directory) }
    func ingest(_ name: String, _ change: @escaping (Int, Double) -> Double) throws -> Cube {
      let copy = "\(directory)/\(name).nc"
      try WRFFixture.copy(
        SampleFiles.allvars, to: copy,
        transform: { variable, values in
          variable == field ? values.indices.map { change($0, values[$0]) } : values
        })
      let report = try Ingestor.run(
        [copy], options: .init(store: "\(directory)/\(name)", precision: Metric.versionOneSteps))
      return try Cube(path: try #require(report.published.first).path)
    }
    let good = try ingest("good") { _, value in value }
    // The lowest level of a 3-D field (27 mass levels), the only one of a surface field.
    let levels = ["CLDFRA", "QVAPOR", "QCLOUD", "P", "PB", "T"].contains(field) ? 27 : 1
    let target = step * levels * HostileRun.cells + cell
    let bad = try ingest("bad") { index, value in index == target ? -1e30 : value }
    let grid = try WRFFixture.grid(SampleFiles.allvars)
    let location = { (cube: Cube) in
      try cube.locate(
        latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]), method: .nearest)
    }
    var missing: [String] = []
    for metric in good.availableMetrics {
      let time = good.time(ofStep: step)
      let before = try good.value(metric, at: try location(good), time: time)
      let after = try bad.value(bad.metric(metric.metric), at: try location(bad), time: time)
      let name = metric.metric.name
      if after == nil { missing.append(name) }
      #expect(after == nil || after == before, "\(field): \(name) was \(before ?? .nan), is \(after ?? .nan)")
    }
    #expect(!missing.isEmpty, "\(field) feeds some metric at that cell")
  }

  /// CF fields pass the same screen in the units ingest converts them to; the warning
  /// names the file's variable. Here the GFS subset's 2 m temperature at one cell is
  /// 1,000 K.
  @Test func anImplausibleCFValueIsStoredMissingWithAWarningNamingTheFilesVariable() throws {
    let directory = SampleFiles.temporaryDirectory("cf-plausibility")
    defer { SampleFiles.remove(directory) }
    let source = SampleFiles.grid("cf/gfs_1deg_subset.nc")
    // The subset's 2 m temperature (it also has temperatures on isobaric surfaces).
    let temperature = "Temperature_height_above_ground"
    let file = try NCFile.open(source)
    #expect(file.variables[temperature]?.attributes["units"]?.text == "K")
    file.close()
    let copy = "\(directory)/gfs.nc"
    try WRFFixture.copy(
      source, to: copy, transform: { name, values in name == temperature ? [1_000] + values.dropFirst() : values })
    let report = try Ingestor.run([copy], options: .init(store: "\(directory)/store"))
    let warning = try #require(report.warnings.first { $0.hasPrefix("\(temperature): ") }, "\(report.warnings)")
    #expect(warning.contains("1 value at 1 step outside its range -123.14999999999998…76.85000000000002 °C"))
    let cube = try Cube(path: try #require(report.published.first).path)
    let corner = try cube.locate(
      latitude: Double(cube.file.latitudes[0]), longitude: Double(cube.file.longitudes[0]), method: .nearest)
    #expect(try cube.value(try cube.metric("temp"), at: corner, time: cube.time(ofStep: 0)) == nil)
  }

  /// The bounds never fire on good input: the bundled sample grids and generated sample
  /// runs of every convention ingest without a plausibility warning.
  @Test func theSampleRunsIngestWithoutAnyPlausibilityWarning() throws {
    let directory = SampleFiles.temporaryDirectory("plausible-samples")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 6
    try SampleRunGenerator.writeSingleFile(spec, to: "\(directory)/wrfout_d01_sample")
    try SampleRunGenerator.writeMM5(spec, to: "\(directory)/mm5.nc")
    let runs: [[String]] = [
      [SampleFiles.allvars], [SampleFiles.allvarsCDF2], [SampleFiles.mercator], [SampleFiles.tipD1, SampleFiles.tipD2],
      [SampleFiles.grid("cf/gfs_1deg_subset.nc")], ["\(directory)/wrfout_d01_sample"], ["\(directory)/mm5.nc"],
    ]
    for (index, files) in runs.enumerated() {
      let report = try Ingestor.run(files, options: .init(store: "\(directory)/store\(index)"))
      #expect(!report.published.isEmpty)
      let screened = report.warnings.filter {
        $0.contains("or not finite") || $0.hasPrefix("derived ") || $0.contains("falling by more than")
      }
      #expect(screened.isEmpty, "\(files): \(screened)")
    }
  }
}
