import Foundation
import PointQuery
import Testing
import _TestSupport

@testable import CubeFormat

/// Damage to each region of a version 3 cube — the record's fields, the band index, the
/// checksum table, a data block, the geometry, the terrain and the positions section — is
/// refused at open or reported by the read that meets it, each with its exact message.
@Suite struct Version3DamageTests {
  /// A damaged copy of a cube and the message it must give.
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    /// Changes the bytes; `cube` says where each part is.
    let damage: @Sendable (inout [UInt8], BandedCube) -> Void
    /// How the checksums are recomputed after the damage: the header's only, every one
    /// (the table too), or none.
    let reseal: CubeField.Sealing
    /// The reason (after "path: ") opening refuses it with; nil when it opens.
    let refusal: @Sendable (BandedCube) -> String?
    var testDescription: String { name }
  }

  static func set(_ value: UInt64, bytes: Int, at offset: Int, in cube: inout [UInt8]) {
    cube.set(littleEndian(value, count: bytes), at: offset)
  }

  /// The record's fields and the band index, each refused at open.
  static let refusedAtOpen: [Case] = [
    Case(
      name: "band cells not a power of two", damage: { set(3, bytes: 4, at: $1.record, in: &$0) },
      reseal: .headerOnly, refusal: { _ in "corrupted: band cells 3 is not a power of two" }),
    Case(
      name: "band count one more", damage: { set(UInt64($1.bandCount + 1), bytes: 4, at: $1.record + 4, in: &$0) },
      reseal: .headerOnly,
      refusal: {
        "corrupted: band count \($0.bandCount + 1) is not \($0.bandCount), the bands of \($0.bandCells) cells that 24 cells make, or more than 65536"
      }),
    Case(
      name: "checksum block bytes", damage: { set(4_096, bytes: 4, at: $1.record + 48, in: &$0) }, reseal: .headerOnly,
      refusal: { _ in "corrupted: checksum block bytes 4096 is not 65536" }),
    Case(
      name: "unknown geometry flag", damage: { set(4, bytes: 4, at: $1.record + 52, in: &$0) }, reseal: .headerOnly,
      refusal: { _ in "corrupted: geometry flags 0x4 set bits this build does not know (it knows 0x3)" }),
    Case(
      name: "reserved record bytes after the input convention",
      damage: { set(1, bytes: 4, at: $1.record + 76, in: &$0) }, reseal: .headerOnly,
      refusal: { _ in "corrupted: version 3 record bytes 76..<80 are reserved and not 0" }),
    Case(
      name: "reserved record bytes", damage: { set(1, bytes: 8, at: $1.record + 80, in: &$0) }, reseal: .headerOnly,
      refusal: { _ in "corrupted: version 3 record bytes 80..<88 are reserved and not 0" }),
    Case(
      name: "locator index without its flag", damage: { set(64, bytes: 8, at: $1.record + 56, in: &$0) },
      reseal: .headerOnly,
      refusal: { _ in
        "corrupted: locator index offset 64 and bytes 0 are not 0, though geometry flag bit 1 (a locator index) is clear"
      }),
    Case(
      name: "band index bytes", damage: { set(32, bytes: 8, at: $1.record + 16, in: &$0) }, reseal: .headerOnly,
      refusal: {
        "corrupted: band index bytes 32 is not \(16 * 3 * $0.bandCount), 16 for each of \($0.bandCount) bands × 3 metrics"
      }),
    Case(
      name: "checksum table offset",
      damage: { set(UInt64($1.checksumTableOffset - 64), bytes: 8, at: $1.record + 24, in: &$0) }, reseal: .headerOnly,
      refusal: {
        let covered = $0.checksumTableOffset - 64 - $0.geometryOffset
        let blocks = (covered + 65_535) / 65_536
        let table = $0.bytes.count - $0.checksumTableOffset
        return
          "corrupted: checksum table of \(table) bytes at \($0.checksumTableOffset - 64) is not the \(blocks * 8) bytes (\(blocks) blocks of the \(covered) bytes from the geometry) that end the file's \($0.bytes.count) bytes"
      }),
    Case(
      name: "checksum table byte", damage: { $0[$1.checksumTableOffset] ^= 1 }, reseal: .none,
      refusal: { _ in "corrupted: checksum table checksum mismatch" }),
    Case(
      name: "checksum table checksum", damage: { $0[$1.record + 40] ^= 1 }, reseal: .headerOnly,
      refusal: { _ in "corrupted: checksum table checksum mismatch" }),
    Case(
      name: "band index byte", damage: { $0[$1.bandIndexOffset + 3] ^= 1 }, reseal: .none,
      refusal: { $0.mismatch(holding: $0.bandIndexOffset) }),
    Case(
      name: "band index entry offset",
      damage: { set(UInt64($1.sections[3].offset + 64), bytes: 8, at: $1.bandIndexOffset + 48, in: &$0) },
      reseal: .all,
      refusal: {
        "corrupted: band index entry (band 1, metric 0) offset \($0.sections[3].offset + 64) is not \($0.sections[3].offset), the next multiple of 64 after the sub-section before it"
      }),
    Case(
      name: "band index entry bytes", damage: { set(8, bytes: 8, at: $1.bandIndexOffset + 8, in: &$0) }, reseal: .all,
      refusal: { _ in
        "corrupted: band index entry (band 0, metric 0) bytes 8 is not in 72…152, what a sub-section of 8 cells over 5 steps takes"
      }),
    Case(
      name: "geometry checksum field", damage: { bytes, _ in set(1, bytes: 8, at: 160, in: &bytes) },
      reseal: .headerOnly,
      refusal: { _ in "corrupted: geometry checksum field is not 0, as version 3 (which checksums blocks) requires" }),
    Case(
      name: "metric data offset", damage: { bytes, _ in set(64, bytes: 8, at: 256 + 64, in: &bytes) },
      reseal: .headerOnly,
      refusal: { _ in
        "corrupted: metric 0 (temp) data offset is not 0, as version 3 (whose data is found by the band index) requires"
      }),
    Case(
      name: "metric data bytes",
      damage: { bytes, _ in set(bytes.le(256 + 72, as: UInt64.self) + 1, bytes: 8, at: 256 + 72, in: &bytes) },
      reseal: .headerOnly,
      refusal: {
        let sum = $0.sections.enumerated().filter { $0.offset % 3 == 0 }.map(\.element.bytes).reduce(0, +)
        return "corrupted: metric 0 (temp) data bytes \(sum + 1) is not \(sum), the sum of its sub-sections"
      }),
    Case(
      name: "truncated", damage: { bytes, _ in bytes.removeLast(8) }, reseal: .none,
      refusal: { "truncated: the header says \($0.bytes.count) bytes, the file has \($0.bytes.count - 8)" }),
  ]

  /// Opens the damaged copy of SmallCube in three bands of 8 cells (one block holds it
  /// all), expecting its refusal or that it opens.
  @Test(arguments: refusedAtOpen)
  func damageToTheRecordOrBandIndexIsRefusedAtOpen(_ damage: Case) throws {
    let directory = SampleFiles.temporaryDirectory("v3-refused")
    defer { SampleFiles.remove(directory) }
    let cube = BandedCube(v2: try SmallCube.write(to: "\(directory)/v2.cube", version: 2), bandCells: 8)
    var bytes = cube.bytes
    damage.damage(&bytes, cube)
    switch damage.reseal {
    case .all: CubeFile.reseal(&bytes)
    case .headerOnly: CubeFile.reseal(&bytes, blocks: false)
    case .none: break
    }
    let path = try Version3ReaderTests.save(bytes, "damaged.cube", in: directory)
    let reason = try #require(damage.refusal(cube))
    #expect(throws: CubeError(path: path, reason: reason)) { try CubeFile(path: path, checksums: .headerOnly) }
    #expect(throws: CubeError(path: path, reason: reason)) { try CubeFile(path: path) }
  }

  /// A block of data, geometry or terrain changed in place: the cube opens, the read that
  /// meets the block fails naming it, and opening with every block verified refuses it.
  @Test(arguments: ["data", "geometry", "terrain"])
  func aDamagedBlockOpensAndFailsTheReadOfIt(region: String) throws {
    let directory = SampleFiles.temporaryDirectory("v3-block")
    defer { SampleFiles.remove(directory) }
    let (_, v2) = try Version3ReaderTests.version2(in: directory)
    let cube = BandedCube(v2: v2, bandCells: 4_096)
    let cells = Version3ReaderTests.cells
    // A cell's part of each region: its temp entry, its longitude, its height.
    func at(_ cell: Int) -> Int {
      switch region {
      case "data": cube.sections[cell / 4_096 * 3].offset + 8 * (cell % 4_096)
      case "geometry": cube.geometryOffset + 4 * cells + 4 * cell
      default: (cube.terrainOffset ?? 0) + 4 * cell
      }
    }
    // One whose block does not also hold the band index, which opening verifies.
    let indexBlock = cube.block(holding: cube.bandIndexOffset).index
    let cell = try #require(
      stride(from: 5_000, to: 0, by: -97).first { cube.block(holding: at($0)).index != indexBlock })
    let at = at(cell)
    var bytes = cube.bytes
    bytes[at + 1] ^= 0x10
    let path = try Version3ReaderTests.save(bytes, "damaged.cube", in: directory)
    let reason = cube.mismatch(holding: at)
    let file = try CubeFile(path: path, checksums: .headerOnly)
    #expect(file.withdrawal == nil)
    switch region {
    case "data": #expect(file.word(metric: 0, cell: cell, step: 3) == CubeMetric.missing)
    case "geometry": #expect(file.longitudes.allSatisfy { $0.isNaN })
    default: #expect(file.terrainHeight(cell: cell) == nil)
    }
    #expect(file.damage == CubeError(path: path, reason: reason) && file.withdrawal == .damaged)
    #expect(throws: CubeError(path: path, reason: reason)) { try CubeFile(path: path) }
  }

  /// Terrain outside its limits, with every checksum recomputed, reads as unknown: version
  /// 3 checks terrain when it is read, not at open.
  @Test func terrainOutsideItsLimitsReadsAsUnknown() throws {
    let directory = SampleFiles.temporaryDirectory("v3-terrain")
    defer { SampleFiles.remove(directory) }
    let cube = BandedCube(v2: try SmallCube.write(to: "\(directory)/v2.cube", version: 2), bandCells: 8)
    var bytes = cube.bytes
    let terrain = try #require(cube.terrainOffset)
    let cells = SmallCube.width * SmallCube.height
    Self.set(UInt64(Float(20_000).bitPattern), bytes: 4, at: terrain + 4 * 2, in: &bytes)
    bytes[terrain + 4 * cells + 4] = 7
    CubeFile.reseal(&bytes)
    let path = try Version3ReaderTests.save(bytes, "terrain.cube", in: directory)
    let file = try CubeFile(path: path)
    #expect(file.terrainHeight(cell: 2) == nil && file.isLand(cell: 4) == nil)
    #expect(file.terrain?.heights[2].isNaN == true && file.terrain?.landMask[4] == CubeTerrain.unknownMask)
    // Their neighbours read as stored.
    #expect(file.terrainHeight(cell: 1) == Double(1 * 125.5 - 20) && file.isLand(cell: 5) == true)
    #expect(!file.isDamaged)
  }

  /// A cell entry no writer could have stored, with every checksum recomputed: opening with
  /// every block verified refuses it, and a cube opened without reading it fails the read
  /// of its block, naming the cell.
  @Test func aCellEntryOutsideItsFrameFailsWhenItsBlockIsVerified() throws {
    let directory = SampleFiles.temporaryDirectory("v3-entry")
    defer { SampleFiles.remove(directory) }
    let (_, v2) = try Version3ReaderTests.version2(in: directory)
    let cube = BandedCube(v2: v2, bandCells: 4_096)
    var bytes = cube.bytes
    // Band 1 (cells 4 096…8 191), metric 1 (rain): cell 4 099's width set to 17.
    let entry = cube.sections[1 * 3 + 1].offset + 8 * 3
    bytes[entry + 6] = 17
    CubeFile.reseal(&bytes)
    let path = try Version3ReaderTests.save(bytes, "entry.cube", in: directory)
    let (block, range) = cube.block(holding: entry)
    let reason =
      "corrupted: checksum block \(block) (bytes \(range.lowerBound)..<\(range.upperBound)): band 1, metric 1: cell 3 of its band bit width 17 is not in 0…16"
    #expect(throws: CubeError(path: path, reason: reason)) { try CubeFile(path: path) }
    let queries = try Cube(path: path, checksums: .headerOnly)
    let cell = 4_099
    let location = try queries.locate(
      latitude: 38 + Double(cell / Version3ReaderTests.width) * 0.05,
      longitude: -9 + Double(cell % Version3ReaderTests.width) * 0.05, method: .nearest)
    #expect(throws: QueryError.unreadableCube("\(path): \(reason)")) {
      try queries.series(queries.metric("rain"), at: location, steps: 0..<Version3ReaderTests.steps)
    }
    #expect(queries.file.word(metric: 1, cell: cell, step: 0) == CubeMetric.missing)
    #expect(queries.file.damage == CubeError(path: path, reason: reason))
  }

  /// A moving grid's positions section: its step table is verified at open, a moved
  /// position's coordinates when read.
  @Test func damageToThePositionsSectionIsFoundWhereItIsRead() throws {
    let directory = SampleFiles.temporaryDirectory("v3-positions")
    defer { SampleFiles.remove(directory) }
    // Large enough that a position spans more than one block (and its terrain heights, the
    // place's number × 1.5 m, stay below 9 000 m).
    var moving = MovingCube()
    (moving.width, moving.height) = (100, 58)
    let v2 = try moving.write(to: "\(directory)/v2.cube")
    let cube = BandedCube(v2: v2, bandCells: 16_384)
    let start = try #require(cube.positionsOffset)
    func reason(_ offset: Int) -> String { cube.mismatch(holding: offset) }
    var table = cube.bytes
    table[start + 8 + 4 * 2] ^= 1
    let tablePath = try Version3ReaderTests.save(table, "table.cube", in: directory)
    #expect(throws: CubeError(path: tablePath, reason: reason(start + 16))) {
      try CubeFile(path: tablePath, checksums: .headerOnly)
    }
    // Position 2's last latitude, after the preamble, the step table, position 1 and the
    // cells before.
    let record = (13 * moving.cells + 7) / 8 * 8
    let last = start + 8 + (4 * moving.stepCount + 7) / 8 * 8 + record + 4 * (moving.cells - 1)
    var coordinates = cube.bytes
    coordinates[last] ^= 1
    let coordinatesPath = try Version3ReaderTests.save(coordinates, "coordinates.cube", in: directory)
    let file = try CubeFile(path: coordinatesPath, checksums: .headerOnly)
    #expect(file.positionCount == 3 && file.withdrawal == nil)
    #expect(file.latitudes(position: 2).allSatisfy { $0.isNaN })
    #expect(file.damage == CubeError(path: coordinatesPath, reason: reason(last)))
    #expect(file.latitudes(position: 0).allSatisfy { !$0.isNaN })
  }
}
