import FaceKit
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

  /// The PNG settings compared by the tiles kind: the one used first, then alternatives.
  static let encodings: [(name: String, level: Int32, filter: Int32)] = [
    ("level 1, Up (used)", PNGEncoder.level, PNGEncoder.filter), ("level 6, Up", 6, PNGEncoder.filter),
    ("level 1, adaptive", 1, PNGEncoder.adaptiveFilter), ("level 6, adaptive", 6, PNGEncoder.adaptiveFilter),
  ]

  /// Encoding alone, per setting of `encodings`, on `count` zoom-8 tiles rendered first: the
  /// settings take turns on each tile, so that the machine's noise falls on all of them.
  func benchEncodings(
    _ store: ForecastStore, cube: Cube, count: Int, random: inout SplitMix64
  ) throws -> [(name: String, p50: Double, p90: Double, meanBytes: Double)] {
    let service = TileService()
    let bounds = DomainBounds(cube)
    let zoom = 8
    let northWest = WebMercator.worldPixel(latitude: bounds.north, longitude: bounds.west, zoom: zoom)
    let southEast = WebMercator.worldPixel(latitude: bounds.south, longitude: bounds.east, zoom: zoom)
    var renderer = TileRenderer()
    var images: [[UInt32]] = []
    while images.count < count {
      let x =
        Int(northWest.column / 256)
        + Int(random.next() % UInt64(Int(southEast.column / 256) - Int(northWest.column / 256) + 1))
      let y =
        Int(northWest.row / 256) + Int(random.next() % UInt64(Int(southEast.row / 256) - Int(northWest.row / 256) + 1))
      let layer = Self.tileLayers[Int(random.next() % UInt64(Self.tileLayers.count))]
      let time = TileService.timeText(cube.time(ofStep: Int(random.next() % UInt64(cube.stepCount))))
      let plan = try service.plan(
        layer: layer, time: time, z: Substring(String(zoom)), x: Substring(String(x)), y: Substring(String(y)),
        catalog: store.catalog)
      renderer.render(plan.layer, time: plan.time, tile: plan.tile, cubes: plan.cubes)
      images.append(renderer.pixels)
    }
    var times = [[Double]](repeating: [], count: Self.encodings.count)
    var bytes = [Int](repeating: 0, count: Self.encodings.count)
    let size = TileRenderer.size
    for (index, image) in images.enumerated() {
      for turn in 0..<Self.encodings.count {
        let setting = (index + turn) % Self.encodings.count
        let (_, level, filter) = Self.encodings[setting]
        let start = now()
        let png = try PNGEncoder.encode(image, width: size, height: size, level: level, filter: filter)
        times[setting].append(Double(now() - start))
        bytes[setting] += png.count
      }
    }
    return Self.encodings.indices.map { setting in
      let sorted = times[setting].sorted()
      return (
        Self.encodings[setting].name, sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 9 / 10)],
        Double(bytes[setting]) / Double(images.count)
      )
    }
  }

  /// The tiles table, in milliseconds.
  func printTiles(
    _ timings: [TileTiming], encodings: [(name: String, p50: Double, p90: Double, meanBytes: Double)], cube: Cube
  ) {
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
    print("PNG encoding alone, zoom-8 tiles rendered first, settings in turn on each tile")
    print("setting               p50 ms  p90 ms  mean bytes")
    for e in encodings {
      print("\(e.name.padded(21)) \(milliseconds(e.p50)) \(milliseconds(e.p90)) \(Int(e.meanBytes.rounded()))")
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
