import Ingest
import Testing

/// Ingest plans a run within its memory budget: the band of cells it writes at a time is a
/// power of two, as large as fits (one band when the whole run does), and only a run whose
/// smallest band cannot fit is refused.
@Suite struct BandPlanTests {
  private static let mebibyte = 1 << 20

  /// The global 0.25° grid with 121 steps, in classic files: its words alone (2 bytes a value, about 4 GB)
  /// are far beyond 512 MiB, so it is written in bands, each within the budget, and a band
  /// twice as large would not fit.
  @Test func aGlobalRunIsPlannedInPowerOfTwoBandsWithinTheDefaultBudget() {
    let cost = IngestCost(
      width: 1440, height: 721, steps: 121, levels: 0, metrics: 18, haloRows: 1, chunked: false)
    #expect(cost.budget == 512 * Self.mebibyte)
    #expect(cost.fits)
    #expect(cost.memory <= Double(cost.budget))
    #expect(cost.bandCells > 0 && cost.bandCells & (cost.bandCells - 1) == 0, "\(cost.bandCells)")
    #expect(cost.bands == (1440 * 721 + cost.bandCells - 1) / cost.bandCells)
    #expect(cost.bands > 1)
    // The words of a band alone, by the definition: cells × steps × metrics × 2 bytes.
    #expect(Double(cost.bandCells * 121 * 18 * 2) < Double(cost.budget))
    // As large as fits: twice the budget holds bands at least twice as large.
    let roomier = IngestCost(
      width: 1440, height: 721, steps: 121, levels: 0, metrics: 18, haloRows: 1, budget: 2 * cost.budget,
      chunked: false)
    #expect(roomier.bandCells >= 2 * cost.bandCells)
    #expect(cost.summary.contains("in \(cost.bands) bands of \(cost.bandCells) cells"))
  }

  /// A run that fits whole is one band over every cell, and a budget just below its
  /// prediction splits it (or derives fewer steps at once) rather than refusing it.
  @Test func aRunThatFitsIsOneBandAndASmallerBudgetSplitsIt() {
    let whole = IngestCost(width: 135, height: 80, steps: 25, levels: 45, metrics: 22, budget: 4 << 30)
    #expect(whole.bands == 1)
    #expect(whole.bandCells >= 135 * 80)
    let tighter = IngestCost(
      width: 135, height: 80, steps: 25, levels: 45, metrics: 22, budget: Int(whole.memory) - 1)
    #expect(tighter.fits)
    #expect(tighter.memory < whole.memory)
    #expect(tighter.bands > 1 || tighter.concurrentSteps < whole.concurrentSteps)
  }

  /// The 800 × 700 WRF run at 3 km with 25 steps and 45 levels (classic files, as WRF
  /// writes by default) fits 512 MiB in bands.
  @Test func aThreeKilometreWRFRunFitsTheDefaultBudgetInBands() {
    let cost = IngestCost(
      width: 800, height: 700, steps: 25, levels: 45, metrics: 22, haloRows: 9, chunked: false)
    #expect(cost.fits, "\(cost.summary)")
    #expect(cost.bands > 1)
  }

  /// A grid whose smallest band cannot fit (its geometry alone is tens of gigabytes) is
  /// refused, naming the dimensions, the band and the budget.
  @Test func aRunWhoseSmallestBandCannotFitIsRefusedNamingItsDimensionsAndTheBudget() throws {
    let cost = IngestCost(width: 40_000, height: 40_000, steps: 1, levels: 0, metrics: 20)
    #expect(!cost.fits)
    let error = try #require(throws: IngestError.self) { try cost.require(store: nil, path: "huge.nc") }
    #expect(error.path == "huge.nc")
    #expect(error.reason.contains("ingesting 40000×40000 cells, 1 steps, 0 levels, 20 metrics"))
    #expect(error.reason.contains("even in bands of \(cost.bandCells) cells"))
    #expect(error.reason.contains("more than the limit of 512.0 MiB (--max-memory)"))
  }

  /// The disk predicted is about the cube (no scratch file): at most the data's words, its
  /// tables and geometry, with a small allowance, not twice the words.
  @Test func theDiskPredictedIsAboutOneCube() {
    let cost = IngestCost(width: 1440, height: 721, steps: 121, levels: 0, metrics: 18)
    let words = 1440.0 * 721 * 121 * 18 * 2
    #expect(cost.disk >= words)
    #expect(cost.disk < 1.1 * words)
  }

  /// A run of several bands packs each band in the background (a second band's words held)
  /// beside the next one's derivation, in a smaller band if it must: two half bands' words
  /// are one band's, so wherever several bands fit, overlapped half bands fit too. A run
  /// that fits in one band is not split.
  @Test func severalBandsArePackedInTheBackgroundAndOneBandIsNotSplit() {
    // The 0.25° global grid, 25 steps, 13 metrics, in classic files (the scale study's run).
    let budgets = [400, 512, 768, 1024, 2048, 8192].map { $0 * Self.mebibyte }
    var (background, whole) = (0, 0)
    for budget in budgets {
      let cost = IngestCost(
        width: 1440, height: 721, steps: 25, levels: 0, metrics: 13, budget: budget, chunked: false)
      #expect(cost.fits, "\(cost.summary)")
      #expect(cost.memory <= Double(budget), "\(cost.summary)")
      if cost.bands > 1 {
        background += 1
        #expect(cost.packsInBackground, "\(cost.summary)")
        #expect(cost.summary.hasSuffix(", each band packed while the next is derived"))
      } else {
        whole += 1
        #expect(!cost.packsInBackground, "\(cost.summary)")
      }
    }
    #expect(background > 0)
    #expect(whole > 0)
  }
}
