import CubeFormat
import Foundation
import GridGeometry
import Ingest
import _TestSupport

/// What each fuzz target does with one input, kept here so that the executables are
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

  /// cube_resealed: the input is a cube file whose header's file size is set to the
  /// input's length and whose checksums are recomputed first, so that a mutation of a valid
  /// seed cube reaches the field checks behind them, and a cut or lengthened seed reaches
  /// the layout's and the positions section's size checks rather than the file size's.
  public static func cubeResealed(_ bytes: [UInt8]) {
    var bytes = bytes
    let fileBytesOffset = 16
    if bytes.count >= fileBytesOffset + 8 {
      for index in 0..<8 {
        bytes[fileBytesOffset + index] = UInt8(truncatingIfNeeded: UInt64(bytes.count) >> (8 * index))
      }
    }
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
    var locators = [try? GridLocator(grid: grid, projection: projection), try? GridLocator(grid: grid)]
    locators += trustedLocators(grid: grid, projection: projection, bytes: bytes).map { Optional($0) }
    for locator in locators {
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

  /// The locators a version 3 cube's record vouches for, built over a grid nobody checked
  /// (as a crafted cube with valid checksums would hold it): the projection's on the
  /// record's word, and those of a stored lattice and analytic index whose margin the input
  /// picks, decoded as a reader decodes them. Whatever the grid and the index say, their
  /// lookups must stay inside the grid.
  static func trustedLocators(grid: CurvilinearGrid, projection: MapProjection?, bytes: [UInt8]) -> [GridLocator] {
    var locators: [GridLocator] = []
    if let projection { locators.append(GridLocator(grid: grid, trusting: projection)) }
    let margin = Double(bytes.last ?? 0) / 256 * AnalyticLocator.largestMargin
    for (kind, margin) in [(UInt32(1), 0.0), (UInt32(2), margin)] {
      var index = Array("NWPLOCIX".utf8)
      func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { index += $0 } }
      append(UInt32(1))
      append(kind)
      append(UInt64(grid.width))
      append(UInt64(grid.height))
      append(margin.bitPattern)
      index += [UInt8](repeating: 0, count: 24)
      guard
        let decoded = index.withUnsafeBytes({
          try? LocatorIndex(decoding: $0, width: grid.width, height: grid.height)
        }),
        let locator = GridLocator(grid: grid, index: decoded, projection: projection)
      else { continue }
      locators.append(locator)
    }
    return locators
  }

  /// The most memory an ingest_dimensions case may plan for: well under libFuzzer's
  /// `-rss_limit_mb` (2 GiB), so that an estimate that is not an upper bound shows as an
  /// out-of-memory finding.
  static let dimensionsMaxMemory = 512 << 20

  /// ingest_dimensions: the input declares a grid (`DimensionsCase`, `DeclaredGrid`) in a tiny
  /// NetCDF-4 file, which is ingested under `dimensionsMaxMemory`.
  public static func ingestDimensions(_ bytes: [UInt8]) {
    let grid = DimensionsCase.grid(bytes)
    if verbose { FileHandle.standardError.write(Data("ingest_dimensions: \(grid)\n".utf8)) }
    let path = FuzzScratch.path("dimensions.nc")
    defer { FuzzScratch.remove("dimensions.nc") }
    // A length libnetcdf refuses to declare (0 for a fixed dimension is allowed; sizes
    // HDF5 cannot describe are not) is no ingest case.
    guard (try? grid.write(to: path)) != nil else { return }
    let store = FuzzScratch.path("store")
    defer { FuzzScratch.remove("store") }
    guard let report = try? Ingestor.run([path], options: .init(store: store, maxMemory: dimensionsMaxMemory))
    else { return }
    for published in report.published { CubeProbe.probe(published.path) }
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

  /// classic_header: the input is a classic-format NetCDF file (its header mutated, with
  /// the dictionary's magic numbers, tags and lengths). Whenever libnetcdf opens it, every
  /// float read through the header's layout (`ClassicLayout`) must give libnetcdf's values
  /// or fail as it does (`ClassicReadComparison`); a difference is a finding, as is a trap.
  public static func classicHeader(_ bytes: [UInt8]) {
    // Only the classic formats: an HDF5 file is libnetcdf's alone.
    guard bytes.starts(with: Array("CDF".utf8)), let path = FuzzScratch.write(bytes, to: "input.nc") else { return }
    guard let differences = try? ClassicReadComparison.differences(of: path), let first = differences.first else {
      return
    }
    fatalError("classic_header: \(differences.count) reads differ; the first: \(first)")
  }
}
