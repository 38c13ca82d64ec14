import Foundation
import MapTiles
import Meteorology
import PointQuery
import Store
import Testing
import UTCTime
import _TestSupport

@testable import HTTPService

/// `GET /v1/tiles/…`, `/v1/legend/…` and `/v1/domains` on the real server over the sample
/// run. Tiles are decoded by the tests' own zlib-based PNG reader, and each checked pixel's
/// expected colour comes from the library's value at the grid cell whose centre the pixel
/// holds, on the scale docs/pictures.md documents (`ColourScaleDocumentTests`).
@Suite struct TileEndpointTests {
  /// The sample run's cube, as the library opens it.
  static let cube: Cube? = (try? ForecastStore(path: SampleService.store))?.cubes.first

  /// A response as raw bytes: PNG bodies are not text.
  struct RawAnswer {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]
  }

  static func fetch(_ target: String, header: String = "") async throws -> RawAnswer {
    let client = try await SampleService.server().client
    let bytes = try await client.exchange(
      Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(header)Connection: close\r\n\r\n".utf8))
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    let end = try #require(bytes.indices.first { bytes[$0...].starts(with: separator) }, "\(target): no head")
    let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let status = try #require(Int(lines[0].split(separator: " ")[1]))
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Array(bytes[(end + separator.count)...])
    if let length = headers["content-length"].flatMap({ Int($0) }) { body = Array(body.prefix(length)) }
    return RawAnswer(status: status, headers: headers, body: body)
  }

  /// The world pixel of a point at zoom `z`, by the Web Mercator formulas written out here
  /// rather than taken from MapTiles.
  static func worldPixel(latitude: Double, longitude: Double, zoom z: Int) -> (column: Int, row: Int) {
    let n = 256 * pow(2, Double(z))
    let phi = latitude * .pi / 180
    let column = (longitude + 180) / 360 * n
    let row = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * n
    return (Int(column.rounded(.down)), Int(row.rounded(.down)))
  }

  static let time = "2026-06-21T12:00Z"
  static let seconds = UTC.seconds(year: 2026, month: 6, day: 21, hour: 12, minute: 0) ?? 0

  /// The colour, as PNG bytes, of the pixel holding cell (i, j)'s centre on a `layer` tile
  /// at zoom `z`.
  static func pixelAtCell(
    _ i: Int, _ j: Int, layer: String, zoom z: Int, time: String = time
  ) async throws
    -> [UInt8]
  {
    let cube = try #require(cube)
    let grid = cube.locator.grid
    let cell = j * grid.width + i
    let (latitude, longitude) = (Double(grid.latitudes[cell]), Double(grid.longitudes[cell]))
    let pixel = worldPixel(latitude: latitude, longitude: longitude, zoom: z)
    let target = "/v1/tiles/\(layer)/\(time)/\(z)/\(pixel.column / 256)/\(pixel.row / 256).png"
    let answer = try await fetch(target)
    #expect(answer.status == 200, "\(target): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
    #expect(answer.headers["content-type"] == "image/png")
    let png = try DecodedPNG(answer.body)
    #expect(png.width == 256 && png.height == 256)
    return png.pixel(pixel.column % 256, pixel.row % 256)
  }

  /// Cells spread over the grid, away from its edges.
  static let cells = [(8, 8), (30, 60), (67, 40), (100, 15), (120, 70), (45, 25), (90, 55)]

  @Test(arguments: ["temp", "rain", "wind_vel", "cloud", "atm_press", "hum", "visibility"])
  func theCellCentresPixelHasTheColourOfTheCellsValue(metric name: String) async throws {
    let cube = try #require(Self.cube)
    let grid = cube.locator.grid
    let metric = try cube.metric(name)
    var cells = Self.cells
    // Rain: wet cells too, or only the transparent "no rain" would be checked.
    if name == "rain" {
      var wet: [(Int, Int)] = []
      for j in stride(from: 5, to: grid.height - 5, by: 3) {
        for i in stride(from: 5, to: grid.width - 5, by: 3) where wet.count < 6 {
          let location = try cube.locate(
            latitude: Double(grid.latitudes[j * grid.width + i]),
            longitude: Double(grid.longitudes[j * grid.width + i]),
            method: .nearest)
          if let value = try cube.value(metric, at: location, time: Self.seconds), value > 0.5 { wet.append((i, j)) }
        }
      }
      #expect(wet.count >= 3, "the sample run rains somewhere at \(Self.time)")
      cells += wet
    }
    let scale = ColourScale.scale(for: metric.metric)
    for (i, j) in cells {
      let cell = j * grid.width + i
      let location = try cube.locate(
        latitude: Double(grid.latitudes[cell]), longitude: Double(grid.longitudes[cell]), method: .nearest)
      #expect(location.i == i && location.j == j)
      let value = try cube.value(metric, at: location, time: Self.seconds)
      let colour = value.map { scale.colour($0) } ?? .transparent
      let expected = [colour.red, colour.green, colour.blue, colour.alpha]
      for zoom in [8, 10] {
        let pixel = try await Self.pixelAtCell(i, j, layer: name, zoom: zoom)
        #expect(pixel == expected, "\(name) cell (\(i), \(j)) value \(value.map { "\($0)" } ?? "nil") zoom \(zoom)")
      }
    }
  }

  @Test func theLandLayerShowsTheCubesLandMask() async throws {
    let cube = try #require(Self.cube)
    let grid = cube.locator.grid
    func kind(_ i: Int, _ j: Int) -> Bool? { cube.file.isLand(cell: j * grid.width + i) }
    var checked = (land: 0, sea: 0)
    // Cells whose eight neighbours are of their kind, so that no coastline runs through
    // their centre's pixel.
    for j in stride(from: 2, to: grid.height - 2, by: 7) {
      for i in stride(from: 2, to: grid.width - 2, by: 7) {
        guard let own = kind(i, j) else { continue }
        let uniform = (-1...1).allSatisfy { dj in (-1...1).allSatisfy { di in kind(i + di, j + dj) == own } }
        guard uniform else { continue }
        let colour = own ? LandColours.land : LandColours.sea
        let pixel = try await Self.pixelAtCell(i, j, layer: "land", zoom: 9)
        #expect(pixel == [colour.red, colour.green, colour.blue, 255], "cell (\(i), \(j)) land \(own)")
        if own { checked.land += 1 } else { checked.sea += 1 }
      }
    }
    #expect(checked.land >= 3 && checked.sea >= 3, "\(checked)")
    // Lisbon's tile at zoom 7 has land, sea and the coast between.
    let lisbon = Self.worldPixel(latitude: 38.72, longitude: -9.14, zoom: 7)
    let answer = try await Self.fetch("/v1/tiles/land/\(Self.time)/7/\(lisbon.column / 256)/\(lisbon.row / 256).png")
    let png = try DecodedPNG(answer.body)
    var counts: [[UInt8]: Int] = [:]
    for row in 0..<256 { for column in 0..<256 { counts[png.pixel(column, row), default: 0] += 1 } }
    for colour in [LandColours.land, LandColours.sea, LandColours.coast] {
      #expect(counts[[colour.red, colour.green, colour.blue, 255], default: 0] > 0, "\(colour)")
    }
  }

  @Test func tilesOutsideTheDomainAreFullyTransparent() async throws {
    let far = [
      Self.worldPixel(latitude: 60, longitude: 20, zoom: 8), Self.worldPixel(latitude: -30, longitude: 150, zoom: 8),
    ]
    var targets = far.map { "/v1/tiles/temp/\(Self.time)/8/\($0.column / 256)/\($0.row / 256).png" }
    targets += ["/v1/tiles/land/\(Self.time)/3/0/0.png", "/v1/tiles/cloud/\(Self.time)/0/0/0.png"]
    for target in targets {
      let answer = try await Self.fetch(target)
      #expect(answer.status == 200, "\(target)")
      let png = try DecodedPNG(answer.body)
      #expect(png.width == 256 && png.height == 256)
      if target.hasSuffix("/0/0/0.png") {
        // The world tile holds the domain: some of it is drawn, the rest is transparent.
        #expect(png.pixel(0, 0)[3] == 0 && png.pixel(255, 255)[3] == 0, "\(target)")
      } else {
        #expect(stride(from: 3, to: png.rgba.count, by: 4).allSatisfy { png.rgba[$0] == 0 }, "\(target)")
      }
    }
    // A pixel just beyond the grid's southern edge, in a tile the domain partly covers.
    let cube = try #require(Self.cube)
    let grid = cube.locator.grid
    let edge = grid.width / 2
    let beyond = Self.worldPixel(
      latitude: Double(grid.latitudes[edge]) - 0.2, longitude: Double(grid.longitudes[edge]), zoom: 8)
    let inside = Self.worldPixel(
      latitude: Double(grid.latitudes[grid.width + edge]), longitude: Double(grid.longitudes[edge]), zoom: 8)
    let answer = try await Self.fetch("/v1/tiles/temp/\(Self.time)/8/\(beyond.column / 256)/\(beyond.row / 256).png")
    let png = try DecodedPNG(answer.body)
    #expect(png.pixel(beyond.column % 256, beyond.row % 256)[3] == 0)
    if inside.column / 256 == beyond.column / 256, inside.row / 256 == beyond.row / 256 {
      #expect(png.pixel(inside.column % 256, inside.row % 256)[3] == 255)
    }
  }

  @Test func theSameTileIsTheSameBytesWithCacheHeadersAndRevalidates() async throws {
    let target = "/v1/tiles/temp/\(Self.time)/8/121/98.png"
    let first = try await Self.fetch(target)
    let second = try await Self.fetch(target)
    #expect(first.status == 200 && second.status == 200)
    #expect(first.body == second.body && !first.body.isEmpty)
    let etag = try #require(first.headers["etag"])
    #expect(etag == second.headers["etag"])
    #expect(etag.hasPrefix("\"2026062000-"), "the ETag names the run that answered: \(etag)")
    // The sample store's newest run is the only one: its times may be answered by a run
    // published next, so they are cached for minutes, not a day.
    #expect(first.headers["cache-control"] == "public, max-age=\(TileService.shortAge), immutable")
    // The same time without its Z is the same tile.
    let bare = try await Self.fetch("/v1/tiles/temp/2026-06-21T12:00/8/121/98.png")
    #expect(bare.body == first.body && bare.headers["etag"] == etag)
    // The tag alone, in a list, weakly and `*` all revalidate (RFC 9110's weak comparison).
    for tags in [etag, "\"other\", \(etag)", "W/\(etag)", "*"] {
      let revalidated = try await Self.fetch(target, header: "If-None-Match: \(tags)\r\n")
      #expect(revalidated.status == 304 && revalidated.body.isEmpty, "\(tags)")
    }
    let changed = try await Self.fetch(target, header: "If-None-Match: \"other\"\r\n")
    #expect(changed.status == 200 && changed.body == first.body)
    let other = try await Self.fetch("/v1/tiles/temp/2026-06-21T13:00Z/8/121/98.png")
    #expect(other.headers["etag"] != etag)
  }

  @Test func refusedTileRequestsSayWhyInOpenMeteosErrorShape() async throws {
    let client = try await SampleService.server().client
    let cases: [(String, Int, String)] = [
      ("/v1/tiles/temp/2027-01-01T00:00Z/8/121/98.png", 404, "time: no run covers 2027-01-01T00:00:00Z"),
      (
        "/v1/tiles/temp/2026-06-19T23:00Z/8/121/98.png", 404,
        "time: no run covers 2026-06-19T23:00:00Z; the store's runs cover wrf/d01 2026062000: 2026-06-20T00:00:00Z…2026-06-23T00:00:00Z"
      ),
      ("/v1/tiles/tempp/\(Self.time)/8/121/98.png", 404, "metric: \"tempp\" has no map"),
      ("/v1/tiles/temp/\(Self.time)/19/1/1.png", 400, "z: 19 is not a zoom level; zooms are 0…18"),
      ("/v1/tiles/temp/\(Self.time)/99999999999/1/1.png", 400, "z: \"99999999999\" is not a tile zoom"),
      ("/v1/tiles/temp/\(Self.time)/-1/0/0.png", 400, "z: \"-1\" is not a tile zoom"),
      ("/v1/tiles/temp/\(Self.time)/8/256/1.png", 400, "x: 256 is not a column at zoom 8; columns are 0…255"),
      ("/v1/tiles/temp/\(Self.time)/8/1/256.png", 400, "y: 256 is not a row at zoom 8; rows are 0…255"),
      ("/v1/tiles/temp/\(Self.time)/8/1/y.png", 400, "y: \"y\" is not a tile index"),
      ("/v1/tiles/temp/2026-06-21/8/121/98.png", 400, "time: \"2026-06-21\" is not a UTC time"),
      ("/v1/tiles/temp/2026-06-21T25:00Z/8/121/98.png", 400, "time: \"2026-06-21T25:00Z\" is not a UTC time"),
      ("/v1/legend/tempp.svg", 404, "metric: \"tempp\" has no map"),
    ]
    for (target, status, reason) in cases {
      let answer = try await client.get(target)
      #expect(answer.status == status, "\(target): \(answer.body)")
      #expect(answer.mediaType == "application/json", "\(target)")
      #expect(answer.openMeteoReason?.hasPrefix(reason) == true, "\(target): \(answer.body)")
    }
  }

  @Test func theLegendIsSVGWithTheScalesColoursAndValues() async throws {
    let client = try await SampleService.server().client
    for name in ["temp", "rain", "wind_vel", "cloud", "atm_press", "land"] {
      let answer = try await client.get("/v1/legend/\(name).svg")
      #expect(answer.status == 200 && answer.mediaType == "image/svg+xml", "\(name)")
      let tree = try #require(XMLTree.parse(answer.body), "\(name): not XML")
      #expect(tree.root.name == "svg")
      if name == "land" {
        for colour in [LandColours.land, LandColours.sea, LandColours.coast] {
          #expect(answer.body.contains("fill=\"\(colour.hex)\""), "\(name) \(colour)")
        }
        continue
      }
      let scale = ColourScale.scale(for: try #require(Metric.named(name)))
      for stop in scale.stops {
        #expect(answer.body.contains("stop-color=\"\(stop.colour.hex)\""), "\(name) \(stop.colour)")
        #expect(answer.body.contains(">\(Legend.number(stop.value))</text>"), "\(name) \(stop.value)")
      }
      #expect(answer.body.contains("\(name) (\(scale.unit))"))
    }
  }

  @Test func theDomainsAreTheNewestRunsGridExtents() async throws {
    let cube = try #require(Self.cube)
    let grid = cube.locator.grid
    let answer = try await SampleService.server().client.get("/v1/domains")
    #expect(answer.status == 200 && answer.mediaType == "application/json")
    let object = try #require(answer.json as? [String: Any])
    let domains = try #require(object["domains"] as? [[String: Any]])
    #expect(domains.count == 1)
    let domain = try #require(domains.first)
    #expect(domain["model_domain"] as? String == "wrf/d01")
    func rounded(_ value: Float?) -> Double { ((Double(value ?? .nan)) * 10_000).rounded() / 10_000 }
    let expected: [String: Double] = [
      "south": rounded(grid.latitudes.min()), "north": rounded(grid.latitudes.max()),
      "west": rounded(grid.longitudes.min()), "east": rounded(grid.longitudes.max()),
    ]
    for (key, value) in expected {
      let got = try #require(domain[key] as? Double, "\(key)")
      #expect(abs(got - value) < 1e-9, "\(key): \(got) against \(value)")
    }
    #expect(Set(domain.keys) == ["model_domain", "south", "west", "north", "east"])
  }
}
