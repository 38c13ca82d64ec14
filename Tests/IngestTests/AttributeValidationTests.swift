import Foundation
import Ingest
import NetCDF
import SampleRun
import Testing
import _TestSupport

/// Attributes and times that once crashed ingest (a trap converting NaN or 1e300 to an
/// integer, an Int64 overflow in CF time arithmetic) or were accepted without a word (a
/// domain `d0-5`, valid times in the year 9999): each is refused with one line naming the
/// file, the variable and the value.
@Suite struct AttributeValidationTests {
  @Test(arguments: [
    (NCAttribute.reals([.nan]), "GRID_ID: nan is not a domain number"),
    (.reals([1e300]), "GRID_ID: 1e+300 is not a domain number"),
    (.integers([-5]), "GRID_ID: -5.0 is not a domain number"),
    (.integers([0]), "GRID_ID: 0.0 is not a domain number"),
    (.integers([100]), "GRID_ID: 100.0 is not a domain number"),
    (.reals([2.5]), "GRID_ID: 2.5 is not a domain number"),
    (.text("two"), "GRID_ID: \"two\" is not a domain number"),
  ])
  func wrfGridIDOutsideOneToNinetyNineIsRefused(value: NCAttribute, message: String) throws {
    let directory = SampleFiles.temporaryDirectory("grid-id")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrfout_d01_bad"
    try WRFFixture.copy(SampleFiles.allvars, to: path, attributes: ["GRID_ID": value])
    expectIngestRefused(
      [path], store: "\(directory)/store", contains: ["\(path): \(message)", "WRF numbers domains 1…99"])
  }

  @Test func wrfGridIDsInRangeNameTheDomain() throws {
    let directory = SampleFiles.temporaryDirectory("grid-id-ok")
    defer { SampleFiles.remove(directory) }
    for (id, domain) in [(Int64(1), "d01"), (9, "d09"), (42, "d42"), (99, "d99")] {
      let path = "\(directory)/wrfout_\(id)"
      try WRFFixture.copy(SampleFiles.allvars, to: path, attributes: ["GRID_ID": .integers([id])])
      let report = try Ingestor.run([path], options: .init(store: "\(directory)/store"))
      #expect(report.published.map(\.domain) == [domain])
    }
  }

  @Test func wrfTimesOutsideTheSupportedYearsAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("wrf-years")
    defer { SampleFiles.remove(directory) }
    let future = "\(directory)/wrfout_9999"
    try WRFFixture.copy(
      SampleFiles.allvars, to: future,
      strings: { name, rows in name == "Times" ? rows.map { "9999" + $0.dropFirst(4) } : rows })
    expectIngestRefused(
      [future], store: "\(directory)/store",
      contains: ["\(future): Times: step 1 is 9999-09-21T", "outside the years 1900–2200"])

    let ancient = "\(directory)/wrfout_start_1850"
    try WRFFixture.copy(
      SampleFiles.allvars, to: ancient, attributes: ["SIMULATION_START_DATE": .text("1850-01-01_00:00:00")])
    expectIngestRefused(
      [ancient], store: "\(directory)/store",
      contains: [
        "\(ancient): SIMULATION_START_DATE: the run's start is 1850-01-01T00:00:00Z, outside the years 1900–2200"
      ])
  }

  @Test func cfTimesOutsideInt64OrTheSupportedYearsAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("cf-times")
    defer { SampleFiles.remove(directory) }
    let good = "\(directory)/good.nc"
    try writeSmallCF(good, hours: [0, 1], referenceHour: 0)
    let report = try Ingestor.run([good], options: .init(store: "\(directory)/ok"))
    #expect(report.published.map(\.run) == ["2026062000"])

    for (label, times) in [("1e16", [1e16, 1e16 + 1]), ("huge", [1e300, 2e300]), ("minus", [-1e16, -1e16 + 1])] {
      let path = "\(directory)/time_\(label).nc"
      try writeSmallCF(path, hours: times)
      expectIngestRefused(
        [path], store: "\(directory)/store",
        contains: ["\(path): time: step 1 is", "× 3600 s after 2026-06-20T00:00:00Z", "outside the years 1900–2200"])
    }
    // Representable, but beyond 2200: 200 years of hours.
    let late = "\(directory)/time_late.nc"
    try writeSmallCF(late, hours: [1_752_000, 1_752_001])
    expectIngestRefused(
      [late], store: "\(directory)/store", contains: ["\(late): time: step 1 is 2226-", "outside the years 1900–2200"])

    // Each time is fine, but a cube cannot step 40 days at once.
    let sparse = "\(directory)/time_sparse.nc"
    try writeSmallCF(sparse, hours: [0, 960])
    expectIngestRefused(
      [sparse], store: "\(directory)/store",
      contains: ["\(sparse): time: output step of 40 days is longer than a cube holds (31 days)"])

    for (label, reference) in [("1e300", 1e300), ("run-id", 285_198_648_572_021_404.0), ("early", -1_200_000)] {
      let path = "\(directory)/reference_\(label).nc"
      try writeSmallCF(path, hours: [0, 1], referenceHour: reference)
      expectIngestRefused(
        [path], store: "\(directory)/store",
        contains: ["\(path): forecast_reference_time: the run's start is", "outside the years 1900–2200"])
    }
  }

  /// MM5's time axis is a CF one ("minutes since <start>"), so the same bounds hold.
  @Test func mm5TimesOutsideTheSupportedYearsAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("mm5-times")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 2
    let source = "\(directory)/mm5.nc"
    try SampleRunGenerator.writeMM5(spec, to: source)
    let path = "\(directory)/mm5_far.nc"
    try WRFFixture.copy(
      source, to: path, transform: { name, values in name == "time" ? values.map { $0 + 1e17 } : values })
    expectIngestRefused(
      [path], store: "\(directory)/store", contains: ["\(path): time: step 1 is", "outside the years 1900–2200"])
  }

  /// A grid wider than a cube can hold is refused before anything is written, naming the
  /// input rather than the cube it would have become.
  @Test func aShapeNoCubeCanHoldIsRefusedNamingTheInput() throws {
    let directory = SampleFiles.temporaryDirectory("cf-wide")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wide.nc"
    try writeSmallCF(path, lats: [40, 41], lons: (0..<100_001).map { Double($0) * 0.0035 })
    expectIngestRefused(
      [path], store: "\(directory)/store",
      startsWith: "\(path): cannot store this run in a cube: width 100001 is not in 1…100000 cells")
  }
}
