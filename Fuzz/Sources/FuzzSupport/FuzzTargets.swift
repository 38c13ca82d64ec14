import CubeFormat
import Foundation
import GridGeometry
import Ingest

/// What each fuzz target does with one input, kept here so that the four executables are
/// one line each and the seed writer can run the same code.
public enum FuzzTargets {
  /// Whether to print what each input decodes to (`NWPCUBE_FUZZ_VERBOSE=1`), to describe a
  /// finding.
  static let verbose = ProcessInfo.processInfo.environment["NWPCUBE_FUZZ_VERBOSE"] == "1"

  /// cube_open: the input is a cube file.
  public static func cubeOpen(_ bytes: [UInt8]) {
    guard let path = FuzzScratch.write(bytes, to: "input.cube") else { return }
    CubeProbe.probe(path)
  }

  /// cube_resealed: the input is a cube file whose checksums are recomputed first, so that
  /// a mutation of a valid seed cube reaches the field checks behind them.
  public static func cubeResealed(_ bytes: [UInt8]) {
    var bytes = bytes
    CubeFile.reseal(&bytes)
    cubeOpen(bytes)
  }

  /// locator_build: the input describes a grid and points (see `LocatorCase`).
  public static func locatorBuild(_ bytes: [UInt8]) {
    let input = LocatorCase(bytes)
    if verbose { FileHandle.standardError.write(Data("locator_build: \(input)\n".utf8)) }
    guard
      let grid = try? CurvilinearGrid(
        width: input.width, height: input.height, latitudes: input.latitudes, longitudes: input.longitudes)
    else { return }
    let projection = input.projection.flatMap {
      try? MapProjection(wrfCode: $0.code, parameters: $0.parameters, grid: grid)
    }
    var sum = 0
    for locator in [try? GridLocator(grid: grid, projection: projection), try? GridLocator(grid: grid)] {
      guard let locator else { continue }
      for (latitude, longitude) in input.points {
        if let cell = locator.nearestCell(latitude: latitude, longitude: longitude) { sum &+= cell.i &+ cell.j }
        if let position = locator.position(latitude: latitude, longitude: longitude) {
          sum &+= position.i &+ position.j
        }
      }
    }
    blackHole(sum)
  }

  /// netcdf_metadata: the input is a `MetadataScript`; the altered template is ingested
  /// into a scratch store, and a published cube is probed like any other.
  public static func netcdfMetadata(_ bytes: [UInt8]) {
    let script = MetadataScript(bytes)
    if verbose { FileHandle.standardError.write(Data("netcdf_metadata:\n\(script.text)".utf8)) }
    guard let template = MetadataTemplates.named(script.template) else { return }
    let path = FuzzScratch.path("input.nc")
    guard (try? script.apply(to: template).write(to: path)) != nil else { return }
    let store = FuzzScratch.path("store")
    defer { FuzzScratch.remove("store") }
    guard let report = try? Ingestor.run([path], options: .init(store: store)) else { return }
    for published in report.published { CubeProbe.probe(published.path) }
  }
}
