import CubeFormat
import Foundation
import Testing
import _TestSupport

/// Every way a positions section can be wrong, each refused on open with one line naming
/// the file and the problem; the checksums are recomputed after each change
/// (`CubeFile.reseal`) unless the change is to a checksum, so that the checks behind them
/// are what is tested. And what the writer refuses to write.
@Suite struct PositionsRefusalTests {
  /// The default moving cube (6 × 4 cells, 7 steps, 3 positions, with terrain).
  static let cube = MovingCube()
  static let cells = cube.cells

  /// The layout of the default cube's section, computed from docs/cube-format.md.
  struct Section {
    let start: Int
    var table: Int { start + 8 }
    /// Where moved position `position` (1 or 2) starts.
    func position(_ position: Int) -> Int { start + 8 + 32 + (position - 1) * ((13 * cells + 7) / 8 * 8) }
  }

  /// The default cube's bytes, written once per call into `directory`.
  static func bytes(in directory: String) throws -> (bytes: [UInt8], section: Section) {
    let bytes = try cube.write(to: "\(directory)/base.cube")
    return (bytes, Section(start: RawCube(bytes).positionsOffset))
  }

  /// The cube altered as `change` says, with the header's file size following the bytes,
  /// resealed, is refused with `reason`.
  func refusal(_ reason: String, resealBlocks: Bool = true, _ change: (inout [UInt8], Section) -> Void) throws {
    let directory = SampleFiles.temporaryDirectory("positions-refused")
    defer { SampleFiles.remove(directory) }
    var (bytes, section) = try Self.bytes(in: directory)
    change(&bytes, section)
    bytes.set(littleEndian(UInt64(bytes.count), count: 8), at: 16)
    CubeFile.reseal(&bytes, blocks: resealBlocks)
    let path = "\(directory)/altered.cube"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try CubeFile(path: path)
    } throws: { error in
      (error as? CubeError)?.description == "\(path): \(reason)"
    }
  }

  static func float(_ value: Float) -> [UInt8] { littleEndian(UInt64(value.bitPattern), count: 4) }

  @Test func aStepIndexOutOfRangeIsRefused() throws {
    try refusal("corrupted: step 3 uses position 3, not one of the 3 positions") { bytes, section in
      bytes.set(littleEndian(3, count: 4), at: section.table + 4 * 3)
    }
    try refusal("corrupted: step 6 uses position 4294967295, not one of the 3 positions") { bytes, section in
      bytes.set(littleEndian(0xFFFF_FFFF, count: 4), at: section.table + 4 * 6)
    }
  }

  @Test func aTableOutOfOrderOfFirstUseIsRefused() throws {
    // 0 0 1 1 0 2 2 → 0 0 2 1 …: position 2 used before position 1.
    try refusal(
      "corrupted: step 2 uses position 2 before position 1 (positions are numbered in order of first use)"
    ) { bytes, section in bytes.set(littleEndian(2, count: 4), at: section.table + 4 * 2) }
    try refusal(
      "corrupted: step 0 uses position 1 before position 0 (positions are numbered in order of first use)"
    ) { bytes, section in bytes.set(littleEndian(1, count: 4), at: section.table) }
    // 0 0 1 1 0 1 1: position 2 is stored but no step uses it.
    try refusal("corrupted: no step uses position 2 of the 3 positions") { bytes, section in
      for step in 5...6 { bytes.set(littleEndian(1, count: 4), at: section.table + 4 * step) }
    }
  }

  @Test func aCountOutsideItsLimitsIsRefused() throws {
    let limits = "is not in 2…65535, as a positions section (flag bit 1) requires"
    try refusal("corrupted: position count 1 \(limits)") { bytes, section in
      bytes.set(littleEndian(1, count: 4), at: section.start)
    }
    try refusal("corrupted: position count 0 \(limits)") { bytes, section in
      bytes.set(littleEndian(0, count: 4), at: section.start)
    }
    try refusal("corrupted: position count 65536 \(limits)") { bytes, section in
      bytes.set(littleEndian(65_536, count: 4), at: section.start)
    }
    try refusal("corrupted: position count 8 is more than the 7 steps, each of which uses one") { bytes, section in
      bytes.set(littleEndian(8, count: 4), at: section.start)
    }
  }

  @Test func aSectionOfTheWrongSizeIsRefused() throws {
    let record = (13 * Self.cells + 7) / 8 * 8
    let size = 8 + 32 + 2 * record
    let expected = "is not \(size), the size of 3 positions of \(Self.cells) cells with terrain over 7 steps"
    // Truncated in the step table, in a position, and by one byte; then one byte long.
    for cut in [8 + 12, 8 + 32 + record + 10, size - 1] {
      try refusal("corrupted: positions section of \(cut) bytes \(expected)") { bytes, section in
        bytes.removeLast(bytes.count - (section.start + cut))
      }
    }
    try refusal("corrupted: positions section of \(size + 1) bytes \(expected)") { bytes, _ in bytes.append(0) }
    // A count that does not match the positions stored.
    try refusal(
      "corrupted: positions section of \(size) bytes is not \(8 + 32 + record), the size of 2 positions of \(Self.cells) cells with terrain over 7 steps"
    ) { bytes, section in bytes.set(littleEndian(2, count: 4), at: section.start) }
    // A whole extra position, counted but used by no step.
    try refusal("corrupted: no step uses position 3 of the 4 positions") { bytes, section in
      bytes += [UInt8](repeating: 0, count: record)
      bytes.set(littleEndian(4, count: 4), at: section.start)
    }
  }

  @Test func aChangedSectionFailsItsChecksum() throws {
    try refusal("corrupted: positions checksum mismatch", resealBlocks: false) { bytes, section in
      bytes[section.position(2) + 5] ^= 1
    }
    try refusal("corrupted: positions checksum mismatch", resealBlocks: false) { bytes, _ in
      bytes[248] ^= 1
    }
  }

  @Test func coordinatesThatAreNotFiniteOrOutOfRangeAreRefused() throws {
    try refusal("corrupted: position 1 latitude nan is not a finite number in -90.0…90.0 at cell 3") {
      bytes, section in bytes.set(Self.float(.nan), at: section.position(1) + 4 * 3)
    }
    try refusal("corrupted: position 2 latitude 90.5 is not a finite number in -90.0…90.0 at cell 0") {
      bytes, section in bytes.set(Self.float(90.5), at: section.position(2))
    }
    try refusal("corrupted: position 2 longitude inf is not a finite number in -360.0…360.0 at cell 23") {
      bytes, section in bytes.set(Self.float(.infinity), at: section.position(2) + 4 * (Self.cells + 23))
    }
  }

  @Test func badTerrainInAMovedPositionIsRefused() throws {
    try refusal("corrupted: position 2 terrain height 20000.0 m is not in -1000.0…9000.0 m or NaN at cell 5") {
      bytes, section in bytes.set(Self.float(20_000), at: section.position(2) + 4 * (2 * Self.cells + 5))
    }
    try refusal("corrupted: position 1 land mask 2 is not 0 (water), 1 (land) or 255 (unknown) at cell 9") {
      bytes, section in bytes[section.position(1) + 12 * Self.cells + 9] = 2
    }
  }

  @Test func theFlagMustMatchTheFile() throws {
    let directory = SampleFiles.temporaryDirectory("positions-refused")
    defer { SampleFiles.remove(directory) }
    let raw = RawCube(try Self.bytes(in: directory).bytes)
    let sizes = (0..<2).map { String(raw.dataBytes($0)) }.joined(separator: ", ")
    // Cleared on a moving cube: the file is longer than its layout.
    try refusal(
      "corrupted: shape 6×4×7 with 2 metrics and a terrain section and data sections of \(sizes) bytes does not match the file's \(raw.bytes.count) bytes"
    ) { bytes, _ in bytes[76] = 1 }
    // Set on a cube whose file ends where the section would start.
    try refusal(
      "corrupted: shape 6×4×7 with 2 metrics and a terrain section and a positions section and data sections of \(sizes) bytes does not match the file's \(raw.positionsOffset + 4) bytes"
    ) { bytes, section in bytes.removeLast(bytes.count - (section.start + 4)) }
  }

  @Test func theHeaderAloneReadsAMovingCube() throws {
    let directory = SampleFiles.temporaryDirectory("positions")
    defer { SampleFiles.remove(directory) }
    _ = try Self.bytes(in: directory)
    let path = "\(directory)/base.cube"
    #expect(try CubeFile.header(path: path) == (try CubeFile(path: path)).header)
  }

  @Test func theWriterRefusesPositionsAReaderWouldRefuse() throws {
    let directory = SampleFiles.temporaryDirectory("positions-writer")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/refused.cube"
    let cube = Self.cube
    let grids = try cube.shifts.indices.map(cube.grid)
    var nan = grids[1]
    nan.latitudes[4] = .nan
    var bare = grids[2]
    bare.terrain = nil
    var short = grids[1]
    short.longitudes.removeLast()
    var heights = grids[2]
    heights.terrain?.heights[0] = -2_000
    let cases: [(positions: [CubeGrid], table: [Int], reason: String)] = [
      ([], Array(repeating: 0, count: 7), "a grid needs at least one position"),
      (grids, [0, 0, 1, 1, 0, 2], "6 step positions for 7 steps"),
      (
        grids, [0, 0, 2, 1, 0, 2, 2],
        "step 2 uses position 2 before position 1 (positions are numbered in order of first use)"
      ),
      (grids, [0, 0, 1, 1, 0, 1, 1], "no step uses position 2 of the 3 positions"),
      (grids, [0, 0, 1, 1, 0, 3, 2], "step 5 uses position 3, not one of the 3 positions"),
      (grids + grids + grids, Array(0..<7), "9 positions is more than 65535 or the 7 steps"),
      (
        [grids[0], nan, grids[2]], cube.table, "position 1 latitude nan is not a finite number in -90.0…90.0 at cell 4"
      ),
      (
        [grids[0], grids[1], bare], cube.table,
        "position 2 has no terrain, position 0 one: every position has terrain or none does"
      ),
      (
        [grids[0], short, grids[2]], cube.table,
        "position 1 \(Self.cells) latitudes and \(Self.cells - 1) longitudes for \(Self.cells) cells"
      ),
      (
        [grids[0], grids[1], heights], cube.table,
        "position 2 terrain height -2000.0 m is not in -1000.0…9000.0 m or NaN at cell 0"
      ),
    ]
    for (positions, table, reason) in cases {
      #expect {
        _ = try CubeWriter(header: cube.header, positions: positions, stepPositions: table, destination: path)
      } throws: { error in
        (error as? CubeError)?.description == "\(path): cannot write: \(reason)"
      }
    }
    // Nothing was left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }
}
