import Foundation
import Meteorology
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

  /// The whole field and bands of rows with their `haloRows` either side equal the
  /// definition at every cell, on grids of every kind: projected, global with its seam and
  /// poles, rotated, bent, scattered, across the antimeridian, single rows and columns.
  @Test(arguments: NeighbourhoodGrid.kinds)
  func everyCellOfEveryKindOfGridMatchesTheDefinition(_ grid: NeighbourhoodGrid) throws {
    let neighbourhood = try PrecipitationNeighbourhood(
      latitudes: grid.latitudes, longitudes: grid.longitudes, width: grid.width, height: grid.height)
    Self.expectDefinition(neighbourhood, on: grid)
  }

  /// The same where the runs would be too many to keep (a limit of none): every step
  /// finds them again by the sweep and the exact pass, with the same answers.
  @Test(arguments: NeighbourhoodGrid.kinds)
  func everyKindMatchesTheDefinitionWhenEveryStepFindsTheRunsAgain(_ grid: NeighbourhoodGrid) throws {
    let neighbourhood = try PrecipitationNeighbourhood(
      latitudes: grid.latitudes, longitudes: grid.longitudes, width: grid.width, height: grid.height, segmentLimit: 0)
    #expect(neighbourhood.counting == .geometry)
    Self.expectDefinition(neighbourhood, on: grid)
  }

  /// Regular latitude/longitude grids, across the seam and up to the poles, are counted
  /// from their rows' latitudes and columns' spacing; projected, rotated, bent and
  /// scattered grids are checked cell by cell. (Both equal the definition above.)
  @Test func regularGridsAreCountedFromTheirSpacingAndOthersAreChecked() throws {
    let expected: [String: PrecipitationNeighbourhood.Counting] = [
      "global 2°, seam and poles": .regular, "north polar cap 0.1° × 1.5°, descending": .regular,
      "south polar cap 0.2° × 3°, from 0 to 360": .regular, "Lambert 9 km": .checked, "bent Lambert 4 km": .checked,
      "rotated pole 0.15°": .checked, "scattered cells": .checked,
    ]
    for grid in NeighbourhoodGrid.kinds {
      guard let counting = expected[grid.description] else { continue }
      let neighbourhood = try PrecipitationNeighbourhood(
        latitudes: grid.latitudes, longitudes: grid.longitudes, width: grid.width, height: grid.height)
      #expect(neighbourhood.counting == counting, "\(grid)")
    }
  }

  /// A regular grid with one cell moved by 2 % of the spacing, or one row's longitudes
  /// shifted, is no longer regular: it is checked cell by cell, and equals the definition,
  /// the moved cell's neighbours included.
  @Test func aGridThatIsAlmostRegularIsCheckedAndMatchesTheDefinition() throws {
    let regular = NeighbourhoodGrid.regular(
      "polar cap 0.05° × 1°", width: 360, height: 25, south: 90, latitudeStep: -0.05, west: 0, longitudeStep: 1)
    for (name, cell, nudge) in [("one cell moved", 7 * 360 + 359, 0.02), ("one row shifted", -1, 0.5)] {
      let grid = NeighbourhoodGrid(name, width: regular.width, height: regular.height) { i, j in
        let index = j * regular.width + i
        let moved = cell < 0 ? j == 12 : index == cell
        return (Double(regular.latitudes[index]), Double(regular.longitudes[index]) + (moved ? nudge : 0))
      }
      let neighbourhood = try PrecipitationNeighbourhood(
        latitudes: grid.latitudes, longitudes: grid.longitudes, width: grid.width, height: grid.height)
      #expect(neighbourhood.counting == .checked, "\(name)")
      Self.expectDefinition(neighbourhood, on: grid)
    }
  }

  /// Pairs of cells at the radius itself, to within the coordinates' rounding: a regular
  /// grid at the equator spaced by the radius's angle, whose neighbours one column and one
  /// row away are decided cell by cell by the definition, as the brute force decides them.
  @Test func pairsAtTheRadiusItselfAreDecidedByTheDefinition() throws {
    let angle = Self.radius / 6_371_008.8 * 180 / .pi
    let grid = NeighbourhoodGrid.regular(
      "equator spaced by the radius", width: 120, height: 15, south: -7 * angle, latitudeStep: angle, west: 170,
      longitudeStep: angle)
    let neighbourhood = try PrecipitationNeighbourhood(
      latitudes: grid.latitudes, longitudes: grid.longitudes, width: grid.width, height: grid.height)
    #expect(neighbourhood.counting == .regular)
    // The grid does hold pairs a hair either side of 25 km: in a row at the equator (the
    // longitudes' rounding, about 1.7 m) and in a column (the latitudes', about 1 cm).
    var (inside, outside) = (0, 0)
    for row in 0..<grid.height {
      for column in 0..<grid.width {
        let a = row * grid.width + column
        for b in [column + 1 < grid.width ? a + 1 : nil, row + 1 < grid.height ? a + grid.width : nil].compactMap({ $0 }
        ) {
          let d = Self.distance(grid.latitudes[a], grid.longitudes[a], grid.latitudes[b], grid.longitudes[b])
          guard abs(d - Self.radius) < 1 else { continue }
          if d <= Self.radius { inside += 1 } else { outside += 1 }
        }
      }
    }
    #expect(inside > 0 && outside > 0, "within 1 m of the radius: \(inside) inside, \(outside) outside")
    Self.expectDefinition(neighbourhood, on: grid)
  }

  /// Caps this (child) process at 256 MiB of address space more than it has now and 10
  /// minutes of CPU.
  static func capMemoryAndCPU() { ResourceCaps.cap(megabytes: 256, cpuSeconds: 600) }

  /// In a child process: exits with 1, after writing each differing cell to standard
  /// error, unless `whole` equals the definition at `cells` of `grid` and more than 1,000
  /// of them have both wet and dry neighbours.
  static func exitUnlessDefinition(_ whole: [Double], at cells: [Int], of grid: NeighbourhoodGrid, rain: [Double]) {
    let oracle = BruteForce.Grid(latitudes: grid.latitudes, longitudes: grid.longitudes)
    var (mismatches, partial) = (0, 0)
    for cell in cells {
      let expected = BruteForce.neighbourhoodPercentage(
        of: cell, in: oracle, radius: Self.radius, rain: rain, isWet: NeighbourhoodGrid.isWet)
      if expected > 0 && expected < 100 { partial += 1 }
      if whole[cell] == expected || whole[cell].isNaN && expected.isNaN { continue }
      mismatches += 1
      FileHandle.standardError.write(Data("cell \(cell): \(whole[cell]) ≠ \(expected)\n".utf8))
    }
    guard mismatches == 0, partial > 1_000 else {
      FileHandle.standardError.write(Data("\(mismatches) mismatches, \(partial) partial\n".utf8))
      exit(1)
    }
  }

  /// Checks `neighbourhood`'s whole field and its bands of rows against the definition at
  /// every cell of `grid`, with rain that has every case.
  static func expectDefinition(_ neighbourhood: PrecipitationNeighbourhood, on grid: NeighbourhoodGrid) {
    let rain = grid.rain(seed: UInt64(grid.width * 7919 + grid.height))
    let whole = neighbourhood.percentages(rain: rain)
    let oracle = BruteForce.Grid(latitudes: grid.latitudes, longitudes: grid.longitudes)
    var (partial, mismatches) = (0, 0)
    for cell in rain.indices {
      let expected = BruteForce.neighbourhoodPercentage(
        of: cell, in: oracle, radius: Self.radius, rain: rain, isWet: NeighbourhoodGrid.isWet)
      if expected > 0 && expected < 100 { partial += 1 }
      guard !(whole[cell] == expected || whole[cell].isNaN && expected.isNaN) else { continue }
      mismatches += 1
      if mismatches <= 5 {
        Issue.record("\(grid): cell \(cell) (\(cell % grid.width), \(cell / grid.width)): \(whole[cell]) ≠ \(expected)")
      }
    }
    #expect(mismatches == 0, "\(grid): \(mismatches) cells differ from the definition")
    // The check saw neighbourhoods with both wet and dry cells wherever cells have any
    // neighbour but themselves.
    if grid.width * grid.height > 2 { #expect(partial > 0, "\(grid): no neighbourhood mixes wet and dry") }
    let halo = neighbourhood.haloRows
    #expect(halo >= 0 && halo < grid.height)
    for bandRows in [1, 3, 8] where bandRows < grid.height {
      for first in stride(from: 0, to: grid.height, by: bandRows) {
        let owned = first..<min(first + bandRows, grid.height)
        let rows = max(owned.lowerBound - halo, 0)..<min(owned.upperBound + halo, grid.height)
        let band = rain[rows.lowerBound * grid.width..<rows.upperBound * grid.width].withUnsafeBufferPointer {
          neighbourhood.percentages(rain: $0, rows: rows, owned: owned)
        }
        let expected = Array(whole[owned.lowerBound * grid.width..<owned.upperBound * grid.width])
        #expect(band.count == expected.count)
        let differing = zip(band, expected).filter { !($0 == $1 || $0.isNaN && $1.isNaN) }.count
        #expect(differing == 0, "\(grid): rows \(owned) with halo \(rows): \(differing) cells differ")
      }
    }
  }

  /// The halo is the reach of the neighbourhoods in rows, no more: rows 27.8 km apart on a
  /// 0.25° grid are beyond 25 km (no halo); on a 3 km grid 25 km is 8 rows.
  @Test func theHaloIsTheRowsTheNeighbourhoodsReach() throws {
    let global = NeighbourhoodGrid.regular(
      "global 0.25°", width: 1440, height: 40, south: -5, latitudeStep: 0.25, west: 0, longitudeStep: 0.25)
    #expect(
      try PrecipitationNeighbourhood(
        latitudes: global.latitudes, longitudes: global.longitudes, width: global.width, height: global.height
      ).haloRows == 0)
    let lambert = NeighbourhoodGrid.lambert("3 km", width: 30, height: 40, dx: 3_000)
    // At 39.5° N the map factor is within a few parts in a thousand of one: 25 km is a
    // little over 8 grid lengths, and far from 9.
    #expect(
      try PrecipitationNeighbourhood(
        latitudes: lambert.latitudes, longitudes: lambert.longitudes, width: lambert.width, height: lambert.height
      ).haloRows == 8)
  }

  /// A step's count decides wetness by one comparison with the least wet amount; that
  /// comparison gives the definition's answer (the amount's stored word is at least 0.1 mm's;
  /// an amount the cube cannot store counts by its value) at every precision, for the
  /// doubles on and beside the boundary and for amounts over and beyond the stored range.
  @Test func theLeastWetAmountDecidesWetnessAsTheStoredWordDoes() throws {
    let grid = NeighbourhoodGrid.regular(
      "small", width: 8, height: 4, south: 40, latitudeStep: 0.25, west: 0, longitudeStep: 0.25)
    var random = TestRandom(seed: 7)
    for step in [0.1, 0.05, 0.2, 0.01, 0.3, 1] {
      let neighbourhood = try PrecipitationNeighbourhood(
        latitudes: grid.latitudes, longitudes: grid.longitudes, width: grid.width, height: grid.height,
        rainStep: step)
      let offset = Metric.rain.offset
      func word(_ amount: Double) -> Double? {
        let word = ((amount - offset) / step).rounded()
        return word >= 0 && word <= 65_534 ? word : nil
      }
      let threshold = try #require(word(0.1))
      func wet(_ amount: Double) -> Bool { word(amount).map { $0 >= threshold } ?? (amount >= 0.1) }
      var amounts: [Double] = [0, -0.0, 0.1, .infinity, -.infinity, .greatestFiniteMagnitude, -1e300, 1e300]
      for edge in [(threshold - 0.5) * step + offset, -0.5 * step + offset, 65_534.5 * step + offset] {
        var (up, down) = (edge, edge)
        for _ in 0..<64 {
          amounts += [up, down]
          (up, down) = (up.nextUp, down.nextDown)
        }
      }
      amounts += (0..<5_000).map { _ in random.uniform(-1...(70_000 * step)) }
      for amount in amounts {
        #expect(neighbourhood.isWet(amount) == wet(amount), "rain step \(step): \(amount) mm")
      }
    }
  }

  /// A grid with no position for a cell has no neighbourhood: refused, naming the cell.
  @Test func aCellWithoutCoordinatesIsRefusedByName() {
    var latitudes = [Float](repeating: 40, count: 12)
    latitudes[7] = .nan
    let longitudes = (0..<12).map { Float($0) * 0.1 }
    #expect {
      try PrecipitationNeighbourhood(latitudes: latitudes, longitudes: longitudes, width: 4, height: 3)
    } throws: { error in
      (error as? PrecipitationNeighbourhood.Refusal)?.reason
        == "cell 7 (column 3, row 1) has no finite latitude and longitude"
    }
  }

  /// Sides that do not match the coordinates, or whose product overflows, are refused
  /// naming both.
  @Test func sidesThatDoNotFitTheCoordinatesAreRefused() {
    let coordinates = [Float](repeating: 40, count: 12)
    for (width, height) in [(5, 3), (Int.max, 2), (0, 12)] {
      #expect {
        try PrecipitationNeighbourhood(latitudes: coordinates, longitudes: coordinates, width: width, height: height)
      } throws: { error in
        (error as? PrecipitationNeighbourhood.Refusal)?.reason
          == "the grid's coordinates (12 latitudes, 12 longitudes) do not fit \(width) × \(height) cells"
      }
    }
  }

  /// Above the old limit of 400 million distance tests (about 500,000 cells at 3 km): an
  /// 800 × 700 grid at 3 km, in a child process capped at 256 MiB of address space more
  /// than it starts with and 10 minutes of CPU, equals the definition at 2,000 random cells
  /// and every cell of five whole rows.
  @Test(.timeLimit(.minutes(10)))
  func aThreeKilometreGridAboveTheOldLimitMatchesTheDefinitionUnderAMemoryCap() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let (width, height) = (800, 700)
      Self.capMemoryAndCPU()
      let grid = NeighbourhoodGrid.lambert("3 km", width: width, height: height, dx: 3_000)
      let rain = grid.rain(seed: 560_000)
      let whole: [Double]
      do {
        whole = try PrecipitationNeighbourhood(
          latitudes: grid.latitudes, longitudes: grid.longitudes, width: width, height: height
        ).percentages(rain: rain)
      } catch {
        FileHandle.standardError.write(Data("refused: \(error)\n".utf8))
        exit(2)
      }
      var random = TestRandom(seed: 7)
      var cells = (0..<2_000).map { _ in Int(random.next() % UInt64(width * height)) }
      for row in [0, 1, 349, 698, 699] { cells += (row * width)..<((row + 1) * width) }
      Self.exitUnlessDefinition(whole, at: cells, of: grid, rain: rain)
    }
    // The child's own account of what differed, when it did.
    let account = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(!account.contains("≠") && !account.contains("refused"), "\(account.prefix(2_000))")
  }

  /// A quarter-degree grid like the global one, from the north pole down to 70° N across
  /// the whole circle of longitude (its seam between 359.75° and 0°), counted from its
  /// spacing in a child process capped at 256 MiB of address space more than it starts
  /// with and 10 minutes of CPU, equals the definition at every cell of the pole's row,
  /// the next two rows and the last, at the seam's columns of every row, and at 1,000
  /// random cells.
  @Test(.timeLimit(.minutes(10)))
  func aQuarterDegreePolarCapAcrossTheSeamMatchesTheDefinitionUnderAMemoryCap() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let (width, height) = (1440, 81)
      Self.capMemoryAndCPU()
      let grid = NeighbourhoodGrid.regular(
        "0.25° polar cap", width: width, height: height, south: 90, latitudeStep: -0.25, west: 0, longitudeStep: 0.25)
      let rain = grid.rain(seed: 1_440)
      let neighbourhood: PrecipitationNeighbourhood
      do {
        neighbourhood = try PrecipitationNeighbourhood(
          latitudes: grid.latitudes, longitudes: grid.longitudes, width: width, height: height)
      } catch {
        FileHandle.standardError.write(Data("refused: \(error)\n".utf8))
        exit(2)
      }
      guard neighbourhood.counting == .regular else {
        FileHandle.standardError.write(Data("counted \(neighbourhood.counting), not from the spacing\n".utf8))
        exit(3)
      }
      let whole = neighbourhood.percentages(rain: rain)
      var random = TestRandom(seed: 11)
      var cells = (0..<1_000).map { _ in Int(random.next() % UInt64(width * height)) }
      for row in [0, 1, 2, height - 1] { cells += (row * width)..<((row + 1) * width) }
      for row in 0..<height { cells += [0, 1, 2, width - 3, width - 2, width - 1].map { row * width + $0 } }
      Self.exitUnlessDefinition(whole, at: cells, of: grid, rain: rain)
    }
    let account = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      !account.contains("≠") && !account.contains("refused") && !account.contains("counted"), "\(account.prefix(2_000))"
    )
  }
}
