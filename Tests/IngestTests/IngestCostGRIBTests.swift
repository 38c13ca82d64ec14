import Foundation
import Testing
import _TestSupport

@testable import Ingest

/// A GRIB run's memory is planned from what its steps read (`IngestCost`'s `stepFields`),
/// not from WRF's 48 fields per step, and no NetCDF run's plan changes.
@Suite(.timeLimit(.minutes(3))) struct IngestCostGRIBTests {
  /// 2026-06-21 00 UTC.
  static let reference: Int64 = 1_782_000_000
  static let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (36, 6), width: 41, height: 29)

  /// A GRIB step's estimate bounds what it holds: every message at its valid time (counted
  /// by ecCodes' `grib_get`, which shares none of the plan's code), each kept over the
  /// band's rows for the derivation, plus the sum being made and the message being read
  /// into it; and it is below WRF's 48, which would leave the decoded fields no room.
  @Test func aGRIBStepsEstimateBoundsTheMessagesItReadsAndIsBelowWRFs() throws {
    let directory = SampleFiles.temporaryDirectory("ingest-cost-grib")
    defer { SampleFiles.remove(directory) }
    let points = Self.grid.width * Self.grid.height
    let paths = try (1...3).map { hour in
      let values = (0..<points).map { Double($0 % 31) * 0.1 + Double(hour) }
      let fields: [GRIBTestField] = [
        .temperature(reference: Self.reference, hours: hour, values: values.map { $0 + 270 }),
        .wind("u", reference: Self.reference, hours: hour, values: values),
        .wind("v", reference: Self.reference, hours: hour, values: values.map { -$0 }),
        .seaLevelPressure(reference: Self.reference, hours: hour, values: values.map { $0 + 100_000 }),
        .precipitation(reference: Self.reference, from: 0, to: hour, values: values.map { $0 * Double(hour) }),
      ]
      let path = "\(directory)/run.f\(hour).grib2"
      try GRIBWriter.write(
        try fields.map { field throws(GRIBWriterError) in try GRIBWriter.message(field, on: Self.grid) }, to: path)
      return path
    }
    let plan = try #require(try GRIBConvention.plans(paths, map: nil).first)
    for path in paths {
      // One line per message: a step holds at most one band-sized field per message of
      // its valid time (a deaccumulation's earlier window is summed into the same field).
      let messages = try ECCodesTools.run("grib_get", ["-p", "shortName", path])
        .split(separator: "\n").filter { !$0.isEmpty }.count
      #expect(messages == 5)
      #expect(plan.stepFields >= messages + 2, "\(path): \(plan.stepFields) fields for \(messages) messages")
    }
    #expect(plan.stepFields < IngestCost.wrfStepFields)
    // The ingest plans with it (the neighbourhood's plan keeps it): its prediction is that
    // of `stepFields` fields per step, below WRF's.
    let report = try Ingestor.run(paths, options: .init(store: "\(directory)/store", convention: .grib))
    let cost = try #require(report.costs.first)
    let neighbourhood = plan.addingPrecipitationNeighbourhood().neighbourhoodBytes
    func predicted(_ fields: Int) -> Double {
      IngestCost(
        width: cost.width, height: cost.height, steps: cost.steps, levels: cost.levels, metrics: cost.metrics,
        haloRows: cost.haloRows, budget: cost.budget, chunked: false, wholeFieldReads: IngestCost.gribFieldsDecoded,
        stepFields: fields, neighbourhood: neighbourhood
      ).memory
    }
    #expect(cost.memory == predicted(plan.stepFields))
    #expect(cost.memory < predicted(IngestCost.wrfStepFields))
  }

  /// NetCDF runs keep WRF's estimate, so that their bands, and so their cubes, are as before.
  @Test func netCDFRunsKeepWRFsFortyEightFieldsPerStep() throws {
    let wrf = try #require(try WRFConvention.plans([SampleFiles.allvars]).first)
    #expect(wrf.stepFields == 48)
    let cf = try #require(try CFConvention.plans([SampleFiles.grid("cf/gfs_1deg_subset.nc")], map: nil).first)
    #expect(cf.stepFields == 48)
  }

  /// GFS's 0.25° grid, 16 steps of 8 complex-packed fields (128 messages of 2,076,480
  /// bytes kept as 16-bit integers), at the default 512 MiB: the plan picks bands whose
  /// later bands decode fewer messages again than the largest band that fits would, and
  /// the fields it keeps fit in what the budget leaves beside the rest of its prediction.
  @Test func aPlanWithFieldsDecodedWholeChoosesBandsThatDecodeThemFewerTimes() {
    let (count, bytes) = (128, 2_076_480.0)
    func plan(_ whole: (count: Int, bytes: Double)) -> IngestCost {
      IngestCost(
        width: 1440, height: 721, steps: 16, levels: 0, metrics: 12, haloRows: 1, chunked: false,
        wholeFieldReads: IngestCost.gribFieldsDecoded, stepFields: 10, neighbourhood: 100_000, wholeFields: whole)
    }
    // The decodes of a plan that keeps `kept` fields: every field by the first band, the
    // others by every band.
    func decodes(_ cost: IngestCost, kept: Int) -> Int { count + (count - kept) * (cost.bands - 1) }
    let without = plan((0, 0))
    let keptBefore = Int((Double(without.budget) - without.memory) / bytes)
    let with = plan((count, bytes))
    #expect(with.fits && without.fits)
    #expect(with.bands > 1 && with.keptFields > 0 && with.keptBytes == Double(with.keptFields) * bytes)
    #expect(Double(with.budget) - (with.memory - with.keptBytes) >= with.keptBytes)
    #expect(
      decodes(with, kept: with.keptFields) < decodes(without, kept: min(count, keptBefore)),
      "\(with.summary) against \(without.summary)")
    #expect(with.summary.hasSuffix(", \(with.keptFields) fields decoded whole kept for the later bands"))
    #expect(!without.summary.contains("kept"))
    // Nothing decoded whole: the plan is the one without the term.
    #expect(plan((0, bytes)) == without)
  }
}
