import Foundation
import GridGeometry
import Testing
import _TestSupport

/// One way of spoiling a real grid, and what the validator's refusal must say: the cell it
/// names and a phrase of the reason.
struct Degeneration: CustomTestStringConvertible, Sendable {
  let name: String
  let cell: String
  let reason: String
  let spoil: @Sendable (_ width: Int, _ latitudes: inout [Float], _ longitudes: inout [Float]) -> Void

  var testDescription: String { name }

  static let all: [Degeneration] = [
    Degeneration(name: "one cell at (0, 0)", cell: "cell (57, 40) at latitude 0.0, longitude 0.0", reason: "jumps") {
      width, latitudes, longitudes in
      latitudes[40 * width + 57] = 0
      longitudes[40 * width + 57] = 0
    },
    Degeneration(name: "the corner cell at (0, 0)", cell: "cell (0, 0) at latitude 0.0, longitude 0.0", reason: "jumps")
    {
      _, latitudes, longitudes in
      latitudes[0] = 0
      longitudes[0] = 0
    },
    Degeneration(
      name: "all zeros", cell: "cell (0, 0) at latitude 0.0, longitude 0.0",
      reason: "same point as its neighbour (1, 0)"
    ) { _, latitudes, longitudes in
      latitudes = latitudes.map { _ in 0 }
      longitudes = longitudes.map { _ in 0 }
    },
    Degeneration(name: "a duplicated point", cell: "cell (30, 20)", reason: "same point as its neighbour (31, 20)") {
      width, latitudes, longitudes in
      latitudes[20 * width + 31] = latitudes[20 * width + 30]
      longitudes[20 * width + 31] = longitudes[20 * width + 30]
    },
    Degeneration(name: "a reversed row", cell: "cell (0, 40)", reason: "jumps") { width, latitudes, longitudes in
      let row = (40 * width)..<(41 * width)
      latitudes.replaceSubrange(row, with: latitudes[row].reversed())
      longitudes.replaceSubrange(row, with: longitudes[row].reversed())
    },
    Degeneration(name: "two rows swapped", cell: "cell (0, 40)", reason: "folds the grid") {
      width, latitudes, longitudes in
      for i in 0..<width {
        latitudes.swapAt(40 * width + i, 41 * width + i)
        longitudes.swapAt(40 * width + i, 41 * width + i)
      }
    },
  ]
}

/// The 135 × 80 grid of the generated sample run, with its projection.
private func sampleGrid() throws -> (grid: CurvilinearGrid, projection: MapProjection?) {
  let sample = try GridFiles.mm5Sample()
  return (sample.grid, try? MapProjection(wrfCode: sample.code, parameters: sample.parameters, grid: sample.grid))
}

/// `count` points spread over the unspoilt grid (so, where queries would come from): the
/// cell a locator answers must be the great-circle nearest of the grid it was built on.
private func wrongAnswers(_ locator: some PointLocator, near original: CurvilinearGrid, count: Int = 2_000) -> Int {
  let oracle = BruteForce.Grid(latitudes: locator.grid.latitudes, longitudes: locator.grid.longitudes)
  var random = TestRandom(seed: 10)
  var wrong = 0
  for _ in 0..<count {
    let point = GridSampling.point(
      x: random.uniform(-0.45...Double(original.width) - 0.55),
      y: random.uniform(-0.45...Double(original.height) - 0.55),
      width: original.width, height: original.height, latitudes: original.latitudes, longitudes: original.longitudes)
    guard let (i, j) = locator.nearestCell(latitude: point.latitude, longitude: point.longitude) else { continue }
    if !oracle.isNearest(j * original.width + i, latitude: point.latitude, longitude: point.longitude) { wrong += 1 }
  }
  return wrong
}

@Suite struct DegenerateGridTests {
  /// Real and generated grids of every kind the locators serve: WRF and MM5 files, the
  /// generated sample run, polar stereographic over the pole, across the dateline, south,
  /// rotated pole, Mercator, Lambert.
  @Test(arguments: analyticCases)
  func legitimateGridsPassTheValidator(_ legitimate: AnalyticCase) throws {
    try legitimate.make().grid.validate()
  }

  /// Global lattices in both latitude orders and longitude conventions, with and without
  /// rows on the poles (where every cell of the row is the same point).
  @Test(arguments: [(1.0, true), (0.5, true), (0.5, false), (2.5, true)])
  func globalLatticesPassTheValidator(spacing: Double, poleRows: Bool) throws {
    let rows = poleRows ? Int(180 / spacing) + 1 : Int(180 / spacing)
    let latitudes = (0..<rows).map { Float((poleRows ? 90 : 90 - spacing / 2) - Double($0) * spacing) }
    let longitudes = (0..<Int(360 / spacing)).map { Float((poleRows ? 0 : -180) + Double($0) * spacing) }
    for order in [latitudes, latitudes.reversed()] {
      let grid = try CurvilinearGrid(
        width: longitudes.count, height: order.count, latitudes: order.flatMap { row in longitudes.map { _ in row } },
        longitudes: order.flatMap { _ in longitudes })
      try grid.validate()
    }
  }

  @Test(arguments: Degeneration.all)
  func theValidatorRefusesNamingTheFirstBadCell(_ degeneration: Degeneration) throws {
    let (grid, _) = try sampleGrid()
    #expect(grid.width == 135 && grid.height == 80)
    try grid.validate()
    var (latitudes, longitudes) = (grid.latitudes, grid.longitudes)
    degeneration.spoil(grid.width, &latitudes, &longitudes)
    let spoilt = try CurvilinearGrid(width: 135, height: 80, latitudes: latitudes, longitudes: longitudes)
    let error = #expect(throws: GeometryError.self) { try spoilt.validate() }
    let text = error?.description ?? ""
    #expect(text.hasPrefix("invalid grid: \(degeneration.cell)"), "\(text)")
    #expect(text.contains(degeneration.reason), "\(text)")
  }

  /// Every locator, built straight from the spoilt grid without validation, either refuses
  /// it or answers exactly, having done no more work than its stated bound.
  @Test(arguments: Degeneration.all)
  func everyLocatorBuildsWithinItsBoundAndIsExactOrRefuses(_ degeneration: Degeneration) throws {
    let (grid, projection) = try sampleGrid()
    var (latitudes, longitudes) = (grid.latitudes, grid.longitudes)
    degeneration.spoil(grid.width, &latitudes, &longitudes)
    let spoilt = try CurvilinearGrid(width: 135, height: 80, latitudes: latitudes, longitudes: longitudes)
    do {
      let locator = try CellLocator(grid: spoilt)
      #expect(locator.buildWork <= CellLocator.workLimit(cells: spoilt.count))
      #expect(wrongAnswers(locator, near: grid) == 0)
    } catch {
      #expect(error.description.hasPrefix("invalid grid: "), "\(error)")
    }
    if let regular = RegularLatLonLocator(grid: spoilt) {
      #expect(regular.buildWork <= RegularLatLonLocator.workLimit(cells: spoilt.count))
      #expect(wrongAnswers(regular, near: grid) == 0)
    }
    if let projection {
      do {
        let analytic = try AnalyticLocator(grid: spoilt, projection: projection)
        #expect(analytic.buildWork <= AnalyticLocator.workLimit(cells: spoilt.count))
        #expect(wrongAnswers(analytic, near: grid) == 0)
      } catch {
        #expect(error.description.hasPrefix("projection rejected: "), "\(error)")
      }
    }
  }

  /// The case: a single cell at (0, 0) spun the cell locator's build for minutes.
  /// Now the build stops at its bucket or work limit, whichever comes first.
  @Test func aCellFarFromTheOthersIsRefusedByTheCellLocatorsLimits() throws {
    let (grid, _) = try sampleGrid()
    var (latitudes, longitudes) = (grid.latitudes, grid.longitudes)
    latitudes[40 * 135 + 57] = 0
    longitudes[40 * 135 + 57] = 0
    let spoilt = try CurvilinearGrid(width: 135, height: 80, latitudes: latitudes, longitudes: longitudes)
    let error = #expect(throws: GeometryError.self) { try CellLocator(grid: spoilt) }
    #expect(error?.description.contains("too irregular for the cell locator") == true, "\(String(describing: error))")
    // A cell a few cells off its place is not refused, and stays within the bound.
    latitudes[40 * 135 + 57] = grid.latitudes[40 * 135 + 57] + 0.5
    let nudged = try CurvilinearGrid(width: 135, height: 80, latitudes: latitudes, longitudes: longitudes)
    let locator = try CellLocator(grid: nudged)
    #expect(locator.buildWork <= CellLocator.workLimit(cells: nudged.count))
    #expect(wrongAnswers(locator, near: grid) == 0)
  }

  @Test func legitimateGridsUseAFractionOfTheBound() throws {
    let (grid, _) = try sampleGrid()
    let locator = try CellLocator(grid: grid)
    // The bound leaves a real grid several times its actual work.
    #expect(locator.buildWork * 4 <= CellLocator.workLimit(cells: grid.count), "\(locator.buildWork)")
  }

  /// CF's 1-D axes spread into a lattice: a constant latitude puts whole rows on one point,
  /// an unsorted one folds the grid; a descending one is fine.
  @Test func latticesWithConstantOrUnsortedLatitudesAreRefused() throws {
    func lattice(_ rows: [Float]) throws -> CurvilinearGrid {
      let columns = (0..<20).map { Float(340 + $0) }
      return try CurvilinearGrid(
        width: columns.count, height: rows.count, latitudes: rows.flatMap { row in columns.map { _ in row } },
        longitudes: rows.flatMap { _ in columns })
    }
    try lattice((0..<10).map { Float(50 - $0) }).validate()
    let constant = #expect(throws: GeometryError.self) { try lattice(Array(repeating: 40, count: 10)).validate() }
    #expect(
      constant?.description
        == "invalid grid: cell (0, 0) at latitude 40.0, longitude 340.0 is at the same point as its neighbour (0, 1): duplicated or collapsed coordinates"
    )
    let unsorted = #expect(throws: GeometryError.self) {
      try lattice([40, 41, 42, 44, 43, 45, 46, 47, 48, 49]).validate()
    }
    #expect(
      unsorted?.description.hasPrefix("invalid grid: cell (0, 3) at latitude 44.0") == true,
      "\(String(describing: unsorted))")
    #expect(unsorted?.description.contains("folds the grid") == true)
  }

  /// Scattered coordinates, no grid at all: sizes 2…24 a side, boxes from metres to 40°
  /// wide, some cells repeated. Each locator refuses or stays within its bound, and the
  /// cell locator's answers are the brute-force nearest.
  @Test func scatteredCoordinatesBuildWithinTheBoundOrAreRefused() throws {
    var random = TestRandom(seed: 2026)
    var built = 0
    for _ in 0..<60 {
      let (width, height) = (2 + Int(random.next() % 23), 2 + Int(random.next() % 23))
      let size = pow(10, random.uniform(-4...1.6))
      let (latitude, longitude) = (random.uniform(-89...89), random.uniform(-360...360))
      var latitudes = (0..<(width * height)).map { _ in Float(min(max(latitude + random.uniform(0...size), -90), 90)) }
      var longitudes = (0..<(width * height)).map { _ in
        Float(min(max(longitude + random.uniform(0...size), -360), 360))
      }
      for _ in 0..<Int(random.next() % 4) {
        let (a, b) = (Int(random.next() % UInt64(width * height)), Int(random.next() % UInt64(width * height)))
        (latitudes[a], longitudes[a]) = (latitudes[b], longitudes[b])
      }
      let grid = try CurvilinearGrid(width: width, height: height, latitudes: latitudes, longitudes: longitudes)
      if let regular = RegularLatLonLocator(grid: grid) {
        #expect(regular.buildWork <= RegularLatLonLocator.workLimit(cells: grid.count))
      }
      guard let locator = try? CellLocator(grid: grid) else { continue }
      built += 1
      #expect(locator.buildWork <= CellLocator.workLimit(cells: grid.count))
      // Cells centimetres apart are beyond what dot products of unit vectors (the
      // locator's and the oracle's) tell apart to the oracle's millimetre: exactness is
      // checked on scatters a kilometre or more wide.
      guard size >= 0.01 else { continue }
      let oracle = BruteForce.Grid(latitudes: latitudes, longitudes: longitudes)
      for _ in 0..<50 {
        let cell = Int(random.next() % UInt64(grid.count))
        let (pointLatitude, pointLongitude) = (
          Double(latitudes[cell]) + random.uniform(-size / 20...size / 20),
          Double(longitudes[cell]) + random.uniform(-size / 20...size / 20)
        )
        guard abs(pointLatitude) <= 90,
          let (i, j) = locator.nearestCell(latitude: pointLatitude, longitude: pointLongitude)
        else { continue }
        #expect(oracle.isNearest(j * width + i, latitude: pointLatitude, longitude: pointLongitude))
      }
    }
    // Most scatters are indexed: the limits refuse the extreme, not the untidy.
    #expect(built >= 20, "\(built)")
  }

  @Test func coordinatesThatAreNotNumbersOrCountsThatOverflowAreRefusedAtConstruction() {
    var latitudes = [Float](repeating: 40, count: 12)
    latitudes[7] = .nan
    let longitudes = (0..<12).map { Float($0 % 4) }
    let nan = #expect(throws: GeometryError.self) {
      try CurvilinearGrid(width: 4, height: 3, latitudes: latitudes, longitudes: longitudes)
    }
    #expect(nan?.description == "invalid grid: cell (3, 1): latitude nan is not a number in −90…90")
    let far = #expect(throws: GeometryError.self) {
      try CurvilinearGrid(width: 4, height: 3, latitudes: longitudes, longitudes: longitudes.map { $0 + 1000 })
    }
    #expect(far?.description == "invalid grid: cell (0, 0): longitude 1000.0 is not a number in −360…360")
    // width × height overflows Int: refused, not trapped.
    let huge = #expect(throws: GeometryError.self) {
      try CurvilinearGrid(width: Int.max / 2, height: 3, latitudes: [], longitudes: [])
    }
    #expect(huge?.description.contains("coordinates, got 0 latitudes") == true)
  }
}
