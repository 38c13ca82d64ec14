import Foundation
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

@testable import Ingest

/// `precip_neighbourhood` at ingest, against a count done here over every cell with its
/// own great-circle distance.
@Suite struct PrecipitationNeighbourhoodTests {
  static let radius = 25_000.0

  static func distance(_ lat1: Float, _ lon1: Float, _ lat2: Float, _ lon2: Float) -> Double {
    let (phi1, phi2) = (Double(lat1) * .pi / 180, Double(lat2) * .pi / 180)
    let s = sin((phi2 - phi1) / 2)
    let t = sin((Double(lon2) - Double(lon1)) * .pi / 360)
    return 2 * 6_371_008.8 * asin(min(1, (s * s + cos(phi1) * cos(phi2) * t * t).squareRoot()))
  }

  /// Every cell whose centre is within 25 km of `cell`'s, found by testing them all.
  static func neighbours(of cell: Int, latitudes: [Float], longitudes: [Float]) -> [Int] {
    latitudes.indices.filter {
      distance(latitudes[cell], longitudes[cell], latitudes[$0], longitudes[$0]) <= radius
    }
  }

  /// Checks every cell and step of a published cube: its stored share equals the share,
  /// to the cube's stored step (1 % by default), of the cell's neighbours whose stored rain
  /// is ≥ 0.1 mm.
  static func expectSharesMatchStoredRain(_ path: String) throws {
    let cube = try Cube(path: path)
    let metrics = cube.file.header.metrics
    let rain = try #require(metrics.firstIndex { $0.name == "rain" })
    let share = try #require(metrics.firstIndex { $0.name == "precip_neighbourhood" })
    let (latitudes, longitudes) = (cube.file.latitudes, cube.file.longitudes)
    var (wetCells, partial, sizes) = (0, 0, Set<Int>())
    for cell in latitudes.indices {
      let around = neighbours(of: cell, latitudes: latitudes, longitudes: longitudes)
      sizes.insert(around.count)
      for step in 0..<cube.header.stepCount {
        let stored = metrics[share].decode(cube.file.word(metric: share, cell: cell, step: step))
        guard metrics[rain].decode(cube.file.word(metric: rain, cell: cell, step: step)) != nil else {
          #expect(stored == nil, "cell \(cell) step \(step): a share where the cell's rain is missing")
          continue
        }
        var (wet, known) = (0, 0)
        for other in around {
          guard let amount = metrics[rain].decode(cube.file.word(metric: rain, cell: other, step: step)) else {
            continue
          }
          known += 1
          if amount >= 0.1 - 1e-9 { wet += 1 }
        }
        let step = metrics[share].scale
        let expected = (100 * Double(wet) / Double(known) / step).rounded() * step
        #expect(
          stored.map { abs($0 - expected) <= 1e-9 } == true,
          "cell \(cell) step \(step): \(String(describing: stored)) ≠ \(expected)")
        if wet > 0 { wetCells += 1 }
        if wet > 0 && wet < known { partial += 1 }
      }
    }
    // The check saw rain, shares strictly between 0 and 100, and neighbourhoods of several
    // sizes (the edges clip them).
    #expect(wetCells > 0 && partial > 0 && sizes.count > 2, "wet \(wetCells), partial \(partial), sizes \(sizes)")
  }

  /// A small WRF sample run with the generator's own rain (its front crosses the grid after
  /// about 18 hours): every cell and step.
  @Test func aWRFRunsSharesMatchItsStoredRainEverywhere() throws {
    let directory = SampleFiles.temporaryDirectory("neighbourhood-wrf")
    defer { SampleFiles.remove(directory) }
    let spec = SampleRunSpec(westEast: 28, southNorth: 20, levels: 2, dx: 9_000, hours: 30, seed: 31)
    let path = try TestStores.publish(spec, into: "\(directory)/store")
    try Self.expectSharesMatchStoredRain(path)
  }

  /// The same for MM5, whose rain comes through its own field source: the neighbourhood is
  /// computed from any convention's rain.
  @Test func anMM5RunsSharesMatchItsStoredRainEverywhere() throws {
    let directory = SampleFiles.temporaryDirectory("neighbourhood-mm5")
    defer { SampleFiles.remove(directory) }
    let spec = SampleRunSpec(westEast: 28, southNorth: 20, levels: 2, dx: 9_000, hours: 30, seed: 32)
    let file = "\(directory)/mm5.nc"
    try SampleRunGenerator.writeMM5(spec, to: file)
    let report = try Ingestor.run([file], options: .init(store: "\(directory)/store", convention: .mm5))
    #expect(report.published[0].metrics.last == "precip_neighbourhood")
    try Self.expectSharesMatchStoredRain(report.published[0].path)
  }

  /// Without rain there is no share, the warning names both metrics and why, and a query
  /// gives the reason.
  @Test func withoutRainTheShareIsAbsentWithAWarning() throws {
    let directory = SampleFiles.temporaryDirectory("neighbourhood-norain")
    defer { SampleFiles.remove(directory) }
    let file = "\(directory)/wrfout_d01_norain.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: file, dropping: ["RAINC", "RAINNC", "RAINSH"])
    let report = try Ingestor.run([file], options: .init(store: "\(directory)/store"))
    #expect(report.warnings.contains("no precip_neighbourhood, precipitation_probability: rain is missing in \(file)"))
    #expect(!report.published[0].metrics.contains("precip_neighbourhood"))
    let cube = try Cube(path: report.published[0].path)
    #expect(!cube.metric(.precipitationProbability).isAvailable)
  }

  /// A global latitude/longitude grid: neighbourhoods shrink in latitude and grow in
  /// longitude towards the poles (a whole polar row), and cross the longitude seam.
  @Test func aGlobalGridsNeighbourhoodsCrossTheSeamAndFillThePolarRows() throws {
    let (width, height) = (360, 181)
    var latitudes: [Float] = []
    var longitudes: [Float] = []
    for j in 0..<height {
      for i in 0..<width {
        latitudes.append(Float(-90 + j))
        longitudes.append(Float(i))
      }
    }
    let neighbourhood = try PrecipitationNeighbourhood(latitudes: latitudes, longitudes: longitudes)
    var random = TestRandom(seed: 77)
    let amounts = [Double.nan, 0, 0.0949, 0.095, 0.1, 0.3]
    let rain = latitudes.indices.map { _ in amounts[Int(random.next() % UInt64(amounts.count))] }
    let shares = neighbourhood.percentages(rain: rain)
    // The poles, the rows next to them, the seam at several latitudes, and random cells.
    var cells = [0, 359, 180 * 360, 180 * 360 + 17, 1 * 360 + 5, 179 * 360 + 359, 178 * 360]
    for row in [2, 10, 45, 90, 135, 170, 178] { cells += [row * width, row * width + width - 1] }
    for _ in 0..<40 { cells.append(Int(random.next() % UInt64(latitudes.count))) }
    var largest = 0
    for cell in cells {
      let around = Self.neighbours(of: cell, latitudes: latitudes, longitudes: longitudes)
      largest = max(largest, around.count)
      #expect(neighbourhood.size(of: cell) == around.count, "cell \(cell)")
      guard !rain[cell].isNaN else {
        #expect(shares[cell].isNaN, "cell \(cell)")
        continue
      }
      let known = around.filter { !rain[$0].isNaN }
      // At the default 0.1 mm a word, 0.05 mm is stored as 0.1 mm and counts; 0.0499 mm
      // is stored as 0 and does not.
      let wet = known.filter { rain[$0] >= 0.05 }
      #expect(shares[cell] == 100 * Double(wet.count) / Double(known.count), "cell \(cell)")
    }
    // A polar row is one point: all 360 cells are each other's neighbours.
    #expect(neighbourhood.size(of: 0) == 360 && largest == 360)
    // At 80° the cells are 19 km apart: the seam's cells see across it.
    let seam = 170 * width
    #expect(Self.neighbours(of: seam, latitudes: latitudes, longitudes: longitudes).contains(seam + width - 1))
  }
}
