import PointQuery
import Store
import Testing
import UTCTime

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
}
