import Foundation
import Ingest
import Meteorology
import Testing
import _TestSupport

/// Bad GRIB input gets an error (or a warning) that names the file, the message and why;
/// never a crash.
@Suite struct GRIBIngestBadInputTests {
  static let nam = SampleFiles.grid("grib/nam.t00z.awp21100.tm00.grib2")
  static let gfs = SampleFiles.grid("grib/gfs.t12z.pgrbf120.2p5deg.2t_tp_prate.grib2")

  /// The error of ingesting `paths` into a fresh store.
  static func error(_ paths: [String], convention: Convention = .auto) -> IngestError? {
    let store = SampleFiles.temporaryDirectory("grib-bad-store")
    defer { SampleFiles.remove(store) }
    do {
      _ = try Ingestor.run(paths, options: .init(store: store, model: "test", convention: convention))
      return nil
    } catch {
      return error
    }
  }

  @Test func truncatedMessageIsRefusedNamingTheMessage() throws {
    let directory = SampleFiles.temporaryDirectory("grib-truncated")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/nam.grib2"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.nam))
    try bytes.prefix(5000).write(to: URL(fileURLWithPath: path))
    let error = try #require(Self.error([path]))
    #expect(error.description.hasPrefix("\(path): message 1: truncated: declares "), "\(error)")
  }

  @Test func reducedGridIsRefusedNamingItsGridType() throws {
    let path = SampleFiles.grid("grib/reduced_gg.grib")
    let error = try #require(Self.error([path], convention: .grib))
    #expect(error.description.hasPrefix("\(path): message 1: gridType: reduced_gg is not supported"), "\(error)")
  }

  @Test func valuesDisagreeingWithTheGridAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("grib-ni")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/t.grib2"
    _ = try ECCodesTools.run("grib_copy", ["-w", "count=1", Self.gfs, "\(directory)/one.grib2"])
    _ = try ECCodesTools.run("grib_set", ["-s", "Ni=100", "\(directory)/one.grib2", path])
    let error = try #require(Self.error([path]))
    #expect(
      error.description
        == "\(path): message 1: numberOfDataPoints: the grid's Ni × Nj = 100 × 73 = 7300 disagrees with its 10512 data points",
      "\(error)")
  }

  @Test func filesOfDifferentRunsAreRefusedNamingFileAndMessage() throws {
    let directory = SampleFiles.temporaryDirectory("grib-runs")
    defer { SampleFiles.remove(directory) }
    let other = "\(directory)/other-run.grib2"
    _ = try ECCodesTools.run("grib_set", ["-s", "dataDate=20110111", Self.gfs, other])
    let error = try #require(Self.error([Self.gfs, other]))
    #expect(
      error.description
        == "\(other): message 1: reference time (dataDate/dataTime) 2011-01-11T12:00:00Z differs from 2011-01-10T12:00:00Z of \(Self.gfs) message 1: a run's files must all belong to one run; ingest each run separately",
      "\(error)")
  }

  @Test func filesOnDifferentGridsAreRefusedNamingFileAndMessage() throws {
    let directory = SampleFiles.temporaryDirectory("grib-grids")
    defer { SampleFiles.remove(directory) }
    // NAM's messages moved to GFS's run, so that only the grid differs. Quantities are
    // checked in key order: cape, message 135, is the first.
    let nam = "\(directory)/nam.grib2"
    _ = try ECCodesTools.run("grib_set", ["-s", "dataDate=20110110,dataTime=1200", Self.nam, nam])
    let error = try #require(Self.error([Self.gfs, nam]))
    #expect(
      error.description.hasPrefix(
        "\(nam): message 135: its gridType is lambert, not regular_ll, unlike \(Self.gfs) message 1: a run's messages must all be on one grid"
      ),
      "\(error)")
  }

  /// ECMWF's sample of two 2 m temperature fields of different runs in one file.
  @Test func aFileThatMixesRunsIsRefusedNamingTheMessage() throws {
    let path = SampleFiles.grid("grib/fields_with_missing_values.grib")
    let error = try #require(Self.error([path]))
    #expect(
      error.description
        == "\(path): message 2: reference time (dataDate/dataTime) 2017-10-18T12:00:00Z differs from 2017-10-18T00:00:00Z of \(path) message 1: a run's files must all belong to one run; ingest each run separately",
      "\(error)")
  }

  @Test func aNetCDFFileForcedAsGRIBIsRefused() throws {
    let path = SampleFiles.allvars
    let error = try #require(Self.error([path], convention: .grib))
    #expect(error.description.hasPrefix("\(path): not a GRIB file: no message"), "\(error)")
  }

  /// ECMWF's edition 1 2 m temperature with a bitmap: more than 5 % of it missing is a
  /// field nwpcube will not serve, and the refusal names the parameter.
  @Test func missingValuesBeyondTheScreensShareAreRefusedNamingTheParameter() throws {
    let directory = SampleFiles.temporaryDirectory("grib-nan")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/t.grib"
    _ = try ECCodesTools.run(
      "grib_copy", ["-w", "count=1", SampleFiles.grid("grib/fields_with_missing_values.grib"), path])
    let error = try #require(Self.error([path]))
    // grib_ls gives the message's numberOfMissing as 10808 of its 16380 points.
    #expect(
      error.description.hasPrefix(
        "\(path): 2t: 66.0 % of its values (10808 of 16380) are outside its range"), "\(error)")
    #expect(error.description.contains("or not finite: more than 5.0 % is refused"), "\(error)")
  }
}
