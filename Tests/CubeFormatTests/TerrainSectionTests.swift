import CubeFormat
import Foundation
import Testing
import _TestSupport

/// The terrain section: written after the data blocks without moving them, read back as
/// written, verified like every other block, and absent from cubes written without it.
@Suite struct TerrainSectionTests {
  /// SmallCube's terrain, computed here as SmallCube documents it.
  static func expectedHeight(_ cell: Int) -> Float { cell == 3 ? .nan : Float(cell % SmallCube.width) * 125.5 - 20 }
  static func expectedMask(_ cell: Int) -> UInt8 { cell == 7 ? 255 : (cell % SmallCube.width < 3 ? 0 : 1) }

  @Test func terrainReadsBackAsWritten() throws {
    let directory = SampleFiles.temporaryDirectory("terrain")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/with.cube"
    _ = try SmallCube.write(to: path)
    let file = try CubeFile(path: path)
    #expect(file.hasTerrain)
    for cell in 0..<(SmallCube.width * SmallCube.height) {
      let height = Self.expectedHeight(cell)
      #expect(file.terrainHeight(cell: cell) == (height.isNaN ? nil : Double(height)), "cell \(cell)")
      let mask = Self.expectedMask(cell)
      #expect(file.isLand(cell: cell) == (mask == 255 ? nil : mask == 1), "cell \(cell)")
    }
  }

  @Test func aCubeWithoutTerrainIsUnchangedAndReadsAsUnknown() throws {
    let directory = SampleFiles.temporaryDirectory("terrain")
    defer { SampleFiles.remove(directory) }
    let with = try SmallCube.write(to: "\(directory)/with.cube")
    let without = try SmallCube.write(to: "\(directory)/without.cube", terrain: false)
    let file = try CubeFile(path: "\(directory)/without.cube")
    #expect(!file.hasTerrain)
    #expect(file.terrain == nil)
    #expect(file.terrainHeight(cell: 0) == nil && file.isLand(cell: 0) == nil)
    // Without terrain the flags and the terrain fields are the zeros of the reserved
    // fields they replace: the cube is what this writer wrote before the section existed.
    #expect(without[76..<80].allSatisfy { $0 == 0 } && without[224..<256].allSatisfy { $0 == 0 })
    // With it, everything after the header is the same bytes at the same offsets, and the
    // section follows on the next 64-byte boundary: 5 bytes per cell.
    let headerBytes = 256 + 96 * SmallCube.names.count
    #expect(Array(with[headerBytes..<without.count]) == Array(without[headerBytes...]))
    let terrainOffset = (without.count + 63) / 64 * 64
    #expect(with.count == terrainOffset + 5 * SmallCube.width * SmallCube.height)
    // The header differs only in the file size, the flags, the terrain fields and the
    // header checksum.
    let differing = (0..<headerBytes).filter { with[$0] != without[$0] }
    let allowed = Set(Array(16..<24) + Array(76..<80) + Array(168..<176) + Array(224..<248))
    #expect(differing.allSatisfy(allowed.contains), "\(differing)")
    #expect(with.le(76, as: UInt32.self) == 1)
    #expect(with.le(224, as: UInt64.self) == UInt64(terrainOffset))
    #expect(with.le(232, as: UInt64.self) == UInt64(5 * SmallCube.width * SmallCube.height))
  }

  /// A cube altered as `change` says and resealed is refused with `reason`.
  func refusal(_ reason: String, resealBlocks: Bool = true, _ change: (inout [UInt8], Int) -> Void) throws {
    let directory = SampleFiles.temporaryDirectory("terrain")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/altered.cube"
    var bytes = try SmallCube.write(to: path)
    change(&bytes, Int(bytes.le(224, as: UInt64.self)))
    CubeFile.reseal(&bytes, blocks: resealBlocks)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try CubeFile(path: path)
    } throws: { error in
      (error as? CubeError)?.description == "\(path): \(reason)"
    }
  }

  @Test func aMaskByteOutsideItsValuesIsRefused() throws {
    try refusal("corrupted: land mask 2 is not 0 (water), 1 (land) or 255 (unknown) at cell 4") { bytes, offset in
      bytes[offset + 4 * SmallCube.width * SmallCube.height + 4] = 2
    }
  }

  @Test func aHeightOutsideItsRangeIsRefused() throws {
    try refusal("corrupted: terrain height 20000.0 m is not in -1000.0…9000.0 m or NaN at cell 5") { bytes, offset in
      bytes.set(littleEndian(UInt64(Float(20_000).bitPattern), count: 4), at: offset + 4 * 5)
    }
    try refusal("corrupted: terrain height inf m is not in -1000.0…9000.0 m or NaN at cell 0") { bytes, offset in
      bytes.set(littleEndian(UInt64(Float.infinity.bitPattern), count: 4), at: offset)
    }
  }

  @Test func aChangedSectionFailsItsChecksum() throws {
    try refusal("corrupted: terrain checksum mismatch", resealBlocks: false) { bytes, offset in
      bytes[offset + 4 * SmallCube.width * SmallCube.height] = 1
    }
  }

  @Test func unknownFlagsAndMisplacedSectionsAreRefused() throws {
    try refusal(
      "corrupted: flags 0x5 set bits this build does not know (it knows 0x3, the terrain and positions sections)"
    ) { bytes, _ in bytes[76] = 5 }
    try refusal("corrupted: terrain offset 64 is not \(try Self.terrainOffset()), where the terrain section starts") {
      bytes, _ in bytes.set(littleEndian(64, count: 8), at: 224)
    }
    let cells = SmallCube.width * SmallCube.height
    try refusal("corrupted: terrain bytes 5 is not \(5 * cells), 5 bytes for each of \(cells) cells") { bytes, _ in
      bytes.set(littleEndian(5, count: 8), at: 232)
    }
    // The flag cleared on a cube that has the section: the file is longer than its layout.
    let sections = try Self.sectionBytes().map(String.init).joined(separator: ", ")
    try refusal(
      "corrupted: shape 6×4×5 with 3 metrics and data sections of \(sections) bytes does not match the file's \(try Self.fileBytes()) bytes"
    ) { bytes, _ in bytes[76] = 0 }
  }

  @Test func theWriterRefusesTerrainThatDoesNotFit() throws {
    let directory = SampleFiles.temporaryDirectory("terrain")
    defer { SampleFiles.remove(directory) }
    let header = CubeHeader(
      width: 2, height: 2, stepCount: 1, firstTime: 1_750_000_000, stepSeconds: 3600, runStart: 1_750_000_000,
      model: "wrf", domain: "d01", gridSpacing: 0, projection: CubeProjection(code: 0, parameters: []),
      metrics: [CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150)])
    let path = "\(directory)/refused.cube"
    for (terrain, reason) in [
      (
        CubeTerrain(heights: [0, 0, 0], landMask: [0, 0, 0, 0]), "3 terrain heights and 4 land-mask values for 4 cells"
      ),
      (
        CubeTerrain(heights: [0, 0, 0, 0], landMask: [0, 3, 0, 0]),
        "land mask 3 is not 0 (water), 1 (land) or 255 (unknown) at cell 1"
      ),
    ] {
      #expect {
        _ = try CubeWriter(
          header: header, latitudes: [0, 0, 1, 1], longitudes: [0, 1, 0, 1], terrain: terrain, destination: path)
      } throws: { error in
        (error as? CubeError)?.description == "\(path): cannot write: \(reason)"
      }
    }
  }

  static func fileBytes() throws -> Int {
    let directory = SampleFiles.temporaryDirectory("terrain")
    defer { SampleFiles.remove(directory) }
    return try SmallCube.write(to: "\(directory)/size.cube").count
  }

  /// The sizes of SmallCube's data sections, from its metric table.
  static func sectionBytes() throws -> [UInt64] {
    let directory = SampleFiles.temporaryDirectory("terrain")
    defer { SampleFiles.remove(directory) }
    let bytes = try SmallCube.write(to: "\(directory)/size.cube")
    return (0..<SmallCube.names.count).map { bytes.le(256 + 96 * $0 + 72, as: UInt64.self) }
  }

  static func terrainOffset() throws -> Int {
    let directory = SampleFiles.temporaryDirectory("terrain")
    defer { SampleFiles.remove(directory) }
    return (try SmallCube.write(to: "\(directory)/size.cube", terrain: false).count + 63) / 64 * 64
  }
}
