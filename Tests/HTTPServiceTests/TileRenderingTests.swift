import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

@testable import MapTiles

/// The renderer's shortcut against brute force: tiles drawn with the nearest cell sampled
/// every 8 pixels along a row (and filled between equal samples) are pixel for pixel the
/// tiles drawn with every pixel located.
@Suite struct TileRenderingTests {
  @Test func sampledRowsDrawWhatLocatingEveryPixelDraws() throws {
    let cube = try #require(TileEndpointTests.cube)
    let bounds = DomainBounds(cube)
    let time = try #require(UTC.seconds(year: 2026, month: 6, day: 20, hour: 15, minute: 0))
    var sampled = TileRenderer(stride: 8)
    var exact = TileRenderer(stride: 1)
    var drawn = 0
    for zoom in 7...10 {
      let northWest = WebMercator.worldPixel(latitude: bounds.north, longitude: bounds.west, zoom: zoom)
      let southEast = WebMercator.worldPixel(latitude: bounds.south, longitude: bounds.east, zoom: zoom)
      let columns = Array(Int(northWest.column / 256)...Int(southEast.column / 256))
      let rows = Array(Int(northWest.row / 256)...Int(southEast.row / 256))
      // Every tile at zoom 7 (the edges included), a spread of them above.
      let step = max(1, columns.count * rows.count / 12)
      var index = 0
      for x in columns {
        for y in rows {
          defer { index += 1 }
          guard index % step == 0 else { continue }
          let tile = try TileAddress(z: zoom, x: x, y: y)
          for layer in [TileLayer.metric(.temp), .land] {
            sampled.render(layer, time: time, tile: tile, cubes: [cube])
            exact.render(layer, time: time, tile: tile, cubes: [cube])
            let differing = zip(sampled.pixels, exact.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "tile \(tile) \(layer): \(differing) pixels differ")
            drawn += 1
          }
        }
      }
    }
    #expect(drawn >= 40)
  }

  /// Two runs covering one time: the newer answers every pixel it contains, through the
  /// several-grid search, so the tile is the newer run's alone and not the older's.
  @Test func theNewestRunCoveringTheTimeAnswersEachPixel() throws {
    let store = SampleFiles.temporaryDirectory("tiles-runs")
    defer { SampleFiles.remove(store) }
    try TestStores.publish(TestStores.spec(start: "2026-06-20_00:00:00", hours: 12, seed: 1), into: store)
    try TestStores.publish(TestStores.spec(start: "2026-06-20_06:00:00", hours: 12, seed: 2), into: store)
    let catalog = try ForecastStore(path: store).catalog
    let (newer, older) = (catalog.cubes[0], catalog.cubes[1])
    #expect(newer.run == "2026062006" && older.run == "2026062000")
    let bounds = DomainBounds(newer)
    let centre = WebMercator.worldPixel(
      latitude: (bounds.south + bounds.north) / 2, longitude: (bounds.west + bounds.east) / 2, zoom: 6)
    let plan = try TileService().plan(
      layer: "temp", time: "2026-06-20T09:00Z", z: "6", x: Substring(String(Int(centre.column / 256))),
      y: Substring(String(Int(centre.row / 256))), catalog: catalog)
    #expect(plan.cubes.count == 2)
    var renderer = TileRenderer()
    renderer.render(plan.layer, time: plan.time, tile: plan.tile, cubes: plan.cubes)
    let both = renderer.pixels
    renderer.render(plan.layer, time: plan.time, tile: plan.tile, cubes: [newer])
    #expect(both == renderer.pixels)
    #expect(both.contains { $0 != 0 })
    renderer.render(plan.layer, time: plan.time, tile: plan.tile, cubes: [older])
    #expect(both != renderer.pixels)
  }
}
