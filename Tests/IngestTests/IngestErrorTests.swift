import Foundation
import Ingest
import NetCDF
import Testing
import _TestSupport

/// Variants of the real allvars file (4 steps, 3-hourly from 2005-09-21 00 UTC) that break
/// one rule each; every one must fail with a one-line error naming the file.
@Suite struct IngestErrorTests {
  private func shifted(_ rows: [String], hours: Int) -> [String] {
    rows.map { row in
      let hour = Int(row.dropFirst(11).prefix(2))! + hours
      return String(row.prefix(11)) + (hour < 10 ? "0\(hour)" : "\(hour)") + String(row.dropFirst(13))
    }
  }

  @Test func filesOfDifferentRunsOrGridsAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("ingest-errors")
    defer { SampleFiles.remove(directory) }
    let later = "\(directory)/wrfout_later_run.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: later, attributes: ["SIMULATION_START_DATE": .text("2005-09-21_00:00:00")],
      strings: { name, rows in name == "Times" ? shifted(rows, hours: 12) : rows })
    expectIngestRefused(
      [SampleFiles.allvars, later], store: "\(directory)/s",
      startsWith: "\(later): SIMULATION_START_DATE: belongs to the run of 2005-09-21T00:00:00Z",
      contains: ["ingest one run at a time"])

    expectIngestRefused(
      [SampleFiles.allvars, SampleFiles.tipD1], store: "\(directory)/s",
      startsWith:
        "\(SampleFiles.tipD1): grid is 200×200 at step 0 (2005-09-21T00:00:00Z) but \(SampleFiles.allvars) of the same domain d01 is 10×8"
    )
  }

  @Test func timeAxesThatCannotBeStoredAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("ingest-axis")
    defer { SampleFiles.remove(directory) }
    let uneven = "\(directory)/wrfout_uneven.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: uneven,
      strings: { name, rows in
        name == "Times"
          ? rows.enumerated().map { $0.offset == 3 ? shifted([$0.element], hours: 1)[0] : $0.element } : rows
      })
    expectIngestRefused(
      [uneven], store: "\(directory)/s", startsWith: "\(uneven): output times are not evenly spaced",
      contains: ["is 240 min, earlier steps are 180 min apart"])

    let ninety = "\(directory)/wrfout_90min.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: ninety,
      strings: { name, rows in
        guard name == "Times" else { return rows }
        return ["2005-09-21_00:00:00", "2005-09-21_01:30:00", "2005-09-21_03:00:00", "2005-09-21_04:30:00"]
      })
    expectIngestRefused(
      [ninety], store: "\(directory)/s",
      startsWith: "\(ninety): Times: output step of 5400 s neither divides nor is a multiple of an hour")

    let garbled = "\(directory)/wrfout_garbled.nc"
    try WRFFixture.copy(
      SampleFiles.allvars, to: garbled,
      strings: { name, rows in name == "Times" ? ["2005-09-21_00:00:00", "tomorrow", rows[2], rows[3]] : rows })
    expectIngestRefused(
      [garbled], store: "\(directory)/s",
      startsWith: "\(garbled): Times: step 2 is \"tomorrow\", not YYYY-MM-DD_HH:MM:SS")
  }

  @Test func noInputAndMisshapenFieldsAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("ingest-shape")
    defer { SampleFiles.remove(directory) }
    expectIngestRefused([], store: directory, startsWith: "ingest: no input files given")

    // T2 without its Time dimension: a hand-made file, not WRF output.
    let path = "\(directory)/wrfout_flat_t2.nc"
    let file = try NCFile.create(path, format: .netcdf4)
    try file.defineDimension("Time", length: nil)
    try file.defineDimension("DateStrLen", length: 19)
    try file.defineDimension("south_north", length: 2)
    try file.defineDimension("west_east", length: 2)
    try file.defineVariable("Times", type: .char, dimensions: ["Time", "DateStrLen"])
    for name in ["XLAT", "XLONG", "T2"] {
      try file.defineVariable(name, type: .float, dimensions: ["south_north", "west_east"])
    }
    try file.endDefinitions()
    try file.writeStrings("Times", start: [0, 0], count: [1, 19], ["2005-09-21_00:00:00"])
    for name in ["XLAT", "XLONG", "T2"] {
      try file.write(name, start: [0, 0], count: [2, 2], [1, 2, 3, 4] as [Double])
    }
    file.close()
    expectIngestRefused(
      [path], store: directory,
      startsWith: "\(path): T2: expected T2(Time, south_north, west_east), found [\"south_north\", \"west_east\"]")
  }

  /// A 3-D field on a vertical dimension of its own is refused by name: combined level by
  /// level with P and PB (cloud layers) or with the lowest levels of the others
  /// (visibility, the lifted index), more or fewer levels would read past the shorter
  /// field.
  @Test(arguments: [("CLDFRA", 30), ("QVAPOR", 1), ("P", 40)])
  func aLevelFieldOnAnotherVerticalDimensionIsRefused(name: String, levels: Int) throws {
    let directory = SampleFiles.temporaryDirectory("ingest-levels")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrfout_levels.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: path, levels: [name: levels])
    expectIngestRefused(
      [path], store: "\(directory)/s",
      startsWith:
        "\(path): \(name): expected its levels on bottom_top, as WRF writes it, found \(name)_levels (\(levels) levels)"
    )
  }
}
