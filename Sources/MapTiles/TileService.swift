import FNV
import PointQuery
import Synchronization
import UTCTime

/// Tiles and their cache headers for requests in the service's terms (layer name, time
/// text, `z`/`x`/`y` text), over whatever cubes the store holds at the moment: the
/// HTTP-free part of `GET /v1/tiles/…`, shared by the server and `nwpcube bench`.
///
/// Renderers (and their buffers) are kept for reuse between requests, one per concurrent
/// request at most.
public final class TileService: Sendable {
  /// Kept renderers; a request takes one or makes one, and gives it back.
  private let spare = Mutex<[TileRenderer]>([])
  /// At most this many renderers are kept (about 1 MB each).
  static let keptRenderers = 8

  public init() {}

  /// A request parsed and matched with the cubes that answer it.
  public struct Plan: Sendable {
    public let layer: TileLayer
    public let time: Int64
    public let tile: TileAddress
    /// The cubes that may answer a pixel, in answering order; empty when the tile lies
    /// outside every domain covering the time.
    public let cubes: [Cube]
    /// Names the cubes that answer and what was asked: equal for equal tiles.
    public let etag: String
    /// `public, max-age=…, immutable`: a day for times no later run can take over, ten
    /// minutes for the rest (see docs/pictures.md).
    public let cacheControl: String
  }

  /// How long a tile no future run can replace stays fresh: a day.
  public static let longAge = 86_400
  /// How long a tile of a time a run published next could answer stays fresh.
  public static let shortAge = 600
  /// Part of every ETag: changes when the drawing (scales, sampling) does.
  static let drawingVersion = "t1"

  /// Parses a request and finds the cubes answering it, in the order of the checks: the
  /// tile's address (400), the time's form (400), the layer (404), the time's coverage and
  /// the metric's presence (404).
  public func plan(
    layer name: String, time text: String, z: Substring, x: Substring, y: Substring, catalog: RunCatalog
  ) throws(TileError) -> Plan {
    let tile = try TileAddress(z: z, x: x, y: y)
    let time = try Self.parseTime(text)
    let layer = try TileLayer(name: name)
    guard !catalog.cubes.isEmpty else { throw .noRuns }
    let covering = catalog.cubes.filter { $0.firstTime <= time && time <= $0.lastTime }
    guard !covering.isEmpty else {
      throw .timeNotCovered(
        UTC.iso8601(time),
        runs: catalog.cubes.map { "\($0.name) \($0.run): \(UTC.iso8601($0.firstTime))…\(UTC.iso8601($0.lastTime))" })
    }
    var answering = covering
    if case .metric(let metric) = layer {
      answering = covering.filter { $0.metric(metric).isAvailable }
      guard !answering.isEmpty else {
        throw .metricNotInRuns(metric.name, runs: covering.map { "\($0.name) \($0.run)" })
      }
    }
    let box = WebMercator.bounds(tile)
    // A moving grid counts where it is at the steps the layer reads at `time`.
    let inside = answering.filter { cube in
      let steps = layer.steps(of: cube, at: time)
      return DomainBounds(cube, position: cube.position(ofStep: steps.lowerBound)).union(
        DomainBounds(cube, position: cube.position(ofStep: steps.upperBound))
      ).overlaps(
        south: box.south, west: box.west, north: box.north, east: box.east, margin: Self.margin(cube))
    }
    let newestStart = catalog.cubes.map(\.header.runStart).max() ?? 0
    let age = time < newestStart ? Self.longAge : Self.shortAge
    var identity = "\(Self.drawingVersion) \(layer) \(time) \(tile)"
    for cube in inside { identity += " \(cube.name) \(cube.run) \(cube.header.width)x\(cube.header.height)" }
    let run = inside.first?.run ?? "none"
    return Plan(
      layer: layer, time: time, tile: tile, cubes: inside,
      etag: "\"\(run)-\(FNV1a(identity.utf8).hex)\"",
      cacheControl: "public, max-age=\(age), immutable")
  }

  /// The PNG of a planned tile: rendered, or the one transparent tile when no cube reaches it.
  public func png(_ plan: Plan) throws(TileError) -> [UInt8] {
    guard !plan.cubes.isEmpty else { return try Self.transparent() }
    var renderer = spare.withLock { $0.popLast() } ?? TileRenderer()
    renderer.render(plan.layer, time: plan.time, tile: plan.tile, cubes: plan.cubes)
    let pixels = renderer.pixels
    spare.withLock { if $0.count < Self.keptRenderers { $0.append(renderer) } }
    // A value or land mask read from a block that failed verification reads as missing,
    // which would draw as a gap or as unknown land: the tile is refused instead, as a
    // forecast reading the block is.
    for cube in plan.cubes {
      do { try cube.checkIntact() } catch { throw .damagedCube(error.description) }
    }
    return try PNGEncoder.encode(pixels, width: TileRenderer.size, height: TileRenderer.size)
  }

  /// The fully transparent tile, encoded once (and again only if that once failed, so
  /// that the failure is reported rather than cached).
  static func transparent() throws(TileError) -> [UInt8] {
    if let cached = transparentTile { return cached }
    return try encodeTransparent()
  }

  private static let transparentTile: [UInt8]? = try? encodeTransparent()

  private static func encodeTransparent() throws(TileError) -> [UInt8] {
    try PNGEncoder.encode(
      [UInt32](repeating: 0, count: TileRenderer.size * TileRenderer.size), width: TileRenderer.size,
      height: TileRenderer.size)
  }

  /// `YYYY-MM-DDTHH:MM`, with or without a final `Z`, as UTC; `TileError.badTime` for
  /// anything else (offsets, seconds, dates alone), so that a tile's URL has one spelling
  /// per time, save the `Z`.
  public static func parseTime(_ text: String) throws(TileError) -> Int64 {
    let bytes = Array(text.utf8)
    let body = bytes.last == UInt8(ascii: "Z") ? bytes.dropLast() : bytes[...]
    let pattern = Array("dddd-dd-ddTdd:dd".utf8)
    guard body.count == pattern.count,
      zip(body, pattern).allSatisfy({ b, p in p == UInt8(ascii: "d") ? (b >= 48 && b <= 57) : b == p }),
      let seconds = UTC.parseISO8601(String(decoding: body, as: UTF8.self) + "Z")
    else { throw .badTime(text) }
    return seconds
  }

  /// A time as tile paths write it, `YYYY-MM-DDTHH:MMZ` (seconds dropped).
  public static func timeText(_ seconds: Int64) -> String {
    String(UTC.iso8601(seconds).dropLast(4)) + "Z"
  }

  /// More than half a cell, in degrees, from the grid's spacing in metres: three spacings'
  /// worth of latitude, which covers a half-spacing of longitude up to about 80° too. Too
  /// wide costs only a render of a tile that comes out transparent.
  private static func margin(_ cube: Cube) -> Double {
    let spacing = cube.header.gridSpacing
    return spacing > 0 && spacing < 1_000_000 ? 3 * spacing / 111_000 + 0.01 : 5
  }

}
