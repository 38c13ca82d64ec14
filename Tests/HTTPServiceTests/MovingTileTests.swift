import CubeFormat
import Foundation
import Meteorology
import PointQuery
import Store
import Testing
import _TestSupport

@testable import MapTiles

/// Tiles of a moving nest over its fixed parent (`MovingStore`), against a brute force: each
/// pixel's colour is that of the value at the great-circle nearest mass point of the step's
/// position of the finest domain containing the pixel's centre at that step.
@Suite struct MovingTileTests {
  static let store = MovingService.store

  /// One grid of `MovingStore` as the oracle sees it: its cell coordinates and the box its
  /// cells cover (half a spacing beyond the outer centres, the extent of a regular grid's
  /// cells).
  struct Oracle {
    let grid: BruteForce.Grid
    let south, west, north, east: Double

    init(_ grid: MovingStore.Grid) {
      let latitudes = grid.latitudes
      let longitudes = grid.longitudes
      self.grid = BruteForce.Grid(latitudes: latitudes, longitudes: longitudes)
      let half = grid.spacing / 2
      south = Double(latitudes.min() ?? 0) - half
      north = Double(latitudes.max() ?? 0) + half
      west = Double(longitudes.min() ?? 0) - half
      east = Double(longitudes.max() ?? 0) + half
    }

    /// Whether the point is inside, or nil when it is within a hair of the edge, where
    /// rounding may decide either way.
    func contains(_ latitude: Double, _ longitude: Double) -> Bool? {
      let margin = 1e-7
      let distances = [latitude - south, north - latitude, longitude - west, east - longitude]
      if distances.contains(where: { abs($0) < margin }) { return nil }
      return distances.allSatisfy { $0 > 0 }
    }

    /// The nearest cell, and with `ties` every other within a millimetre of it as far.
    func nearest(_ latitude: Double, _ longitude: Double, ties: Bool) -> [Int] {
      let best = grid.nearest(latitude: latitude, longitude: longitude)
      guard ties else { return [best] }
      let distance = { (cell: Int) in
        BruteForce.distance(
          latitude: latitude, longitude: longitude, cellLatitude: grid.latitudes[cell],
          cellLongitude: grid.longitudes[cell])
      }
      let bestDistance = distance(best)
      return [best] + grid.latitudes.indices.filter { $0 != best && abs(distance($0) - bestDistance) < 1e-3 }
    }
  }

  /// The oracle of each grid: the parent's, and the nest's at each position.
  static let parentOracle = Oracle(MovingStore.parent)
  static let nestOracles = MovingStore.shifts.indices.map { Oracle(MovingStore.nest(position: $0)) }

  /// The colours a pixel at the point may have at `time` (several only for a tie between
  /// two cells); [0] where no domain holds it or the value is missing.
  static func expectedColours(
    _ latitude: Double, _ longitude: Double, time: Int64, metric: Metric, cubes: [Cube], ties: Bool = false
  ) -> Set<UInt32>? {
    let slot = metric == .temp ? 0 : 1
    let scale = ColourScale.scale(for: metric)
    let elapsed = time - MovingStore.firstTime
    let step = Int(elapsed / 3_600)
    let between = elapsed % 3_600 != 0
    // The steps the value reads: an instant both around it, an amount the later one.
    let steps = !between ? [step] : metric.temporal == .instant ? [step, step + 1] : [step + 1]
    // The nest first (it is the finer), then the parent.
    for cube in cubes {
      func grid(_ step: Int) -> Oracle {
        cube.header.domain == "d02" ? nestOracles[MovingStore.stepPositions[step]] : parentOracle
      }
      let grids = steps.map(grid)
      // The nest must also have held the pixel an hour before the first step read: on its
      // leading edge it has no hourly amounts, and the parent draws there, as for points.
      let held = [max(steps[0] - 1, 0)] + steps
      let inside = held.map { grid($0).contains(latitude, longitude) }
      if inside.contains(where: { $0 == nil }) { return nil }
      guard inside.allSatisfy({ $0 == true }) else { continue }
      let definition = cube.header.metrics[slot]
      // Every combination of tied cells, read straight from the file's words.
      var values: [[Double?]] = [[]]
      for (grid, step) in zip(grids, steps) {
        let read = grid.nearest(latitude, longitude, ties: ties).map { cell in
          definition.decode(cube.file.word(metric: slot, cell: cell, step: step))
        }
        values = values.flatMap { prefix in read.map { prefix + [$0] } }
      }
      return Set(
        values.map { read in
          guard read.allSatisfy({ $0 != nil }) else { return 0 }
          let value = read.count == 1 ? read[0]! : read[0]! + (read[1]! - read[0]!) * 0.5
          return scale.colour(value).packed
        })
    }
    return [0]
  }

  /// The zoom-8 tiles over every position of the nest.
  static func tiles() throws -> [TileAddress] {
    var tiles: [TileAddress] = []
    let corners = (0..<MovingStore.shifts.count).map(MovingStore.nest(position:)).flatMap { grid in
      [(grid.south, grid.west), (grid.south + 0.6, grid.west + 0.8)]
    }
    let pixels = corners.map { WebMercator.worldPixel(latitude: $0.0, longitude: $0.1, zoom: 8) }
    let columns = Int(pixels.map(\.column).min()! / 256)...Int(pixels.map(\.column).max()! / 256)
    let rows = Int(pixels.map(\.row).min()! / 256)...Int(pixels.map(\.row).max()! / 256)
    for x in columns { for y in rows { tiles.append(try TileAddress(z: 8, x: x, y: y)) } }
    return tiles
  }

  /// Every step, and half past the steps where the nest moves (an instant there reads two
  /// positions, an amount the later one), for temperature and rain.
  @Test func eachPixelIsTheNearestCellOfTheFinestDomainAtTheStepsPosition() throws {
    let store = try #require(Self.store, "the moving store could not be written")
    let catalog = try ForecastStore(path: store).catalog
    #expect(catalog.cubes.map(\.header.domain) == ["d02", "d01"])
    let nest = try #require(catalog.cubes.first)
    #expect(nest.isMoving && nest.positionCount == MovingStore.shifts.count)
    // Temperature at every step; both metrics at each step the nest moves at and half an
    // hour before it.
    var cases = (0..<MovingStore.steps).map { (MovingStore.firstTime + Int64($0) * 3_600, [Metric.temp]) }
    for step in 1..<MovingStore.steps where MovingStore.stepPositions[step] != MovingStore.stepPositions[step - 1] {
      cases[step].1.append(.rain)
      cases.append((MovingStore.firstTime + Int64(step - 1) * 3_600 + 1_800, [.temp, .rain]))
    }
    var renderer = TileRenderer()
    var (checked, nestPixels, skipped) = (0, 0, 0)
    for tile in try Self.tiles() {
      for (time, metrics) in cases {
        for metric in metrics {
          renderer.render(.metric(metric), time: time, tile: tile, cubes: catalog.cubes)
          var wrong: [String] = []
          for row in 0..<256 {
            let latitude = WebMercator.latitude(worldPixelRow: Double(tile.y * 256 + row) + 0.5, zoom: 8)
            for column in 0..<256 {
              let longitude = WebMercator.longitude(worldPixelColumn: Double(tile.x * 256 + column) + 0.5, zoom: 8)
              guard
                let expected = Self.expectedColours(
                  latitude, longitude, time: time, metric: metric, cubes: catalog.cubes)
              else {
                skipped += 1
                continue
              }
              checked += 1
              let found = renderer.pixels[row * 256 + column]
              // A tie between two cells may answer either: looked for only when needed.
              if !expected.contains(found),
                Self.expectedColours(
                  latitude, longitude, time: time, metric: metric, cubes: catalog.cubes, ties: true)?.contains(found)
                  != true, wrong.count < 5
              {
                wrong.append("(\(row), \(column)) at \(latitude), \(longitude): \(found) not in \(expected)")
              }
              if metric == .temp, time % 3_600 == 0,
                Self.nestOracles[MovingStore.stepPositions[Int((time - MovingStore.firstTime) / 3_600)]]
                  .contains(latitude, longitude) == true
              {
                nestPixels += 1
              }
            }
          }
          #expect(wrong.isEmpty, "tile \(tile) \(metric.name) at \(time): \(wrong.joined(separator: "; "))")
        }
      }
    }
    #expect(checked > 500_000 && nestPixels > 50_000 && skipped < checked / 100)
  }

  /// The land layer takes each cube's mask at the position of the step holding the time.
  /// The nest's mask puts the coast at 9° W, the parent's at 9.3° W, so a pixel between
  /// them is land inside the nest's position at that step and sea outside it.
  @Test func theLandLayerFollowsTheNest() throws {
    let store = try #require(Self.store)
    let catalog = try ForecastStore(path: store).catalog
    var renderer = TileRenderer()
    var (inNest, outside) = (0, 0)
    for tile in try Self.tiles() {
      for step in 0..<MovingStore.steps {
        // Half an hour on: the land layer takes the step holding the time.
        renderer.render(
          .land, time: MovingStore.firstTime + Int64(step) * 3_600 + 1_800, tile: tile, cubes: catalog.cubes)
        let nest = Self.nestOracles[MovingStore.stepPositions[step]]
        let margin = 2 * MovingStore.nestSpacing
        for row in 0..<256 {
          let latitude = WebMercator.latitude(worldPixelRow: Double(tile.y * 256 + row) + 0.5, zoom: 8)
          for column in 0..<256 {
            let longitude = WebMercator.longitude(worldPixelColumn: Double(tile.x * 256 + column) + 0.5, zoom: 8)
            // Between the two coasts, away from them and from the nest's edge.
            guard longitude > -9.3 + margin + 0.05, longitude < -9 - margin,
              latitude > MovingStore.parent.south + 0.1, latitude < MovingStore.parent.south + 2.8
            else { continue }
            let deep =
              latitude > nest.south + margin && latitude < nest.north - margin && longitude > nest.west + margin
              && longitude < nest.east - margin
            let far =
              latitude < nest.south - margin || latitude > nest.north + margin || longitude < nest.west - margin
              || longitude > nest.east + margin
            guard deep || far else { continue }
            let colour = renderer.pixels[row * 256 + column]
            let expected = deep ? LandColours.sea.packed : LandColours.land.packed
            #expect(
              colour == expected, "step \(step) at \(latitude), \(longitude): \(deep ? "inside" : "outside") the nest")
            if colour != expected { return }
            if deep { inNest += 1 } else { outside += 1 }
          }
        }
      }
    }
    #expect(inNest > 10_000 && outside > 10_000, "\(inNest) pixels inside the nest, \(outside) outside")
  }
}
