import Foundation
import GridGeometry
import Testing
import _TestSupport

/// A lattice on Gaussian latitudes, as GRIB `regular_gg` and Gaussian CF grids have: the
/// latitudes as ecCodes computes them (`codes_get_gaussian_latitudes`, not this package's
/// code), `width` columns `increment` degrees apart from `firstLongitude`.
private func gaussian(
  rows: [Double], width: Int, firstLongitude: Double = 0, increment: Double? = nil
) throws -> CurvilinearGrid {
  let step = increment ?? 360 / Double(width)
  let longitudes = (0..<width).map { Float(firstLongitude + step * Double($0)) }
  return try CurvilinearGrid(
    width: width, height: rows.count,
    latitudes: rows.flatMap { latitude in [Float](repeating: Float(latitude), count: width) },
    longitudes: rows.flatMap { _ in longitudes })
}

/// A longitude in a randomly chosen convention (−180…180 or 0…360) where both can hold it.
private func convention(_ longitude: Double, _ random: inout TestRandom) -> Double {
  var value = longitude.truncatingRemainder(dividingBy: 360)
  if value < -180 { value += 360 } else if value > 180 { value -= 360 }
  return random.next() % 2 == 0 && value < 0 ? value + 360 : value
}

/// Points a Gaussian lattice's locator can get wrong: uniform on the sphere; within 2° of
/// the seam (0°/360°) and of 180°/−180°, in both conventions; poleward of the outermost
/// rows up to the poles and the poles themselves; exactly halfway between every pair of
/// rows, on a column, halfway between columns and at random longitudes. `scale` multiplies
/// the counts.
private func hardPoints(_ grid: CurvilinearGrid, scale: Int, seed: UInt64) -> [(latitude: Double, longitude: Double)] {
  var random = TestRandom(seed: seed)
  var points: [(latitude: Double, longitude: Double)] = []
  for _ in 0..<(1_000 * scale) {
    points.append((asin(random.uniform(-1...1)) * 180 / .pi, convention(random.uniform(-180...180), &random)))
  }
  for seam in [0.0, 180] {
    for _ in 0..<(150 * scale) {
      let longitude = seam + random.uniform(-2...2)
      points.append((asin(random.uniform(-1...1)) * 180 / .pi, convention(longitude, &random)))
    }
    points += [(10, seam), (-10, seam - 360), (45, seam == 0 ? 360 : -180)]
  }
  let rows = (0..<grid.height).map { Double(grid.latitudes[$0 * grid.width]) }
  let outermost = rows.map(abs).max() ?? 90
  for k in 0..<(200 * scale) {
    let latitude = (k % 2 == 0 ? 1.0 : -1.0) * random.uniform((outermost - 1)...90)
    points.append((latitude, convention(random.uniform(-180...180), &random)))
  }
  for longitude in stride(from: -180.0, through: 360, by: 45) { points += [(90, longitude), (-90, longitude)] }
  let column = Double(grid.longitudes[1] - grid.longitudes[0])
  for (above, below) in zip(rows, rows.dropFirst()) {
    let halfway = (above + below) / 2
    let i = Double(random.next() % UInt64(grid.width))
    let onColumn = Double(grid.longitudes[0]) + i * column
    points += [
      (halfway, convention(onColumn, &random)), (halfway, convention(onColumn + column / 2, &random)),
      (halfway, convention(random.uniform(-180...180), &random)),
    ]
  }
  return points
}

/// Checks each point against the brute-force oracle over every cell, split between two
/// tasks; every point must be inside. Returns the mismatches.
private func mismatches(
  _ locator: RegularLatLonLocator, points: [(latitude: Double, longitude: Double)]
) async -> (outside: [String], wrong: [String]) {
  let grid = locator.grid
  let oracle = BruteForce.Grid(latitudes: grid.latitudes, longitudes: grid.longitudes)
  let half = points.count / 2
  let results = await withTaskGroup(of: (outside: [String], wrong: [String]).self) { group in
    for range in [0..<half, half..<points.count] {
      group.addTask {
        var (outside, wrong): ([String], [String]) = ([], [])
        for point in points[range] {
          guard let cell = locator.nearestCell(latitude: point.latitude, longitude: point.longitude),
            let position = locator.position(latitude: point.latitude, longitude: point.longitude)
          else {
            outside.append("\(point)")
            continue
          }
          let index = cell.j * grid.width + cell.i
          if position.i != cell.i || position.j != cell.j
            || !oracle.isNearest(index, latitude: point.latitude, longitude: point.longitude)
          {
            wrong.append(
              "\(point) → \(cell), oracle \(oracle.nearest(latitude: point.latitude, longitude: point.longitude))")
          }
        }
        return (outside, wrong)
      }
    }
    var all: (outside: [String], wrong: [String]) = ([], [])
    for await result in group {
      all.outside += result.outside
      all.wrong += result.wrong
    }
    return all
  }
  return results
}

@Suite struct GaussianLatticeLocatorTests {
  /// N32 (128 × 64): north to south as GRIB writes it, south to north, and with the
  /// columns from −180°.
  static let n32Cases: [(name: String, southToNorth: Bool, firstLongitude: Double)] = [
    ("north to south from 0°", false, 0), ("south to north from 0°", true, 0),
    ("north to south from −180°", false, -180), ("south to north from −180°", true, -180),
  ]

  @Test(arguments: n32Cases.indices)
  func nearestCellOnAGlobalN32GridEqualsBruteForce(_ index: Int) async throws {
    let (name, southToNorth, firstLongitude) = Self.n32Cases[index]
    let rows = try GRIBWriter.gaussianLatitudes(32)
    let grid = try gaussian(rows: southToNorth ? rows.reversed() : rows, width: 128, firstLongitude: firstLongitude)
    let locator = try #require(RegularLatLonLocator(grid: grid, rows: .monotonic), "\(name)")
    #expect(locator.isGlobalInLongitude && !locator.rowsAreEvenlySpaced)
    let points = hardPoints(grid, scale: 2, seed: UInt64(index) + 41)
    #expect(points.count > 3_000)
    let found = await mismatches(locator, points: points)
    #expect(found.outside.isEmpty, "\(name): outside: \(found.outside.prefix(5))")
    #expect(found.wrong.isEmpty, "\(name): \(found.wrong.count) wrong: \(found.wrong.prefix(5))")
  }

  /// N640, IFS's and ERA5's Gaussian grid (2,560 × 1,280, 3.3 million cells): the rows
  /// are found by a binary search of 11 steps; a few hundred points against every cell.
  @Test(.timeLimit(.minutes(5)))
  func nearestCellOnTheN640GridEqualsBruteForce() async throws {
    let rows = try GRIBWriter.gaussianLatitudes(640)
    let grid = try gaussian(rows: rows, width: 2_560)
    let locator = try #require(RegularLatLonLocator(grid: grid, rows: .monotonic))
    // Every eleventh of the hard points (about 550), each kind among them.
    let hard = hardPoints(grid, scale: 1, seed: 43)
    var points = stride(from: 0, to: hard.count, by: 11).map { hard[$0] }
    // The outermost rows and the cap beyond them, where rows are least evenly spaced.
    var random = TestRandom(seed: 47)
    for _ in 0..<100 {
      points.append((random.uniform(89...90) * (random.next() % 2 == 0 ? 1 : -1), random.uniform(-180...360)))
    }
    let found = await mismatches(locator, points: points)
    #expect(found.outside.isEmpty, "outside: \(found.outside.prefix(5))")
    #expect(found.wrong.isEmpty, "\(found.wrong.count) wrong: \(found.wrong.prefix(5))")
  }

  /// Rows 40…99 of N80's 160 (about 40° N to 36° S) and 60 columns of 1.125° from −10°
  /// (across Greenwich): inside, edge band included, every answer is the nearest cell;
  /// beyond half the spacing next to the outermost rows and columns, none is.
  @Test func aRegionalGaussianSubGridIsExactInsideAndRefusesPointsBeyondItsEdges() throws {
    let all = try GRIBWriter.gaussianLatitudes(80)
    let rows = Array(all[40..<100])
    let grid = try gaussian(rows: rows, width: 60, firstLongitude: -10, increment: 1.125)
    let locator = try #require(RegularLatLonLocator(grid: grid, rows: .monotonic))
    #expect(!locator.isGlobalInLongitude)
    let wrong = BruteForce.wrongAnswers(on: grid, count: 4_000, seed: 53) { latitude, longitude in
      locator.nearestCell(latitude: latitude, longitude: longitude).map { $0.j * grid.width + $0.i }
    }
    #expect(wrong == 0)
    let (north, south) = (rows[0], rows[rows.count - 1])
    let northGap = (rows[0] - rows[1]) / 2
    let southGap = (rows[rows.count - 2] - rows[rows.count - 1]) / 2
    let (west, east) = (-10 - 1.125 / 2, -10 + 59 * 1.125 + 1.125 / 2)
    #expect(locator.nearestCell(latitude: north + northGap * 0.98, longitude: 0) != nil)
    #expect(locator.nearestCell(latitude: north + northGap * 1.02, longitude: 0) == nil)
    #expect(locator.nearestCell(latitude: south - southGap * 0.98, longitude: 10) != nil)
    #expect(locator.nearestCell(latitude: south - southGap * 1.02, longitude: 10) == nil)
    #expect(locator.nearestCell(latitude: 0, longitude: west + 0.01) != nil)
    #expect(locator.nearestCell(latitude: 0, longitude: west - 0.01 + 360) == nil)
    #expect(locator.nearestCell(latitude: 0, longitude: east - 0.01 - 360) != nil)
    #expect(locator.nearestCell(latitude: 0, longitude: east + 0.01) == nil)
    #expect(locator.nearestCell(latitude: 90, longitude: 0) == nil)
    #expect(locator.nearestCell(latitude: 0, longitude: 180) == nil)
  }

  /// The bilinear cell is the one between the two rows around the point's latitude and
  /// the two columns around its longitude, with the weights of the definition; at a node
  /// the position is the node.
  @Test(arguments: [false, true])
  func positionsPutThePointBetweenItsRowsAndColumns(_ southToNorth: Bool) throws {
    let gaussianRows = try GRIBWriter.gaussianLatitudes(48)
    let rows = southToNorth ? Array(gaussianRows.reversed()) : gaussianRows
    let grid = try gaussian(rows: rows, width: 192)
    let locator = try #require(RegularLatLonLocator(grid: grid, rows: .monotonic))
    let stored = rows.map { Double(Float($0)) }
    var random = TestRandom(seed: 59)
    for _ in 0..<5_000 {
      // Between the outermost rows, where a bilinear cell has rows on both sides.
      let latitude = random.uniform(min(stored[0], stored[95])...max(stored[0], stored[95]))
      let longitude = random.uniform(-180...360)
      let position = try #require(locator.position(latitude: latitude, longitude: longitude))
      let stencil = BilinearStencil(position: position, width: grid.width, height: grid.height, wrapsLongitude: true)
      let (j0, i0) = (stencil.southWest / grid.width, stencil.southWest % grid.width)
      // The rows around the latitude, found by scanning them all.
      let below = try #require(
        (0..<95).first { k in min(stored[k], stored[k + 1]) <= latitude && latitude <= max(stored[k], stored[k + 1]) })
      #expect(j0 == below, "\(latitude)")
      let expectedFy = (latitude - stored[below]) / (stored[below + 1] - stored[below])
      #expect(abs(stencil.fy - expectedFy) < 1e-9)
      var east = longitude.truncatingRemainder(dividingBy: 360)
      if east < 0 { east += 360 }
      #expect(i0 == Int(east / 1.875) % 192 && abs(stencil.fx - (east / 1.875 - Double(Int(east / 1.875)))) < 1e-6)
    }
    for cell in stride(from: 0, to: grid.count, by: 37) {
      let node = try #require(
        locator.position(latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell])))
      #expect(abs(node.x - Double(cell % grid.width)) < 1e-9 && abs(node.y - Double(cell / grid.width)) < 1e-9)
      #expect(node.i == cell % grid.width && node.j == cell / grid.width)
    }
  }

  /// A global Gaussian grid has no outside: every latitude and longitude is answered, and
  /// a pole goes to the outermost row on its side, which is about ¾ of a row's spacing
  /// from it (more than the half a spacing an evenly spaced grid reaches).
  @Test func aGlobalGaussianGridAnswersEverywhereAndThePolesGoToTheOutermostRows() throws {
    let rows = try GRIBWriter.gaussianLatitudes(32)
    for ordered in [rows, rows.reversed()] {
      let grid = try gaussian(rows: ordered, width: 128)
      let locator = try #require(RegularLatLonLocator(grid: grid, rows: .monotonic))
      var random = TestRandom(seed: 61)
      for _ in 0..<2_000 {
        #expect(locator.position(latitude: random.uniform(-90...90), longitude: random.uniform(-360...360)) != nil)
      }
      for longitude in stride(from: -360.0, through: 360, by: 7.5) {
        let north = try #require(locator.nearestCell(latitude: 90, longitude: longitude))
        let south = try #require(locator.nearestCell(latitude: -90, longitude: longitude))
        #expect(Double(grid.latitudes[north.j * grid.width]) == Double(Float(rows[0])))
        #expect(Double(grid.latitudes[south.j * grid.width]) == Double(Float(rows[63])))
      }
      #expect(locator.nearestCell(latitude: .nan, longitude: 0) == nil)
      #expect(locator.nearestCell(latitude: 90.001, longitude: 0) == nil)
    }
  }

  /// `GridLocator` takes the lattice for a Gaussian grid, with or without a projection
  /// that does not hold; its index says lattice and rebuilds from the axes alone, with
  /// the same answers. An evenly spaced lattice is still asked for by default, so that
  /// nothing records a Gaussian grid as MAP_PROJ 6.
  @Test func aGaussianGridGetsTheLatticeLocatorAndItsIndex() throws {
    let grid = try gaussian(rows: try GRIBWriter.gaussianLatitudes(24), width: 96)
    #expect(RegularLatLonLocator(grid: grid) == nil)
    let cylindrical = try MapProjection(
      kind: .latitudeLongitude, truelat1: 0, truelat2: 0, standardLongitude: 0, poleLatitude: 90,
      gridSpacing: 6_370_000 * 3.75 * .pi / 180, origin: (Double(grid.latitudes[0]), 0))
    var rejections: [GeometryError] = []
    for projection in [nil, cylindrical] {
      let locator = try GridLocator(grid: grid, projection: projection) { rejections.append($0) }
      #expect(locator.kind == .regular && locator.isGlobal)
    }
    #expect(rejections.count == 1)
    let checked = try GridLocator(grid: grid)
    let bytes = try #require(LocatorIndex(checked)?.encoded)
    let index = try bytes.withUnsafeBytes { try LocatorIndex(decoding: $0, width: 96, height: 48) }
    #expect(index.kind == .lattice)
    let trusted = try #require(GridLocator(grid: grid, index: index, projection: nil))
    let lattice = try #require(trusted.regular)
    // The axes only: four passes over rows and columns and the monotonic check of the rows.
    #expect(lattice.buildWork == 4 * (96 + 48) + 48)
    var random = TestRandom(seed: 67)
    for _ in 0..<2_000 {
      let (latitude, longitude) = (random.uniform(-90...90), random.uniform(-360...360))
      let a = try #require(checked.position(latitude: latitude, longitude: longitude))
      let b = try #require(trusted.position(latitude: latitude, longitude: longitude))
      #expect(a == b)
    }
  }

  /// Rows that are not strictly monotonic are no lattice: a binary search over them would
  /// have no single answer.
  @Test func rowsThatAreNotStrictlyMonotonicAreRefused() throws {
    let longitudes = (0..<8).map { Double($0) * 45 }
    for rows in [[-60.0, 10, 0, 60], [-60, 0, 0, 60], [60, 10, 20, -60]] {
      let grid = try gaussian(rows: rows, width: longitudes.count)
      #expect(RegularLatLonLocator(grid: grid, rows: .monotonic) == nil, "\(rows)")
      #expect(RegularLatLonLocator(trustingAxesOf: grid) == nil, "\(rows)")
    }
    let uneven = try gaussian(rows: [-60, 0, 10, 60], width: 8)
    #expect(RegularLatLonLocator(grid: uneven) == nil)
    #expect(RegularLatLonLocator(grid: uneven, rows: .monotonic) != nil)
  }
}
