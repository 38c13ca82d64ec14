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

  /// A small ERA5-style CF file: 2 m temperature plus, as `geopotential` says, a surface
  /// geopotential `z` (time, lat, lon) or an orography `orog` (lat, lon), and a land-sea
  /// mask `lsm` (a fraction).
  static func writeCF(_ path: String, geopotential: Bool) throws -> (heights: [Double], fractions: [Double]) {
    let (lats, lons) = ([44.0, 43, 42, 41], [350.0, 351, 352, 353, 354])
    let file = try NCFile.create(path, format: .netcdf4)
    defer { file.close() }
    try defineCFAxes(
      file, latitudes: lats.count, longitudes: lons.count, timeUnits: "hours since 1900-01-01 00:00:00.0")
    try file.defineVariable("t2m", type: .float, dimensions: ["time", "latitude", "longitude"])
    try file.setAttribute("units", .text("K"), on: "t2m")
    let height = geopotential ? "z" : "orog"
    try file.defineVariable(
      height, type: .float, dimensions: geopotential ? ["time", "latitude", "longitude"] : ["latitude", "longitude"])
    try file.setAttribute("units", .text(geopotential ? "m**2 s**-2" : "m"), on: height)
    if !geopotential { try file.setAttribute("standard_name", .text("surface_altitude"), on: height) }
    try file.defineVariable("lsm", type: .float, dimensions: ["time", "latitude", "longitude"])
    try file.setAttribute("units", .text("(0 - 1)"), on: "lsm")
    try file.endDefinitions()
    try file.write("latitude", start: [0], count: [4], lats)
    try file.write("longitude", start: [0], count: [5], lons)
    try file.write("time", start: [0], count: [2], [1_105_224.0, 1_105_225])
    try file.write("t2m", start: [0, 0, 0], count: [2, 4, 5], (0..<40).map { 280 + Double($0) * 0.1 })
    // Step 0 is what ingest reads; step 1 differs, so that reading it would show.
    let heights = (0..<20).map { Double($0) * 123.45 }
    let fractions = (0..<20).map { Double($0 % 4) * 0.25 }
    try file.write(
      height, start: geopotential ? [0, 0, 0] : [0, 0], count: geopotential ? [2, 4, 5] : [4, 5],
      geopotential ? heights + heights.map { $0 + 1 } : heights)
    try file.write("lsm", start: [0, 0, 0], count: [2, 4, 5], fractions + fractions.map { 1 - $0 })
    return (heights, fractions)
  }

  @Test func cfTerrainIsOrographyOrGeopotentialOverGAndTheLandSeaMask() throws {
    let directory = SampleFiles.temporaryDirectory("terrain-cf")
    defer { SampleFiles.remove(directory) }
    for geopotential in [true, false] {
      let path = "\(directory)/era5-\(geopotential).nc"
      let (heights, fractions) = try Self.writeCF(path, geopotential: geopotential)
      let (file, warnings) = try Self.ingest(path, store: "\(directory)/store-\(geopotential)")
      let terrain = try #require(file.terrain)
      // The file holds single precision: its values are what is divided by g.
      let expected = heights.map { Float(Double(Float($0)) / (geopotential ? 9.80665 : 1)) }
      #expect(terrain.heights == expected, "\(geopotential)")
      // 0.5 and above is land: the fractions are 0, 0.25, 0.5, 0.75 in turn.
      #expect(terrain.landMask == fractions.map { $0 >= 0.5 ? 1 : 0 })
      #expect(!warnings.contains { $0.contains("lsm") || $0.contains("orog") }, "\(warnings)")
    }
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
