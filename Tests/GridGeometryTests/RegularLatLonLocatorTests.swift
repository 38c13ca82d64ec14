import Foundation
import GridGeometry
import NetCDF
import Testing
import _TestSupport

/// A 2-D grid from 1-D latitude and longitude axes: cell (i, j) at `lat[j]`, `lon[i]`.
private func lattice(latitudes: [Float], longitudes: [Float]) throws -> CurvilinearGrid {
  try CurvilinearGrid(
    width: longitudes.count, height: latitudes.count,
    latitudes: latitudes.flatMap { latitude in longitudes.map { _ in latitude } },
    longitudes: latitudes.flatMap { _ in longitudes })
}

/// The GFS 1° subset: 46 latitudes descending 65…20, 101 longitudes 210…310.
private func gfsGrid() throws -> CurvilinearGrid {
  let file = try NCFile.open(SampleFiles.grid("cf/gfs_1deg_subset.nc"))
  defer { file.close() }
  return try lattice(
    latitudes: try file.readFloats("lat", start: [0], count: [46]),
    longitudes: try file.readFloats("lon", start: [0], count: [101]))
}

/// Global 1°: longitudes 0…359, latitudes 90…−90 (descending, rows at the poles).
private func globalOneDegree() throws -> CurvilinearGrid {
  try lattice(latitudes: (0...180).map { Float(90 - $0) }, longitudes: (0..<360).map { Float($0) })
}

/// Global 0.5°: longitudes −180…179.5, latitudes −89.75…89.75 (ascending, no pole rows).
private func globalHalfDegree() throws -> CurvilinearGrid {
  try lattice(
    latitudes: (0..<360).map { Float(-89.75 + 0.5 * Double($0)) },
    longitudes: (0..<720).map { Float(-180 + 0.5 * Double($0)) })
}

/// A longitude in a randomly chosen convention (−180…180 or 0…360) where both can hold it.
private func convention(_ longitude: Double, _ random: inout TestRandom) -> Double {
  var value = longitude.truncatingRemainder(dividingBy: 360)
  if value < -180 { value += 360 } else if value > 180 { value -= 360 }
  return random.next() % 2 == 0 && value < 0 ? value + 360 : value
}

/// Checks every point against the brute-force oracle; every point must be inside. The scans
/// are split between two tasks: a 0.5° grid has 259,200 cells to scan per point.
private func expectExact(
  _ locator: RegularLatLonLocator, points: [(latitude: Double, longitude: Double)]
) async {
  let grid = locator.grid
  let oracle = BruteForce.Grid(latitudes: grid.latitudes, longitudes: grid.longitudes)
  let latitudes = points.map(\.latitude)
  let longitudes = points.map(\.longitude)
  let half = points.count / 2
  let results = await withTaskGroup(of: (outside: Int, mismatches: [String]).self) { group in
    for range in [0..<half, half..<points.count] {
      group.addTask {
        var outside = 0
        var mismatches: [String] = []
        for k in range {
          let (latitude, longitude) = (latitudes[k], longitudes[k])
          guard let cell = locator.nearestCell(latitude: latitude, longitude: longitude),
            let position = locator.position(latitude: latitude, longitude: longitude)
          else {
            outside += 1
            continue
          }
          let cellIndex = cell.j * grid.width + cell.i
          if position.i != cell.i || position.j != cell.j
            || !oracle.isNearest(cellIndex, latitude: latitude, longitude: longitude)
          {
            mismatches.append("(\(latitude), \(longitude)) → \(cell)")
          }
        }
        return (outside, mismatches)
      }
    }
    var all: [(outside: Int, mismatches: [String])] = []
    for await result in group { all.append(result) }
    return all
  }
  #expect(results.map(\.outside).reduce(0, +) == 0)
  let mismatches = results.flatMap(\.mismatches)
  #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
}

/// 8,000 points uniform on the sphere, 1,000 within 2° of the seam and 1,000 within 2° of
/// the poles (half at each), in both longitude conventions.
private func globalPoints(seam: Double, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
  var random = TestRandom(seed: seed)
  var points: [(latitude: Double, longitude: Double)] = []
  for _ in 0..<8_000 {
    let latitude = asin(random.uniform(-1...1)) * 180 / .pi
    points.append((latitude, convention(random.uniform(-180...180), &random)))
  }
  for _ in 0..<1_000 {
    let latitude = asin(random.uniform(-1...1)) * 180 / .pi
    points.append((latitude, convention(seam + random.uniform(-2...2), &random)))
  }
  for k in 0..<1_000 {
    let latitude = (k % 2 == 0 ? 1.0 : -1.0) * random.uniform(88...90)
    points.append((latitude, convention(random.uniform(-180...180), &random)))
  }
  return points
}

@Suite struct RegularLatLonLocatorTests {
  @Test func nearestCellEqualsBruteForceOnTheGFSSubset() async throws {
    let locator = try #require(RegularLatLonLocator(grid: try gfsGrid()))
    #expect(!locator.isGlobalInLongitude)
    var random = TestRandom(seed: 17)
    // Inside, edge band included: 19.5…65.5°N, 209.5…310.5°E.
    let points = (0..<10_000).map { _ in
      (latitude: random.uniform(19.55...65.45), longitude: convention(random.uniform(209.55...310.45), &random))
    }
    await expectExact(locator, points: points)
  }

  @Test func nearestCellEqualsBruteForceOnAGlobalOneDegreeGrid() async throws {
    let locator = try #require(RegularLatLonLocator(grid: try globalOneDegree()))
    #expect(locator.isGlobalInLongitude)
    await expectExact(locator, points: globalPoints(seam: 359.5, seed: 23))
  }

  @Test func nearestCellEqualsBruteForceOnAGlobalHalfDegreeGrid() async throws {
    let locator = try #require(RegularLatLonLocator(grid: try globalHalfDegree()))
    #expect(locator.isGlobalInLongitude)
    await expectExact(locator, points: globalPoints(seam: 179.75, seed: 29))
  }

  @Test func theNearestRowIsNotAlwaysTheNearestLatitude() throws {
    // Just equatorward of a mid-row latitude and almost half a column off a meridian, the
    // great-circle nearest cell is in the next row poleward: the parallel through the point
    // is not a great circle.
    let grid = try globalOneDegree()
    let locator = try #require(RegularLatLonLocator(grid: grid))
    let oracle = BruteForce.Grid(latitudes: grid.latitudes, longitudes: grid.longitudes)
    var poleward = 0
    for k in 1..<89 {
      for sign in [1.0, -1.0] {
        let latitude = sign * (Double(k) + 0.5 - 5e-5)
        let cell = try #require(locator.nearestCell(latitude: latitude, longitude: 10.49))
        #expect(oracle.isNearest(cell.j * grid.width + cell.i, latitude: latitude, longitude: 10.49))
        if abs(Double(grid.latitudes[cell.j * grid.width])) == Double(k + 1) { poleward += 1 }
      }
    }
    #expect(poleward > 100)
  }

  @Test func gridLocatorPicksTheRegularLocatorForLatLonGridsOnly() throws {
    for grid in [try gfsGrid(), try globalOneDegree(), try globalHalfDegree()] {
      let locator = try GridLocator(grid: grid)
      guard locator.kind == .regular else {
        Issue.record("a \(grid.width)×\(grid.height) lat/lon grid got the curvilinear locator")
        continue
      }
      #expect(locator.isGlobal == (grid.width != 101))
      #expect(locator.nearestCell(latitude: 40, longitude: -100) != nil)
    }
    let locator = try GridLocator(grid: try WRFFixture.grid(SampleFiles.allvars))
    guard locator.kind == .curvilinear else {
      Issue.record("the WRF Lambert grid got the regular locator")
      return
    }
    #expect(!locator.isGlobal)
    let grid = locator.grid
    let centre = grid.count / 2
    let cell = try #require(
      locator.nearestCell(latitude: Double(grid.latitudes[centre]), longitude: Double(grid.longitudes[centre])))
    #expect(cell.j * grid.width + cell.i == centre)
    // Mercator rows have one latitude each, but unevenly spaced: not a regular lattice.
    #expect(RegularLatLonLocator(grid: try WRFFixture.grid(SampleFiles.mercator)) == nil)
    // Global with uneven latitudes: not evenly spaced, but a lattice of monotonic rows.
    let uneven = try lattice(latitudes: [-60, 0, 10, 60], longitudes: (0..<8).map { Float($0 * 45) })
    #expect(RegularLatLonLocator(grid: uneven) == nil)
    #expect(try GridLocator(grid: uneven).kind == .regular)
    // Global and no lattice (a row of two latitudes): no locator can take it.
    var latitudes = uneven.latitudes
    latitudes[9] = 1
    let bent = try CurvilinearGrid(width: 8, height: 4, latitudes: latitudes, longitudes: uneven.longitudes)
    #expect(throws: GeometryError.self) { try GridLocator(grid: bent) }
  }

  @Test func gridsThatAreNotRegularLatticesAreRefused() throws {
    // A row whose latitude varies, and longitudes that are not evenly spaced.
    var latitudes: [Float] = [0, 0, 0, 1, 1, 1]
    let longitudes: [Float] = [10, 11, 12, 10, 11, 12]
    #expect(
      RegularLatLonLocator(grid: try CurvilinearGrid(width: 3, height: 2, latitudes: latitudes, longitudes: longitudes))
        != nil)
    latitudes[4] = 1.01
    #expect(
      RegularLatLonLocator(grid: try CurvilinearGrid(width: 3, height: 2, latitudes: latitudes, longitudes: longitudes))
        == nil)
    #expect(RegularLatLonLocator(grid: try lattice(latitudes: [0, 1], longitudes: [10, 11, 12.5])) == nil)
    #expect(RegularLatLonLocator(grid: try lattice(latitudes: [0, 1], longitudes: [10, 12, 11])) == nil)
    // Descending longitudes across the dateline are fine (monotonic modulo 360).
    let descending = try #require(
      RegularLatLonLocator(grid: try lattice(latitudes: [0, 1], longitudes: [-179, 180, 179])))
    #expect(descending.nearestCell(latitude: 0.2, longitude: 179.9)?.i == 1)
    #expect(descending.position(latitude: 0.5, longitude: -179.5).map { abs($0.x - 0.5) < 1e-9 } == true)
  }

  @Test func pointsBeyondTheEdgeBandOfARegionalGridAreOutside() throws {
    let locator = try #require(RegularLatLonLocator(grid: try gfsGrid()))
    var random = TestRandom(seed: 31)
    for _ in 0..<2_000 {
      let beyond = random.uniform(0.6...3)
      let (latitude, longitude): (Double, Double) =
        switch random.next() % 4 {
        case 0: (random.uniform(20...65), 210 - beyond)
        case 1: (random.uniform(20...65), 310 + beyond)
        case 2: (20 - beyond, random.uniform(210...310))
        default: (65 + beyond, random.uniform(210...310))
        }
      let lon = convention(longitude, &random)
      #expect(locator.nearestCell(latitude: latitude, longitude: lon) == nil)
      #expect(locator.position(latitude: latitude, longitude: lon) == nil)
    }
    // The far side of the globe, the poles and nonsense are outside too.
    #expect(locator.nearestCell(latitude: 40, longitude: 80) == nil)
    #expect(locator.nearestCell(latitude: 90, longitude: 260) == nil)
    #expect(locator.nearestCell(latitude: .nan, longitude: 260) == nil)
    #expect(locator.nearestCell(latitude: 40, longitude: .infinity) == nil)
    // Just inside the half-cell band.
    #expect(locator.nearestCell(latitude: 65.45, longitude: 209.55).map { $0 == (0, 0) } == true)
    #expect(locator.nearestCell(latitude: 19.55, longitude: -49.55).map { $0 == (100, 45) } == true)
  }

  @Test func aGlobalGridHasNoLongitudeOutsideAndAnswersAtThePoles() throws {
    for grid in [try globalOneDegree(), try globalHalfDegree()] {
      let locator = try #require(RegularLatLonLocator(grid: grid))
      var random = TestRandom(seed: 37)
      for _ in 0..<2_000 {
        let latitude = random.uniform(-90...90)
        let longitude = random.uniform(-360...360)
        #expect(locator.position(latitude: latitude, longitude: longitude) != nil)
      }
      let (northmost, southmost) = (grid.latitudes.max(), grid.latitudes.min())
      for longitude in stride(from: -360.0, through: 360, by: 7.5) {
        let north = try #require(locator.nearestCell(latitude: 90, longitude: longitude))
        let south = try #require(locator.nearestCell(latitude: -90, longitude: longitude))
        #expect(grid.latitudes[north.j * grid.width] == northmost)
        #expect(grid.latitudes[south.j * grid.width] == southmost)
      }
    }
    // Global in longitude but not reaching the poles: beyond the outer rows is outside.
    let band = try #require(
      RegularLatLonLocator(
        grid: try lattice(latitudes: (0...12).map { Float(60 - 10 * $0) }, longitudes: (0..<36).map { Float($0 * 10) }))
    )
    #expect(band.isGlobalInLongitude)
    #expect(band.nearestCell(latitude: 64.9, longitude: 355) != nil)
    #expect(band.nearestCell(latitude: 66, longitude: 355) == nil)
    #expect(band.nearestCell(latitude: -90, longitude: 0) == nil)
  }

  @Test func fractionalPositionIsExactAtNodesAndWrapsAcrossTheSeam() throws {
    let grid = try globalOneDegree()
    let locator = try #require(RegularLatLonLocator(grid: grid))
    for cell in stride(from: 0, to: grid.count, by: 113) {
      let position = try #require(
        locator.position(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell])))
      #expect(abs(position.x - Double(cell % grid.width)) < 1e-9 && abs(position.y - Double(cell / grid.width)) < 1e-9)
    }
    // Halfway between column 359 (359°) and column 0 (0°), from either convention.
    for longitude in [359.5, -0.5] {
      let position = try #require(locator.position(latitude: 10.25, longitude: longitude))
      #expect(abs(position.x - 359.5) < 1e-9 && abs(position.y - 79.75) < 1e-9)
      let stencil = BilinearStencil(position: position, width: grid.width, height: grid.height, wrapsLongitude: true)
      #expect(stencil.southWest == 79 * 360 + 359 && stencil.eastStep == -359 && stencil.northStep == 360)
      #expect(abs(stencil.fx - 0.5) < 1e-9 && abs(stencil.fy - 0.75) < 1e-9)
      let value = try #require(stencil.interpolate { Double($0 % 360) })
      #expect(abs(value - 179.5) < 1e-9)
    }
    let position = try #require(locator.position(latitude: 0, longitude: 0.25))
    #expect(abs(position.x - 0.25) < 1e-9 && position.i == 0 && position.j == 90)
    // A position that does not wrap keeps the old stencil: east is the next cell.
    let plain = BilinearStencil(position: GridPosition(i: 3, j: 2, x: 3.5, y: 2), width: 10, height: 5)
    #expect(plain.eastStep == 1 && plain.southWest == 23 && plain.fx == 0.5 && plain.fy == 0)
  }
}
