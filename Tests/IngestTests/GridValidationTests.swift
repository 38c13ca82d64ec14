import Foundation
import Ingest
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

/// One way of spoiling the sample run's 135 × 80 grid, and the start of the reason ingest
/// gives (after the file and the variables).
struct GridSpoil: CustomTestStringConvertible, Sendable {
  let name: String
  let reason: String
  /// Changes `latitudes` or `longitudes` (one grid, `width` cells a row).
  let spoil: @Sendable (_ latitude: Bool, _ values: inout [Double], _ width: Int) -> Void

  var testDescription: String { name }

  static let all: [GridSpoil] = [
    GridSpoil(name: "one cell at (0, 0)", reason: "invalid grid: cell (57, 40) at latitude 0.0, longitude 0.0 is") {
      _, values, width in values[40 * width + 57] = 0
    },
    GridSpoil(
      name: "all zeros",
      reason: "invalid grid: cell (0, 0) at latitude 0.0, longitude 0.0 is at the same point as its neighbour (1, 0)"
    ) { _, values, _ in values = values.map { _ in 0 } },
    GridSpoil(name: "NaN", reason: "invalid grid: cell (3, 2): latitude nan is not a number in −90…90") {
      latitude, values, width in if latitude { values[2 * width + 3] = .nan }
    },
    GridSpoil(name: "a duplicated point", reason: "invalid grid: cell (30, 20) at latitude") {
      _, values, width in values[20 * width + 31] = values[20 * width + 30]
    },
    GridSpoil(name: "a reversed row", reason: "invalid grid: cell (0, 40) at latitude") { _, values, width in
      let row = (40 * width)..<(41 * width)
      values.replaceSubrange(row, with: values[row].reversed())
    },
  ]
}

/// The sample run's spec cut to `hours` hours.
private func shortSpec(hours: Int) -> SampleRunSpec {
  var spec = SampleRunSpec.portugal9km
  spec.hours = hours
  return spec
}

@Suite struct GridValidationTests {
  @Test(arguments: GridSpoil.all)
  func aSpoiltWRFGridIsRefusedNamingFileVariablesAndCell(_ spoil: GridSpoil) throws {
    let directory = SampleFiles.temporaryDirectory("wrf-grid")
    defer { SampleFiles.remove(directory) }
    // Every step's grid, so that the first step's is the one refused.
    let spoilt = try spoiltRun(hours: 1, in: directory) { _, latitude, grid in spoil.spoil(latitude, &grid, 135) }
    expectIngestRefused([spoilt], store: "\(directory)/store", startsWith: "\(spoilt): XLAT/XLONG: \(spoil.reason)")
  }

  /// XLAT shifted by a degree in one step of a run (12.3 cells): once accepted with the
  /// first step's grid kept, now refused as neither the same grid nor a whole-cell move.
  @Test func aWRFGridThatChangesBetweenStepsOfAFileIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("wrf-steps")
    defer { SampleFiles.remove(directory) }
    try SampleRunGenerator.writeSingleFile(shortSpec(hours: 2), to: "\(directory)/run.nc")
    let shifted = "\(directory)/wrfout_d01_shifted.nc"
    try WRFFixture.copy(
      "\(directory)/run.nc", to: shifted,
      transform: { name, values in
        guard name == "XLAT" else { return values }
        let cells = 135 * 80
        return values.enumerated().map { $0.offset / cells == 1 ? $0.element + 1 : $0.element }
      })
    expectIngestRefused(
      [shifted], store: "\(directory)/store",
      startsWith:
        "\(shifted): XLAT/XLONG: the grid changes within the run at step 1 (2026-06-20T01:00:00Z): cell (0, 0) is at latitude",
      contains: [
        "from the grid of \(shifted) (step 0 of the run) puts it: neither the same grid nor a move by whole cells"
      ])
  }

  @Test func aWRFGridThatChangesBetweenFilesIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("wrf-files")
    defer { SampleFiles.remove(directory) }
    let files = try SampleRunGenerator.write(shortSpec(hours: 1), to: "\(directory)/run")
    #expect(files.count == 2)
    let shifted = "\(directory)/wrfout_d01_2026-06-20_01:00:00"
    try WRFFixture.copy(
      files[1], to: shifted,
      transform: { name, values in
        // 0.03° of longitude is 2.6 km here, 29 % of a 9 km cell.
        name == "XLONG" ? values.enumerated().map { $0.offset == 5 * 135 + 7 ? $0.element + 0.03 : $0.element } : values
      })
    expectIngestRefused(
      [files[0], shifted], store: "\(directory)/store",
      startsWith:
        "\(shifted): XLAT/XLONG: the grid changes within the run at step 0 (2026-06-20T01:00:00Z): cell (7, 5) is at",
      contains: ["from the grid of \(files[0]) (step 0 of the run)", "neither the same grid nor a move by whole cells"])
    // The same file unchanged is accepted: the check compares, it does not refuse a second file.
    let report = try Ingestor.run(files, options: .init(store: "\(directory)/good"))
    #expect(report.published.count == 1)
  }

  @Test func aSpoiltOrChangingMM5GridIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("mm5-grid")
    defer { SampleFiles.remove(directory) }
    let original = "\(directory)/mm5.nc"
    try SampleRunGenerator.writeMM5(shortSpec(hours: 1), to: original)
    let spoilt = "\(directory)/spoilt.nc"
    try WRFFixture.copy(
      original, to: spoilt,
      transform: { name, values in
        guard name == "latitcrs" || name == "longicrs" else { return values }
        var grid = values
        GridSpoil.all[0].spoil(name == "latitcrs", &grid, 135)
        return grid
      })
    expectIngestRefused(
      [spoilt], store: "\(directory)/store",
      startsWith: "\(spoilt): latitcrs/longicrs: invalid grid: cell (57, 40) at latitude 0.0, longitude 0.0 is")

    // A later file of the run whose grid moved by a degree.
    let later = "\(directory)/later.nc"
    try WRFFixture.copy(
      original, to: later,
      transform: { name, values in
        switch name {
        case "time": values.map { $0 + 120 }
        case "latitcrs": values.map { $0 + 1 }
        default: values
        }
      })
    expectIngestRefused(
      [original, later], store: "\(directory)/store",
      startsWith: "\(later): latitcrs/longicrs: the grid changes within the run: cell (0, 0) is at latitude",
      contains: ["in \(original)"])
  }

  @Test func cfAxesThatAreConstantOrUnsortedAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("cf-axes")
    defer { SampleFiles.remove(directory) }
    let constant = "\(directory)/constant.nc"
    try writeSmallCF(constant, lats: [40, 40, 40, 40, 40])
    expectIngestRefused(
      [constant], store: "\(directory)/store",
      startsWith:
        "\(constant): lat: a 1-D coordinate must be strictly increasing or decreasing, but lat[1] = 40.0 repeats lat[0] = 40.0"
    )
    let unsorted = "\(directory)/unsorted.nc"
    try writeSmallCF(unsorted, lats: [40, 41, 43, 42, 44])
    expectIngestRefused(
      [unsorted], store: "\(directory)/store",
      startsWith:
        "\(unsorted): lat: a 1-D coordinate must be strictly increasing or decreasing, but lat[3] = 42.0 breaks the order of lat[2] = 43.0"
    )
    let longitudes = "\(directory)/longitudes.nc"
    try writeSmallCF(longitudes, lons: [350, 351, 352, 352, 353, 354])
    expectIngestRefused(
      [longitudes], store: "\(directory)/store", startsWith: "\(longitudes): lon: ",
      contains: ["lon[3] = 352.0 repeats"])
    // Descending latitudes and longitudes across 0° are fine.
    let good = "\(directory)/good.nc"
    try writeSmallCF(good, lats: [44, 43, 42, 41, 40], lons: [357, 358, 359, 0, 1, 2])
    #expect(try Ingestor.run([good], options: .init(store: "\(directory)/good")).published.count == 1)
  }

  @Test func aSpoiltOrChangingCFGridIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("cf-grid")
    defer { SampleFiles.remove(directory) }
    // A 2-D grid with one cell at (0, 0).
    let (width, height) = (8, 6)
    var lat = (0..<(width * height)).map { 40 + Double($0 / width) * 0.1 }
    var lon = (0..<(width * height)).map { -8 + Double($0 % width) * 0.1 }
    lat[2 * width + 3] = 0
    lon[2 * width + 3] = 0
    let spike = "\(directory)/spike.nc"
    try writeSmallCF(spike, grid: (width, height, lat, lon))
    expectIngestRefused(
      [spike], store: "\(directory)/store",
      startsWith: "\(spike): lat/lon: invalid grid: cell (3, 2) at latitude 0.0, longitude 0.0 is")
    // The first grid is checked while the later files are read: a later file on another
    // grid still leaves the refusal to the first file's spoilt grid, which comes first.
    let elsewhere = "\(directory)/elsewhere.nc"
    try writeSmallCF(elsewhere, lons: [10, 11, 12, 13, 14, 15], hours: [2, 3])
    expectIngestRefused(
      [spike, elsewhere], store: "\(directory)/store",
      startsWith: "\(spike): lat/lon: invalid grid: cell (3, 2) at latitude 0.0, longitude 0.0 is")

    // A second file of the run on other longitudes.
    let first = "\(directory)/first.nc"
    let second = "\(directory)/second.nc"
    try writeSmallCF(first)
    try writeSmallCF(second, lons: [350.5, 351.5, 352.5, 353.5, 354.5, 355.5], hours: [2, 3])
    expectIngestRefused(
      [first, second], store: "\(directory)/store",
      startsWith:
        "\(second): lat/lon: the grid changes within the run: cell (0, 0) is at latitude 44.0, longitude 350.5",
      contains: ["but at 44.0, 350.0 in \(first)"])

    // One longitude moved by a hundredth of a cell is still compared cell by cell, not
    // taken for the first file's axes: within the tolerance, a warning naming the cell.
    let nudged = "\(directory)/nudged.nc"
    try writeSmallCF(nudged, lons: [350, 351, 352.01, 353, 354, 355], hours: [2, 3])
    let report = try Ingestor.run([first, nudged], options: .init(store: "\(directory)/nudged-store"))
    #expect(report.published.first?.steps == 4)
    #expect(report.warnings.contains { $0.hasPrefix("\(nudged): lat/lon are off by up to 0.0° latitude and 0.01") })
  }

  /// Files on the first file's axes, value for value, are one grid: published with the
  /// first file's coordinates, and nothing to warn about.
  @Test func cfFilesOnTheFirstFilesAxesAreOneGrid() throws {
    let directory = SampleFiles.temporaryDirectory("cf-same-grid")
    defer { SampleFiles.remove(directory) }
    let paths = (0..<3).map { "\(directory)/f\($0).nc" }
    for (index, path) in paths.enumerated() {
      try writeSmallCF(path, hours: [Double(2 * index), Double(2 * index + 1)])
    }
    let report = try Ingestor.run(paths, options: .init(store: "\(directory)/store"))
    let published = try #require(report.published.first)
    #expect(published.steps == 6)
    #expect(!report.warnings.contains { $0.contains("lat/lon") })
    let cube = try Cube(path: published.path)
    let location = try cube.locate(latitude: 42, longitude: 353 - 360, method: .nearest)
    #expect(location.i == 3 && location.j == 2)
  }
}
