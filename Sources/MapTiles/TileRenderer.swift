import CubeFormat
import GridGeometry
import Meteorology
import PointQuery

/// Draws 256 × 256 tiles from cubes into reusable buffers: one renderer per thread, many
/// tiles each, nothing allocated per pixel.
///
/// **Sampling.** Each pixel takes the value of the cube's nearest cell to the pixel's
/// centre (the cube's own locator, exactly as `Cube.locate(…, method: .nearest)` finds it):
/// nearest rather than bilinear so that a pixel shows a value the model computed, cells
/// stay visible as the model's resolution, rain is never smeared into dry cells, and
/// categories (weather codes) are never blended.
///
/// **Which cube.** `cubes` are the cubes that may answer, in answering order (newest run,
/// then finest grid): each pixel is answered by the first that contains it, as
/// `RunCatalog` answers a point.
///
/// **Speed.** A tile row is one parallel and a column one meridian, so the latitudes and
/// longitudes are computed once per row and per column. Along a row the nearest cell is
/// found every `stride` pixels; when two such samples fall in the same cell, the pixels
/// between them are in it too, because the set of points nearest to one mass point is
/// convex on the sphere. (A parallel bows poleward of the great circle between two of its
/// points by d²·tan φ / 8R: under 1 m for 8 pixels at zoom 7 and 40° N, within the
/// rounding of the cube's single-precision coordinates.) Where two samples differ, the
/// pixel halfway is located and each half is done the same way, so a gap holding one cell
/// boundary costs about three lookups rather than seven. A cell's colour is worked out once where the cell is
/// first met in a row and reused along the row and down the column.
///
/// **Moving grids.** A cube whose grid moves (a vortex-following nest) answers a pixel from
/// the positions of the steps the value at `time` reads (`Cube.stepsRead`): at a step, that
/// step's; between two steps, both for an instant, which is interpolated, and the later one
/// for an amount or a class; and, as for points (`Cube.answeringSteps`), the hour before
/// (`TileLayer.steps`). Where those positions differ such a cube answers only the pixels
/// it holds at the first and the last, so that where the nest is not, the next cube (its
/// parent) shows; and a pixel's key is then the pair of cells it reads, so that colours are
/// reused only between pixels reading the same two cells. The land layer takes the position
/// of the step holding `time`.
public struct TileRenderer: Sendable {
  /// Pixels along a tile's side.
  public static let size = WebMercator.tileSize
  /// Sampled every this many pixels along a row (see the type's description).
  static let defaultStride = 8
  /// The side of the grid of located points: one more than the tile's, so that the base
  /// layer can compare the last row and column with the next tile's first.
  static let span = size + 1

  private var latitudes: [Double] = []
  private var longitudes: [Double] = []
  /// Per located point (row-major over `span` × `span`): the answering cube's index in the
  /// high bits and its cell in the low `cellBits`, or −1 outside every cube.
  private var keys: [Int]
  /// The rendered pixels, `RGBA.packed`, row-major.
  public private(set) var pixels: [UInt32]
  /// For the base layer: per located point, 0 outside, 1 sea, 2 land, 3 unknown.
  private var kinds: [UInt8]
  let stride: Int

  static let cellBits = 40
  static let cellMask = (1 << cellBits) - 1

  /// A renderer with its buffers; `stride` 1 locates every pixel (the tests' oracle).
  public init() { self.init(stride: Self.defaultStride) }

  init(stride: Int) {
    self.stride = max(1, stride)
    keys = [Int](repeating: -1, count: Self.span * Self.span)
    pixels = [UInt32](repeating: 0, count: Self.size * Self.size)
    kinds = [UInt8](repeating: 0, count: Self.span * Self.span)
    latitudes.reserveCapacity(Self.span)
    longitudes.reserveCapacity(Self.span)
  }

  /// Draws `layer` at `time` on `tile` from `cubes` (answering order; each must cover
  /// `time`) into `pixels`. Pixels outside every cube, and missing values, are transparent.
  public mutating func render(_ layer: TileLayer, time: Int64, tile: TileAddress, cubes: [Cube]) {
    let steps = cubes.map { layer.steps(of: $0, at: time) }
    locate(tile, cubes: cubes, steps: steps)
    switch layer {
    case .metric(let metric): paint(metric, time: time, cubes: cubes)
    case .land: paintLand(cubes: cubes, positions: zip(cubes, steps).map { $0.position(ofStep: $1.lowerBound) })
    }
  }

  /// Fills `keys` with the answering cube and cell of every point of the tile's grid, each
  /// cube at the positions of `steps` (its first step's alone when it does not move).
  mutating func locate(_ tile: TileAddress, cubes: [Cube], steps: [ClosedRange<Int>]) {
    WebMercator.rowLatitudes(tile, into: &latitudes)
    WebMercator.columnLongitudes(tile, into: &longitudes)
    let earlier = zip(cubes, steps).map { $0.position(ofStep: $1.lowerBound) }
    let later = zip(cubes, steps).map { $0.position(ofStep: $1.upperBound) }
    let locators = zip(cubes, earlier).map { $0.locator(position: $1) }
    let widths = cubes.map(\.header.width)
    if earlier != later {
      locateRows(
        PairGrids(
          earlier: locators, later: zip(cubes, later).map { $0.locator(position: $1) }, widths: widths,
          pairs: CellPairs()))
    } else if cubes.count == 1 {
      // One cube (the usual case) is searched without the loop over cubes.
      locateRows(OneGrid(locator: locators[0], width: widths[0]))
    } else {
      locateRows(Grids(locators: locators, widths: widths))
    }
  }

  /// Finds the keys of every row of the tile's grid of points with `find`.
  private mutating func locateRows(_ find: some CellFinder) {
    let span = Self.span
    let stride = self.stride
    let latitudes = self.latitudes
    longitudes.withUnsafeBufferPointer { longitudes in
      keys.withUnsafeMutableBufferPointer { keys in
        for row in 0..<span {
          let latitude = latitudes[row]
          let base = row * span
          keys[base] = find.key(latitude, longitudes[0])
          var column = 0
          while column < span - 1 {
            let next = min(column + stride, span - 1)
            keys[base + next] = find.key(latitude, longitudes[next])
            Self.bisect(keys, base: base, column, next, latitude: latitude, longitudes: longitudes, find: find)
            column = next
          }
        }
      }
    }
  }

  /// Fills the keys strictly between columns `a` and `b` of a row whose ends are found: all
  /// of them when both ends are in one cell (convexity), else the middle one found and each
  /// half done again. A gap with one cell boundary in it costs about log2(stride) lookups
  /// rather than stride − 1. Outside is not convex (a domain's corner can poke between two
  /// outside points), so only a shared cell fills a gap.
  private static func bisect(
    _ keys: UnsafeMutableBufferPointer<Int>, base: Int, _ a: Int, _ b: Int, latitude: Double,
    longitudes: UnsafeBufferPointer<Double>, find: some CellFinder
  ) {
    guard b - a > 1 else { return }
    let key = keys[base + a]
    if key >= 0, key == keys[base + b] {
      for column in (a + 1)..<b { keys[base + column] = key }
      return
    }
    let middle = (a + b) / 2
    keys[base + middle] = find.key(latitude, longitudes[middle])
    bisect(keys, base: base, a, middle, latitude: latitude, longitudes: longitudes, find: find)
    bisect(keys, base: base, middle, b, latitude: latitude, longitudes: longitudes, find: find)
  }

  /// Colours every pixel from its cell's value of the metric (resolved per cube).
  private mutating func paint(_ chosen: Metric, time: Int64, cubes: [Cube]) {
    let scale = ColourScale.scale(for: chosen)
    let metric = cubes.map { $0.metric(chosen) }
    let (size, span) = (Self.size, Self.span)
    let latitudes = self.latitudes
    let longitudes = self.longitudes
    keys.withUnsafeBufferPointer { keys in
      pixels.withUnsafeMutableBufferPointer { pixels in
        for row in 0..<size {
          for column in 0..<size {
            let key = keys[row * span + column]
            let pixel = row * size + column
            if key < 0 {
              pixels[pixel] = 0
            } else if column > 0, key == keys[row * span + column - 1] {
              pixels[pixel] = pixels[pixel - 1]
            } else if row > 0, key == keys[(row - 1) * span + column] {
              pixels[pixel] = pixels[pixel - size]
            } else {
              let source = key >> Self.cellBits
              let cube = cubes[source]
              // The value at the pixel's centre, through the same locator; a value missing
              // in the cube, or a point the locator no longer places, draws nothing.
              let value =
                (try? cube.locate(latitude: latitudes[row], longitude: longitudes[column], method: .nearest)).flatMap {
                  try? cube.value(metric[source], at: $0, time: time)
                }
              pixels[pixel] = value.map { scale.colour($0).packed } ?? 0
            }
          }
        }
      }
    }
  }

  /// Sea, land and coastline from each cube's land mask at `positions` (one per cube).
  private mutating func paintLand(cubes: [Cube], positions: [Int]) {
    let (size, span) = (Self.size, Self.span)
    let files = cubes.map(\.file)
    let colours: [UInt32] = [
      RGBA.transparent.packed, LandColours.sea.packed, LandColours.land.packed, LandColours.unknown.packed,
    ]
    keys.withUnsafeBufferPointer { keys in
      kinds.withUnsafeMutableBufferPointer { kinds in
        for point in 0..<(span * span) {
          let key = keys[point]
          if key < 0 {
            kinds[point] = 0
          } else if point % span > 0, key == keys[point - 1] {
            kinds[point] = kinds[point - 1]
          } else {
            let source = key >> Self.cellBits
            let isLand = files[source].isLand(cell: key & Self.cellMask, position: positions[source])
            kinds[point] = isLand.map { $0 ? 2 : 1 } ?? 3
          }
        }
        pixels.withUnsafeMutableBufferPointer { pixels in
          for row in 0..<size {
            for column in 0..<size {
              let point = row * span + column
              let kind = kinds[point]
              var colour = colours[Int(kind)]
              // A coast: this point and its eastern or southern neighbour are one sea and
              // one land. Looking only east and south draws each coast once, one pixel wide,
              // and the extra row and column make it continue across tile edges.
              if kind == 1 || kind == 2 {
                let east = kinds[point + 1]
                let south = kinds[point + span]
                if (east == 1 || east == 2) && east != kind || (south == 1 || south == 2) && south != kind {
                  colour = LandColours.coast.packed
                }
              }
              pixels[row * size + column] = colour
            }
          }
        }
      }
    }
  }
}

/// Latitude/longitude → the key of the answering cube's nearest cell (`TileRenderer`'s
/// keys), or −1 outside every grid. Generic rather than a closure, so that the lookup is a
/// direct call: through a closure over an array of locators, retaining and releasing the
/// locator took a third of a tile's time (perf, nwpcube bench --kinds tiles).
protocol CellFinder {
  func key(_ latitude: Double, _ longitude: Double) -> Int
}

/// One grid: the key is the cell.
struct OneGrid: CellFinder {
  let locator: GridLocator
  let width: Int

  @inline(__always) func key(_ latitude: Double, _ longitude: Double) -> Int {
    guard let (i, j) = locator.nearestCell(latitude: latitude, longitude: longitude, prefetch: { _ in }) else {
      return -1
    }
    return j * width + i
  }
}

/// Several grids in answering order: the first that contains the point answers.
struct Grids: CellFinder {
  let locators: [GridLocator]
  let widths: [Int]

  func key(_ latitude: Double, _ longitude: Double) -> Int {
    for index in locators.indices {
      if let (i, j) = locators[index].nearestCell(latitude: latitude, longitude: longitude, prefetch: { _ in }) {
        return index << TileRenderer.cellBits | (j * widths[index] + i)
      }
    }
    return -1
  }
}

/// Several grids in answering order, each at two positions (a moving grid between two steps
/// it holds at different places): the first that holds the point at both answers. The key
/// numbers the pair of cells, in order of first meeting, since two cell indices do not fit
/// one key beside the cube's index.
struct PairGrids: CellFinder {
  let earlier: [GridLocator]
  let later: [GridLocator]
  let widths: [Int]
  let pairs: CellPairs

  func key(_ latitude: Double, _ longitude: Double) -> Int {
    for index in earlier.indices {
      guard
        let (i, j) = earlier[index].nearestCell(latitude: latitude, longitude: longitude, prefetch: { _ in }),
        let (li, lj) = later[index].nearestCell(latitude: latitude, longitude: longitude, prefetch: { _ in })
      else { continue }
      return index << TileRenderer.cellBits | pairs.number(j * widths[index] + i, lj * widths[index] + li, of: index)
    }
    return -1
  }
}

/// The pairs of cells one tile's points read, numbered in order of first meeting: a tile's
/// grid has 257 × 257 points, so the numbers stay far below 2^`TileRenderer.cellBits`.
final class CellPairs {
  private var numbers: [Pair: Int] = [:]

  struct Pair: Hashable {
    let source: Int
    let earlier: Int
    let later: Int
  }

  func number(_ earlier: Int, _ later: Int, of source: Int) -> Int {
    let pair = Pair(source: source, earlier: earlier, later: later)
    if let known = numbers[pair] { return known }
    let next = numbers.count
    numbers[pair] = next
    return next
  }
}
