import Foundation
import SampleRun
import Testing
import _TestSupport

@testable import Ingest

/// Ingest derives a band of rows at a time (`RowBand`), reading only those rows. Per-cell
/// work does not depend on the rows, so a band's values must be the whole grid's for the
/// same cells, bit for bit, in every convention and for any split of the grid: rows, or
/// cells starting and ending mid-row.
@Suite struct BandDerivationTests {
  /// Every metric at every step of `plan` derived whole, and in the bands of `splits`
  /// (cell ranges covering the grid) joined back in cell order, as bit patterns.
  private static func compare(_ plan: IngestPlan, splits: [[Range<Int>]], label: String) throws {
    let (width, height) = (plan.width, plan.height)
    let whole = RowBand.whole(width: width, height: height)
    var known = 0
    for step in plan.steps.indices {
      let expected = try plan.derive(step, whole)
      known += expected.reduce(0) { $0 + $1.filter { !$0.isNaN }.count }
      for split in splits {
        var joined = [[UInt64]](repeating: [], count: expected.count)
        for cells in split {
          let band = RowBand.covering(cells, width: width, height: height)
          let values = try plan.derive(step, band)
          #expect(values.count == expected.count, "\(label): metrics")
          for (slot, metric) in values.enumerated() where !metric.isEmpty {
            #expect(metric.count == band.cells, "\(label): metric \(plan.metrics[slot].name) rows \(band.rows)")
            joined[slot] += metric[band.ownedInRows].map(\.bitPattern)
          }
        }
        for (slot, metric) in expected.enumerated() where !metric.isEmpty {
          #expect(
            joined[slot] == metric.map(\.bitPattern),
            "\(label): \(plan.metrics[slot].name) at step \(step) differs in bands \(split)")
        }
      }
    }
    // Not a comparison of nothing: most values are known.
    #expect(known > 0, "\(label): no known value")
  }

  /// Splits of a grid of `width × height`: single rows, three uneven row ranges, and
  /// power-of-two bands of cells that start and end mid-row.
  private static func splits(width: Int, height: Int) -> [[Range<Int>]] {
    let cells = width * height
    let rows = (0..<height).map { ($0 * width)..<(($0 + 1) * width) }
    let thirds = [0, height / 3, height / 2 + 1, height].map { $0 * width }
    let uneven = (0..<3).map { thirds[$0]..<thirds[$0 + 1] }.filter { !$0.isEmpty }
    var bands: [[Range<Int>]] = [rows, uneven]
    for size in [64, 1 << 8] where size < cells {
      bands.append(stride(from: 0, to: cells, by: size).map { $0..<min($0 + size, cells) })
    }
    return bands
  }

  @Test func wrfBandsEqualTheWholeGridBitForBit() throws {
    for path in [SampleFiles.allvars, SampleFiles.allvarsCDF2, SampleFiles.mercator] {
      let plan = try #require(try WRFConvention.plans([path]).first)
      try Self.compare(plan, splits: Self.splits(width: plan.width, height: plan.height), label: path)
    }
  }

  @Test func cfBandsEqualTheWholeGridBitForBit() throws {
    let path = SampleFiles.grid("cf/gfs_1deg_subset.nc")
    let plan = try #require(try CFConvention.plans([path], map: nil).first)
    try Self.compare(plan, splits: Self.splits(width: plan.width, height: plan.height), label: path)
  }

  @Test func mm5BandsEqualTheWholeGridBitForBit() throws {
    let directory = SampleFiles.temporaryDirectory("mm5-bands")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 3
    let path = "\(directory)/mm5.nc"
    try SampleRunGenerator.writeMM5(spec, to: path)
    let plan = try #require(try MM5Convention.plans([path]).first)
    try Self.compare(plan, splits: Self.splits(width: plan.width, height: plan.height), label: path)
  }

  /// A real moving nest (Katrina, 3-hourly): the rows read for the earlier accumulation
  /// shift with the nest, and the hour's rain by place is what the whole grid gives.
  @Test func aMovingNestsBandsEqualTheWholeGridBitForBit() throws {
    let path = SampleFiles.grid("wrf/wrf_katrina_moving_d02.nc")
    let plan = try #require(try WRFConvention.plans([path]).first)
    #expect(plan.motion != nil)
    try Self.compare(plan, splits: Self.splits(width: plan.width, height: plan.height), label: path)
  }

  /// The generated moving nest moves north and south by whole cells, hourly: the
  /// previous hour's rows are shifted by the move, and its leading edge is missing in
  /// every band as in the whole grid.
  @Test func theGeneratedMovingNestsBandsEqualTheWholeGridBitForBit() throws {
    let directory = SampleFiles.temporaryDirectory("nest-bands")
    defer { SampleFiles.remove(directory) }
    let run = try nestedRun(hours: 6, in: directory)
    let plan = try #require(try WRFConvention.plans(run.d02).first)
    #expect(plan.motion != nil)
    try Self.compare(plan, splits: Self.splits(width: plan.width, height: plan.height), label: "d02")
  }

  /// With the neighbourhood: each band derives its halo rows too and keeps its own, so
  /// `precip_neighbourhood` of a band is the whole grid's.
  @Test func theNeighbourhoodOfABandEqualsTheWholeGrids() throws {
    let directory = SampleFiles.temporaryDirectory("neighbourhood-bands")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 2
    let files = try SampleRunGenerator.write(spec, to: directory)
    let plan = try #require(try WRFConvention.plans(files).first).addingPrecipitationNeighbourhood()
    #expect(plan.metrics.last == .precipitationNeighbourhood)
    let cells = plan.width * plan.height
    let split = stride(from: 0, to: cells, by: 2048).map { $0..<min($0 + 2048, cells) }
    try Self.compare(plan, splits: [split], label: "neighbourhood")
  }

  /// Bands whose rows overlap (a row two bands share, their halo) count each bad value
  /// once, by the band owning its cell: the warnings and the counts behind the refusal are
  /// a whole-grid read's.
  @Test func overlappingBandsCountEachBadValueOnce() throws {
    let (width, height) = (7, 6)
    let step = StepSource(path: "f.nc", index: 0, time: 0)
    // Two levels, bad values spread over both and in the rows the bands share.
    var values = (0..<(2 * width * height)).map { 250 + Double($0 % 40) }
    for index in [3, 15, 16, 29, 41, 42 + 8, 42 + 22, 42 + 41] { values[index] = 400 }
    let whole = InputScreen()
    var copy = values
    whole.screen("T2", &copy, step: step, cells: width * height)
    let banded = InputScreen()
    for cells in [0..<16, 16..<32, 32..<42] {
      // Each band reads the rows covering its cells and one more on each side.
      let band = RowBand.covering(cells, width: width, height: height).widened(by: 1)
      var read: [Double] = []
      for level in 0..<2 {
        let levelStart: Int = level * width * height
        let first: Int = levelStart + band.rows.lowerBound * width
        let end: Int = levelStart + band.rows.upperBound * width
        read += values[first..<end]
      }
      let bad = read.filter { $0 == 400 }.count
      banded.screen("T2", &read, step: step, region: .rows(of: band))
      // Every bad value read becomes missing, in the halo too; only counting is the owner's.
      #expect(read.filter(\.isNaN).count == bad)
    }
    let expected = whole.warnings(width: width, latitudes: [], longitudes: [])
    #expect(expected.first?.contains("8 values at 1 step") == true, "\(expected)")
    #expect(banded.warnings(width: width, latitudes: [], longitudes: []) == expected)
    // 8 of 84 values is above the refused share in both.
    #expect(banded.refusal()?.reason == whole.refusal()?.reason)
    #expect(whole.refusal()?.reason.contains("(8 of 84)") == true)
  }
}
