import ForecastOutput
import Foundation
import MapTiles
import PointQuery
import SampleRun
import Store
import UTCTime

extension BenchCommand {
  /// The layers the tiles kind draws, in turn.
  static let tileLayers = ["temp", "rain", "wind_vel", "cloud", "atm_press", "land"]
  /// The zooms it times.
  static let tileZooms = 7...10

  /// Per-tile timings at each zoom, as a tile request is answered but for HTTP: the request
  /// planned against the store (cubes, ETag), the tile rendered and PNG-encoded.
  struct TileTiming {
    let zoom: Int
    let tiles: Int
    let candidates: Int
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let meanBytes: Double
  }

  /// Times `count` tiles per zoom over the domain of `cube`: each drawn at random among the
  /// zoom's tiles that overlap the domain, with a random layer and a random step of the run.
  func benchTiles(_ store: ForecastStore, cube: Cube, count: Int, random: inout SplitMix64) throws -> [TileTiming] {
    let service = TileService()
    let catalog = store.catalog
    let bounds = DomainBounds(cube)
    var timings: [TileTiming] = []
    var sink = 0
    for zoom in Self.tileZooms {
      let north = WebMercator.worldPixel(latitude: bounds.north, longitude: bounds.west, zoom: zoom)
      let south = WebMercator.worldPixel(latitude: bounds.south, longitude: bounds.east, zoom: zoom)
      let size = Double(WebMercator.tileSize)
      let columns = Int(north.column / size)...Int(south.column / size)
      let rows = Int(north.row / size)...Int(south.row / size)
      let addresses = columns.flatMap { x in rows.map { y in (x, y) } }
      let drawn = (0..<count).map { _ in
        (
          addresses[Int(random.next() % UInt64(addresses.count))],
          Self.tileLayers[Int(random.next() % UInt64(Self.tileLayers.count))],
          TileService.timeText(cube.time(ofStep: Int(random.next() % UInt64(cube.stepCount))))
        )
      }
      func one(_ index: Int) throws -> Int {
        let ((x, y), layer, time) = drawn[index]
        let plan = try service.plan(
          layer: layer, time: time, z: Substring(String(zoom)), x: Substring(String(x)), y: Substring(String(y)),
          catalog: catalog)
        return try service.png(plan).count
      }
      // Untimed, to warm the caches and the renderer pool.
      for index in 0..<min(count, 20) { sink &+= try one(index) }
      var times: [Double] = []
      var bytes = 0
      for index in 0..<count {
        let start = now()
        let size = try one(index)
        times.append(Double(now() - start))
        bytes += size
      }
      sink &+= bytes
      times.sort()
      func percentile(_ p: Int) -> Double { times[min(times.count - 1, times.count * p / 100)] }
      timings.append(
        TileTiming(
          zoom: zoom, tiles: count, candidates: addresses.count, p50: percentile(50), p90: percentile(90),
          p99: percentile(99), max: times[times.count - 1], meanBytes: Double(bytes) / Double(count)))
    }
    if sink == 42 { print(sink) }  // keeps the work
    return timings
  }

  /// The tiles table, in milliseconds.
  func printTiles(_ timings: [TileTiming], cube: Cube) {
    let h = cube.header
    print(
      "tiles: 256×256 PNG, plan + render + encode, one at a time, on \(h.model)/\(h.domain) run \(cube.run) "
        + "(\(h.width)×\(h.height) cells); layers \(Self.tileLayers.joined(separator: ", ")) in random turn")
    print("zoom  tiles  domain-tiles  p50 ms  p90 ms  p99 ms  max ms  mean bytes")
    for t in timings {
      let cells = [
        String(t.zoom).padded(5), String(t.tiles).padded(6), String(t.candidates).padded(13),
        milliseconds(t.p50), milliseconds(t.p90), milliseconds(t.p99), milliseconds(t.max),
        String(Int(t.meanBytes.rounded())),
      ]
      print(cells.joined(separator: " "))
    }
  }

  /// The tiles timings as JSON members, `tiles_z7` …
  func tilesJSON(_ timings: [TileTiming]) -> [(String, String)] {
    timings.map { t in
      (
        "tiles_z\(t.zoom)",
        JSONText.object([
          ("p50_ns", JSONText.number(t.p50, decimals: 0)), ("p90_ns", JSONText.number(t.p90, decimals: 0)),
          ("p99_ns", JSONText.number(t.p99, decimals: 0)), ("max_ns", JSONText.number(t.max, decimals: 0)),
          ("tiles", String(t.tiles)), ("mean_bytes", JSONText.number(t.meanBytes, decimals: 0)),
        ])
      )
    }
  }

  private func milliseconds(_ nanoseconds: Double) -> String {
    String(format: "%.2f", nanoseconds / 1e6).padded(7)
  }
}
