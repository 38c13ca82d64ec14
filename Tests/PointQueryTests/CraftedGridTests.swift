import CubeFormat
import Foundation
import GridGeometry
import PointQuery
import Testing
import _TestSupport

/// Writes a one-step cube over the given cell coordinates, as a crafted (or corrupted)
/// store would hold it: the cube writer checks counts, not geometry.
private func writeCube(
  width: Int, height: Int, latitudes: [Float], longitudes: [Float], in directory: String
) throws
  -> String
{
  let header = CubeHeader(
    width: width, height: height, stepCount: 1, firstTime: 1_750_000_000, stepSeconds: 3600,
    runStart: 1_750_000_000, model: "crafted", domain: "d01", gridSpacing: 9000,
    projection: CubeProjection(code: 0, parameters: []),
    metrics: [CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.5, offset: -100)])
  let writer = try CubeWriter(
    header: header, latitudes: latitudes, longitudes: longitudes,
    destination: "\(directory)/crafted/d01/2025061512.cube")
  #expect(writer.write(metric: 0, step: 0, values: Array(repeating: 15, count: width * height)) == nil)
  return try writer.publish()
}

@Suite struct CraftedGridTests {
  /// The hang: the sample run's 135 × 80 grid with one cell moved to (0, 0) made
  /// every query spin in the cell locator's build. Opening the cube now refuses it, naming
  /// the cell, before any locator is built.
  @Test func aCubeWithOneCellAtTheOriginIsRefusedWhenOpened() throws {
    let directory = SampleFiles.temporaryDirectory("crafted")
    defer { SampleFiles.remove(directory) }
    let grid = try GridFiles.mm5Sample().grid
    #expect(grid.width == 135 && grid.height == 80)
    var (latitudes, longitudes) = (grid.latitudes, grid.longitudes)
    latitudes[40 * 135 + 57] = 0
    longitudes[40 * 135 + 57] = 0
    let path = try writeCube(width: 135, height: 80, latitudes: latitudes, longitudes: longitudes, in: directory)
    let error = #expect(throws: QueryError.self) { try Cube(path: path) }
    let text = error?.description ?? ""
    #expect(text.hasPrefix("\(path): invalid grid: cell (57, 40) at latitude 0.0, longitude 0.0 is"), "\(text)")
    #expect(!text.contains("\n"))
    // The same grid unspoilt opens.
    let good = try writeCube(
      width: 135, height: 80, latitudes: grid.latitudes, longitudes: grid.longitudes, in: "\(directory)/good")
    #expect(try Cube(path: good).locate(latitude: 39.5, longitude: -8, method: .nearest).i >= 0)
  }

  @Test func aCubeWhoseCellsAreAllZeroIsRefusedWhenOpened() throws {
    let directory = SampleFiles.temporaryDirectory("crafted-zero")
    defer { SampleFiles.remove(directory) }
    let zeros = [Float](repeating: 0, count: 135 * 80)
    let path = try writeCube(width: 135, height: 80, latitudes: zeros, longitudes: zeros, in: directory)
    let error = #expect(throws: QueryError.self) { try Cube(path: path) }
    #expect(
      error?.description
        == "\(path): invalid grid: cell (0, 0) at latitude 0.0, longitude 0.0 is at the same point as its neighbour (1, 0): duplicated or collapsed coordinates"
    )
  }
}
