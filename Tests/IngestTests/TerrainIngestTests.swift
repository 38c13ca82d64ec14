import CubeFormat
import Foundation
import Ingest
import NetCDF
import PointQuery
import SampleRun
import Testing
import _TestSupport

/// The terrain section ingest writes from each convention's inputs, checked against the
/// variables read here with the netCDF wrapper, and the warnings when inputs are missing.
@Suite struct TerrainIngestTests {
  /// A 2-D field of a WRF file at its first time.
  static func wrfField(_ path: String, _ name: String) throws -> [Double] {
    let file = try NCFile.open(path)
    defer { file.close() }
    // With or without a Time dimension (the sample's HGT has none, its XLAND has one).
    let shape = try file.variable(name).shape
    let count = shape.count == 3 ? [1] + shape.suffix(2) : shape
    return try file.readUnpacked(name, start: count.map { _ in 0 }, count: count)
  }

  static func ingest(_ path: String, store: String) throws -> (file: CubeFile, warnings: [String]) {
    let report = try Ingestor.run([path], options: .init(store: store))
    return (try CubeFile(path: try #require(report.published.first).path), report.warnings)
  }

  @Test func wrfTerrainIsHGTAndLANDMASK() throws {
    let directory = SampleFiles.temporaryDirectory("terrain-wrf")
    defer { SampleFiles.remove(directory) }
    let (file, warnings) = try Self.ingest(SampleFiles.allvars, store: directory)
    let terrain = try #require(file.terrain)
    let heights = try Self.wrfField(SampleFiles.allvars, "HGT")
    let mask = try Self.wrfField(SampleFiles.allvars, "LANDMASK")
    #expect(terrain.heights == heights.map { Float($0) })
    #expect(terrain.landMask == mask.map { $0 == 1 ? 1 : 0 })
    #expect(Set(mask) == [0, 1], "the sample has both land and water")
    #expect(!warnings.contains { $0.contains("LANDMASK") || $0.contains("HGT in") }, "\(warnings)")
  }

  @Test func withoutLANDMASKTheMaskComesFromXLAND() throws {
    let directory = SampleFiles.temporaryDirectory("terrain-xland")
    defer { SampleFiles.remove(directory) }
    let copy = "\(directory)/wrfout_xland.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: copy, dropping: ["LANDMASK"])
    let (file, _) = try Self.ingest(copy, store: "\(directory)/store")
    let xland = try Self.wrfField(copy, "XLAND")
    let mask = try Self.wrfField(SampleFiles.allvars, "LANDMASK")
    #expect(Set(xland) == [1, 2])
    #expect(try #require(file.terrain).landMask == mask.map { $0 == 1 ? 1 : 0 })
  }

  @Test func missingTerrainInputsAreNamedWithWhatTheyCost() throws {
    let directory = SampleFiles.temporaryDirectory("terrain-missing")
    defer { SampleFiles.remove(directory) }
    let noMask = "\(directory)/wrfout_nomask.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: noMask, dropping: ["LANDMASK", "XLAND"])
    let (file, warnings) = try Self.ingest(noMask, store: "\(directory)/a")
    #expect(
      warnings.contains("no LANDMASK or XLAND in \(noMask): cell_selection=land/sea falls back to the nearest cell"),
      "\(warnings)")
    let terrain = try #require(file.terrain)
    #expect(terrain.landMask.allSatisfy { $0 == CubeTerrain.unknownMask })
    #expect(terrain.heights == (try Self.wrfField(SampleFiles.allvars, "HGT")).map { Float($0) })

    let noHeight = "\(directory)/wrfout_noheight.nc"
    try WRFFixture.copy(SampleFiles.allvars, to: noHeight, dropping: ["HGT"])
    let (withoutHeight, heightWarnings) = try Self.ingest(noHeight, store: "\(directory)/b")
    #expect(
      heightWarnings.contains(
        "no HGT in \(noHeight): elevation is unknown, and elevation= cannot correct temperature"),
      "\(heightWarnings)")
    #expect(try #require(withoutHeight.terrain).heights.allSatisfy(\.isNaN))

    // A GFS subset has neither: no section at all, as cubes were before it.
    let gfs = SampleFiles.grid("cf/gfs_1deg_subset.nc")
    let (cf, cfWarnings) = try Self.ingest(gfs, store: "\(directory)/c")
    #expect(!cf.hasTerrain)
    #expect(
      cfWarnings.contains(
        "no surface_altitude, orog or surface geopotential z in \(gfs): elevation is unknown, and elevation= cannot correct temperature"
      ), "\(cfWarnings)")
    #expect(
      cfWarnings.contains(
        "no land_binary_mask or lsm in \(gfs): cell_selection=land/sea falls back to the nearest cell"),
      "\(cfWarnings)")
  }

  @Test func mm5TerrainIsItsTerrainField() throws {
    let directory = SampleFiles.temporaryDirectory("terrain-mm5")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 2
    let path = "\(directory)/mm5_d01.nc"
    try SampleRunGenerator.writeMM5(spec, to: path)
    let (file, warnings) = try Self.ingest(path, store: "\(directory)/store")
    let source = try NCFile.open(path)
    defer { source.close() }
    let shape = try source.variable("terrain").shape
    let terrain = try source.readUnpacked("terrain", start: Array(repeating: 0, count: shape.count), count: shape)
    #expect(try #require(file.terrain).heights == terrain.map { Float($0) })
    #expect(
      warnings.contains("no landmask in \(path): cell_selection=land/sea falls back to the nearest cell"),
      "\(warnings)")
  }
}
