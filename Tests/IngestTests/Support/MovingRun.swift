import CubeFormat
import Foundation
import Ingest
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

/// A run's steps and coordinates, read straight from its files (one step a file).
struct NestFiles {
  let width: Int
  let height: Int
  /// Per step: coordinates, RAINC + RAINNC + RAINSH and T2.
  var latitudes: [[Float]] = []
  var longitudes: [[Float]] = []
  var rain: [[Double]] = []
  var t2: [[Double]] = []

  init(_ paths: [String]) throws {
    let first = try NCFile.open(paths[0])
    (width, height) = (first.dimension("west_east")?.length ?? 0, first.dimension("south_north")?.length ?? 0)
    first.close()
    for path in paths {
      let file = try NCFile.open(path)
      defer { file.close() }
      let count = [1, height, width]
      latitudes.append(try file.readFloats("XLAT", start: [0, 0, 0], count: count))
      longitudes.append(try file.readFloats("XLONG", start: [0, 0, 0], count: count))
      let parts = try ["RAINC", "RAINNC", "RAINSH"].map { try file.readRaw($0, start: [0, 0, 0], count: count) }
      rain.append((0..<(width * height)).map { parts[0][$0] + parts[1][$0] + parts[2][$0] })
      t2.append(try file.readRaw("T2", start: [0, 0, 0], count: count))
    }
  }

  /// The cell of `step` whose coordinates are exactly those of `cell` at `other`, if any.
  func cell(at step: Int, samePlaceAs cell: Int, of other: Int) -> Int? {
    let place = (latitudes[other][cell], longitudes[other][cell])
    return latitudes[step].indices.first { latitudes[step][$0] == place.0 && longitudes[step][$0] == place.1 }
  }
}

/// The sample run of `hours` hours with its moving nest, written into `directory`.
func nestedRun(hours: Int, in directory: String) throws -> (d01: [String], d02: [String]) {
  var spec = SampleRunSpec.portugal9km
  spec.hours = hours
  spec.nest = .coastalStorm
  let paths = try SampleRunGenerator.write(spec, to: directory)
  return (paths.filter { $0.contains("wrfout_d01_") }, paths.filter { $0.contains("wrfout_d02_") })
}

/// The 24-hour sample run with its moving nest, ingested once for the tests that read
/// it: the nest's files read into memory and its cube kept open (mapped), so that the
/// files can go at once.
struct MovingRun: Sendable {
  let files: NestFiles
  /// HGT per step.
  let heights: [[Float]]
  let report: Ingestor.Report
  let d02: CubeFile
  /// The size of d02's cube file, read before the file went (its mapping stays).
  let d02Size: Int
  let d01Positions: Int
  /// d01's files, and both domains' cubes as queries open them (mapped).
  let parent: NestFiles
  let cubes: [Cube]

  static let shared = Result { () throws -> MovingRun in
    let directory = SampleFiles.temporaryDirectory("moving-run")
    defer { SampleFiles.remove(directory) }
    let run = try nestedRun(hours: 24, in: "\(directory)/run")
    let report = try Ingestor.run(run.d01 + run.d02, options: .init(store: "\(directory)/store"))
    let files = try NestFiles(run.d02)
    let heights = try run.d02.map { path in
      let file = try NCFile.open(path)
      defer { file.close() }
      return try file.readFloats("HGT", start: [0, 0, 0], count: [1, files.height, files.width])
    }
    func cube(_ domain: String) throws -> CubeFile {
      try CubeFile(path: try #require(report.published.first { $0.domain == domain }).path)
    }
    let d02 = try cube("d02")
    let size = try FileManager.default.attributesOfItem(atPath: d02.path)[.size] as? Int ?? 0
    return MovingRun(
      files: files, heights: heights, report: report, d02: d02, d02Size: size,
      d01Positions: try cube("d01").positionCount, parent: try NestFiles(run.d01),
      cubes: try report.published.map { try Cube(path: $0.path) })
  }
}
