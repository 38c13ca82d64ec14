import CubeFormat
import Foundation
import Ingest
import NetCDF
import _TestSupport

/// Writes a target's generated seeds (Fuzz/Corpus is committed; this is how its binary
/// files were made): `NWPCUBE_FUZZ_WRITE_SEEDS=DIR` makes a fuzz binary write its seeds
/// into DIR and exit instead of fuzzing.
public enum FuzzSeeds {
  /// Called from each target's `LLVMFuzzerInitialize`.
  public static func writeIfAsked(_ target: String) {
    guard let directory = ProcessInfo.processInfo.environment["NWPCUBE_FUZZ_WRITE_SEEDS"] else { return }
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let seeds: [String: [UInt8]]
    switch target {
    case "cube_open", "cube_resealed": seeds = cubes()
    case "locator_build": seeds = locators()
    case "ingest_dimensions": seeds = dimensions()
    case "classic_header": seeds = classicFiles()
    default: seeds = scripts()
    }
    for (name, bytes) in seeds.sorted(by: { $0.key < $1.key }) {
      _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(bytes))
    }
    print("wrote \(seeds.count) seeds for \(target) into \(directory)")
    exit(0)
  }

  /// A cube of each kind of locator: the three templates ingested (Lambert WRF, MM5 and a
  /// CF lattice), and a 2 × 2 cube with one metric and one step, the smallest there is.
  static func cubes() -> [String: [UInt8]] {
    var seeds: [String: [UInt8]] = [:]
    let store = FuzzScratch.path("seed-store")
    defer { FuzzScratch.remove("seed-store") }
    for name in MetadataTemplates.names {
      let path = FuzzScratch.path("seed-\(name).nc")
      guard let template = MetadataTemplates.named(name), (try? template.write(to: path)) != nil,
        let report = try? Ingestor.run([path], options: .init(store: store, model: name)),
        let published = report.published.first,
        let data = FileManager.default.contents(atPath: published.path)
      else {
        print("could not make the \(name) seed cube")
        continue
      }
      seeds["\(name).cube"] = Array(data)
    }
    let header = CubeHeader(
      width: 2, height: 2, stepCount: 1, firstTime: 1_782_000_000, stepSeconds: 3600, runStart: 1_782_000_000,
      model: "tiny", domain: "d01", gridSpacing: 1000,
      projection: CubeProjection(code: 0, parameters: Array(repeating: .nan, count: 8)),
      metrics: [CubeMetric(name: "temp", unit: "C", temporal: 0, scale: 0.01, offset: -100)])
    let path = FuzzScratch.path("seed-tiny.cube")
    if let writer = try? CubeWriter(
      header: header, latitudes: [40, 40, 41, 41], longitudes: [-9, -8, -9, -8],
      terrain: CubeTerrain(heights: [0, 120.5, .nan, 800], landMask: [0, 1, 1, CubeTerrain.unknownMask]),
      destination: path)
    {
      writer.write(metric: 0, step: 0, values: [10, 11, 12, 13])
      if (try? writer.publish()) != nil, let data = FileManager.default.contents(atPath: path) {
        seeds["tiny.cube"] = Array(data)
      }
    }
    seeds.merge(movingCubes()) { first, _ in first }
    seeds.merge(version3(seeds)) { first, _ in first }
    return seeds
  }

  /// Version 3 forms of the version 2 seeds (docs/cube-format.md, *Version 3*): in one band
  /// and in several, so that mutations reach the record, the band index, the checksum
  /// table and sub-sections of more than one band.
  static func version3(_ seeds: [String: [UInt8]]) -> [String: [UInt8]] {
    var made: [String: [UInt8]] = [:]
    let forms: [(seed: String, name: String, bandCells: Int, checked: Bool)] = [
      ("tiny.cube", "tiny-v3.cube", 4, true), ("tiny.cube", "tiny-v3-bands.cube", 1, false),
      ("moving.cube", "moving-v3-bands.cube", 4, false), ("wrf.cube", "wrf-v3-bands.cube", 32, true),
    ]
    for form in forms {
      // Only a version 2 seed converts (a seed written by a version 3 build is one already).
      guard let v2 = seeds[form.seed], v2.count > 12, v2[8] == 2 else { continue }
      made[form.name] = BandedCube(v2: v2, bandCells: form.bandCells, projectionChecked: form.checked).bytes
    }
    return made
  }

  /// Cubes whose grid moves (docs/cube-format.md, *Positions*): 4 × 3 cells, 6 steps over
  /// 3 positions shifted by whole cells, version 2 with terrain and version 1 without, so
  /// that mutations reach the positions section's count, step table, coordinates and
  /// terrain.
  static func movingCubes() -> [String: [UInt8]] {
    var seeds: [String: [UInt8]] = [:]
    let (width, height) = (4, 3)
    let header = CubeHeader(
      width: width, height: height, stepCount: 6, firstTime: 1_782_000_000, stepSeconds: 3600,
      runStart: 1_782_000_000, model: "wrf", domain: "d02", gridSpacing: 3000,
      projection: CubeProjection(code: 0, parameters: Array(repeating: .nan, count: 8)),
      metrics: [
        CubeMetric(name: "temp", unit: "C", temporal: 0, scale: 0.01, offset: -100),
        CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.1, offset: 0),
      ])
    // Position p is the base lattice of 0.03° moved p cells east and p cells north.
    func grid(_ shift: Int, terrain: Bool) -> CubeGrid {
      let cells = (0..<(width * height)).map { (i: $0 % width + shift, j: $0 / width + shift) }
      return CubeGrid(
        latitudes: cells.map { Float(25 + 0.03 * Double($0.j)) },
        longitudes: cells.map { Float(-90 + 0.03 * Double($0.i)) },
        terrain: terrain
          ? CubeTerrain(
            heights: cells.map { $0.i == 2 ? .nan : Float($0.i * 10 + $0.j) },
            landMask: cells.map { $0.j == 1 ? CubeTerrain.unknownMask : UInt8($0.i % 2) }) : nil)
    }
    for (name, terrain, version) in [("moving.cube", true, UInt32(2)), ("moving-v1-bare.cube", false, 1)] {
      let path = FuzzScratch.path("seed-\(name)")
      guard
        let writer = try? CubeWriter(
          header: header, positions: (0..<3).map { grid($0, terrain: terrain) }, stepPositions: [0, 1, 1, 0, 2, 2],
          destination: path, formatVersion: version)
      else { continue }
      for step in 0..<header.stepCount {
        writer.write(metric: 0, step: step, values: (0..<(width * height)).map { 20 + Double($0 + step) * 0.1 })
        writer.write(metric: 1, step: step, values: (0..<(width * height)).map { Double(($0 * step) % 4) })
      }
      if (try? writer.publish()) != nil, let data = FileManager.default.contents(atPath: path) {
        seeds[name] = Array(data)
      }
    }
    return seeds
  }

  /// The classic layout's fixture (`ClassicReadComparison.writeFixture`) in each classic
  /// format, with and without a lone record variable: about 2.5 KB each.
  static func classicFiles() -> [String: [UInt8]] {
    var seeds: [String: [UInt8]] = [:]
    for (format, name) in [(NCFormat.classic, "cdf1"), (.classic64BitOffset, "cdf2"), (.cdf5, "cdf5")] {
      for loneRecord in [false, true] {
        let file = "\(name)\(loneRecord ? "-lone-record" : "").nc"
        let path = FuzzScratch.path("seed-\(file)")
        defer { FuzzScratch.remove("seed-\(file)") }
        guard (try? ClassicReadComparison.writeFixture(path, format: format, loneRecord: loneRecord)) != nil,
          let data = FileManager.default.contents(atPath: path)
        else {
          print("could not make the \(file) seed")
          continue
        }
        seeds[file] = Array(data)
      }
    }
    return seeds
  }

  /// The binary form of a metadata script, one harmless change per template (the text
  /// seeds are written by hand): WRF's GRID_ID set to 1, CF's time calendar emptied, MM5's
  /// grid_ds set to 99.
  static func scripts() -> [String: [UInt8]] {
    let payload = [UInt8](repeating: 0, count: 8)
    return [
      "binary-wrf": [0, 1, 0, 5] + payload, "binary-cf": [1, 1, 4, 23] + payload,
      "binary-mm5": [2, 1, 7, 7] + payload,
    ]
  }

  /// Grids from the sample's size to the issue's 40,000 × 40,000 and 2^31 − 1 on a side,
  /// with and without 3-D fields (`DimensionsCase`).
  static func dimensions() -> [String: [UInt8]] {
    func le(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    func input(_ width: UInt32, _ height: UInt32, _ levels: UInt32, steps: UInt8, flags: UInt8) -> [UInt8] {
      le(width) + le(height) + le(levels) + [steps, flags]
    }
    return [
      "sample-10x8x27": input(10, 8, 27, steps: 3, flags: 3),
      "huge-40000x40000": input(40_000, 40_000, 1, steps: 0, flags: 0),
      "huge-levels": input(100, 100, 0x7FFF_FFFF, steps: 0, flags: 2),
      "huge-2e31-sides": input(0x7FFF_FFFF, 0x7FFF_FFFF, 0x7FFF_FFFF, steps: 3, flags: 3),
    ]
  }

  /// One input per mode and projection kind (see `LocatorCase`), plus a lattice with a
  /// cell moved to 0, 0.
  static func locators() -> [String: [UInt8]] {
    func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
    func scaled(_ fraction: Double) -> [UInt8] { le(UInt16(fraction * Double(UInt16.max))) }
    var seeds: [String: [UInt8]] = [:]
    // 3 × 3 raw coordinates around Lisbon.
    var raw: [UInt8] = [2, 2, 0]
    for cell in 0..<9 {
      raw += le(Float(38.5 + 0.1 * Double(cell / 3)).bitPattern) + le(Float(-9.3 + 0.1 * Double(cell % 3)).bitPattern)
    }
    seeds["raw-3x3"] = raw + [0, 0]
    // A 12 × 10 lattice of 0.25°, then the same with one cell at 0, 0.
    let lattice: [UInt8] = [11, 9, 1] + scaled(0.7) + scaled(0.49) + scaled(0.525) + scaled(0.525)
    seeds["lattice-12x10"] = lattice + [0, 0]
    seeds["lattice-12x10-zero-cell"] =
      lattice + [1] + le(UInt16(57)) + le(Float(0).bitPattern) + le(Float(0).bitPattern) + [0]
    // 20 × 16 grids of each projection kind, handed to the locator with their projection.
    for (kind, name) in ["lambert", "polar", "mercator", "latlon"].enumerated() {
      let truelat = kind == 1 ? scaled(0.95) : scaled(0.8)
      let parameters = truelat + scaled(0.85) + scaled(0.48) + [0] + scaled(0.05)
      seeds["projected-\(name)-20x16"] =
        [19, 15, 2, UInt8(kind)] + parameters + scaled(0.72) + scaled(0.47) + [0, 1]
        + scaled(0.7) + scaled(0.49)
    }
    return seeds
  }
}
