import Foundation
import PointQuery
import Testing
import _TestSupport

@testable import CubeFormat

/// Cube format version 3, read by `CubeFile` from bytes this target's own encoder made
/// (`BandedCube`) out of a version 2 cube: every word, coordinate and terrain value
/// reads as the version 2 cube holds it, in one band or many; opening reads no data
/// block; a damaged block fails the reads of it, naming the block, and withdraws the cube.
@Suite struct Version3ReaderTests {
  /// 16 000 cells over 24 steps: the geometry spans 2 checksum blocks and the data about 25.
  static let (width, height, steps) = (160, 100, 24)
  static var cells: Int { width * height }

  /// A version 2 cube of the generated values (`PackedCubeTests.value`) with terrain, and
  /// its bytes.
  static func version2(in directory: String) throws -> (path: String, bytes: [UInt8]) {
    let header = CubeHeader(
      width: width, height: height, stepCount: steps, firstTime: 1_750_000_000, stepSeconds: 3600,
      runStart: 1_750_000_000 - 3600, model: "wrf", domain: "d02", gridSpacing: 3000,
      projection: CubeProjection(code: 0, parameters: []), metrics: PackedCubeTests.metrics)
    let path = "\(directory)/v2.cube"
    let writer = try CubeWriter(
      header: header, latitudes: (0..<cells).map { 38 + Float($0 / width) * 0.05 },
      longitudes: (0..<cells).map { -9 + Float($0 % width) * 0.05 },
      terrain: CubeTerrain(
        heights: (0..<cells).map { Float($0 % 700) - 50 }, landMask: (0..<cells).map { UInt8($0 % 3 == 0 ? 0 : 1) }),
      destination: path, formatVersion: 2)
    for step in 0..<steps {
      for metric in PackedCubeTests.metrics.indices {
        writer.write(
          metric: metric, step: step,
          values: (0..<cells).map { PackedCubeTests.value(metric: metric, cell: $0, step: step) })
      }
    }
    _ = try writer.publish()
    return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
  }

  /// Writes `bytes` to `name` in `directory` and returns its path.
  static func save(_ bytes: [UInt8], _ name: String, in directory: String) throws -> String {
    let path = "\(directory)/\(name)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The words of every metric at every cell of `file`.
  static func allWords(_ file: CubeFile) -> [UInt16] {
    var words = [UInt16](repeating: 0, count: file.header.metrics.count * cells * steps)
    words.withUnsafeMutableBufferPointer { buffer in
      guard let start = buffer.baseAddress else { return }
      for metric in file.header.metrics.indices {
        for cell in 0..<cells {
          file.words(metric: metric, cell: cell, steps: 0..<steps, into: start + (metric * cells + cell) * steps)
        }
      }
    }
    return words
  }

  @Test(arguments: [16_384, 4_096, 1_024, 1])
  func everyWordCoordinateAndHeightReadsAsInVersion2(bandCells: Int) throws {
    let directory = SampleFiles.temporaryDirectory("v3-read")
    defer { SampleFiles.remove(directory) }
    let (v2Path, v2) = try Self.version2(in: directory)
    let cube = BandedCube(v2: v2, bandCells: bandCells)
    let path = try Self.save(cube.bytes, "v3.cube", in: directory)
    let old = try CubeFile(path: v2Path)
    let file = try CubeFile(path: path, checksums: .headerOnly)
    #expect(file.formatVersion == 3 && file.bandCells == bandCells)
    #expect(file.bandCount == (Self.cells + bandCells - 1) / bandCells)
    #expect(file.checksumBlockCount == (cube.checksumTableOffset - cube.geometryOffset + 65_535) / 65_536)
    // Opening verified the band index's blocks and nothing else.
    let indexBlocks =
      cube.block(holding: cube.checksumTableOffset - 1).index - cube.block(holding: cube.bandIndexOffset).index + 1
    #expect(file.verifiedBlockCount == indexBlocks && !file.isFullyVerified)
    #expect(
      file.dataBytes
        == old.dataBytes.indices.map { metric in
          cube.sections.enumerated().filter { $0.offset % 3 == metric }.map(\.element.bytes).reduce(0, +)
        })
    #expect(Self.allWords(file) == Self.allWords(old))
    #expect(file.latitudes == old.latitudes && file.longitudes == old.longitudes)
    #expect(file.terrain == old.terrain)
    #expect((0..<Self.cells).allSatisfy { file.terrainHeight(cell: $0) == old.terrainHeight(cell: $0) })
    #expect((0..<Self.cells).allSatisfy { file.isLand(cell: $0) == old.isLand(cell: $0) })
    // Everything was read, so every block but the padding's was verified; the background
    // verifier finishes the rest and then has nothing to do.
    var verified = 0
    while true {
      let bytes = try file.verifyNext(limit: 200_000)
      if bytes == 0 { break }
      verified += bytes
    }
    #expect(file.isFullyVerified && file.verifiedBlockCount == file.checksumBlockCount)
    #expect(try file.verifyNext(limit: 1) == 0)
    #expect(file.withdrawal == nil && !file.isDamaged && file.damage == nil)
    // Opened verifying everything, it is verified at once.
    let all = try CubeFile(path: path)
    #expect(all.isFullyVerified && Self.allWords(all) == Self.allWords(old))
  }

  @Test func pointQueriesAnswerAsFromVersion2() throws {
    let directory = SampleFiles.temporaryDirectory("v3-query")
    defer { SampleFiles.remove(directory) }
    let (v2Path, v2) = try Self.version2(in: directory)
    let path = try Self.save(BandedCube(v2: v2, bandCells: 2_048).bytes, "v3.cube", in: directory)
    let old = try Cube(path: v2Path)
    let cube = try Cube(path: path, checksums: .headerOnly)
    for (latitude, longitude) in [(38.0, -9.0), (40.52, -5.13), (42.9, -1.06), (41.234, -7.777)] {
      for method in InterpolationMethod.allCases {
        let location = try cube.locate(latitude: latitude, longitude: longitude, method: method)
        let oldLocation = try old.locate(latitude: latitude, longitude: longitude, method: method)
        for name in ["temp", "rain"] {
          let range = 0..<Self.steps
          #expect(
            try cube.series(cube.metric(name), at: location, steps: range)
              == old.series(old.metric(name), at: oldLocation, steps: range), "\(name) at \(latitude), \(longitude)")
        }
      }
    }
  }

  @Test func openingReadsNoBlockButTheBandIndexs() throws {
    let directory = SampleFiles.temporaryDirectory("v3-open")
    defer { SampleFiles.remove(directory) }
    let (_, v2) = try Self.version2(in: directory)
    let cube = BandedCube(v2: v2, bandCells: 4_096)
    var bytes = cube.bytes
    // One byte changed in every block that holds no byte of the band index.
    let first = cube.block(holding: cube.bandIndexOffset).index
    for block in 0..<first {
      let at = cube.geometryOffset + block * 65_536 + 100
      bytes[at] ^= 0x5A
    }
    let path = try Self.save(bytes, "damaged.cube", in: directory)
    let file = try CubeFile(path: path, checksums: .headerOnly)
    #expect(file.verifiedBlockCount == file.checksumBlockCount - first && !file.isDamaged)
    let block0 = "corrupted: checksum block 0 (bytes \(cube.geometryOffset)..<\(cube.geometryOffset + 65_536))"
    let expected = "\(path): \(block0) does not match the checksum table"
    #expect(throws: CubeError(path: path, reason: "\(block0) does not match the checksum table")) {
      try CubeFile(path: path)
    }
    // `Cube` reads the coordinates for its locator: the first block fails, named.
    #expect(throws: QueryError.unreadableCube(expected)) { try Cube(path: path, checksums: .headerOnly) }
  }

  @Test func aDamagedBlockFailsItsReadsAndWithdrawsTheCubeWhileOtherBlocksVerify() throws {
    let directory = SampleFiles.temporaryDirectory("v3-damaged")
    defer { SampleFiles.remove(directory) }
    let (v2Path, v2) = try Self.version2(in: directory)
    let cube = BandedCube(v2: v2, bandCells: 4_096)
    // Cell 9 000 is in band 2; its entry of metric 1 (rain) is in the band's sub-section.
    let cell = 9_000
    let section = cube.sections[2 * 3 + 1]
    let entry = section.offset + 8 * (cell - 2 * 4_096)
    var bytes = cube.bytes
    bytes[entry + 7] ^= 0x01
    let path = try Self.save(bytes, "damaged.cube", in: directory)
    let range = cube.block(holding: entry).range
    let expected = "\(path): \(cube.mismatch(holding: entry))"

    let queries = try Cube(path: path, checksums: .headerOnly)
    let old = try Cube(path: v2Path)
    let file = queries.file
    let rain = try queries.metric("rain")
    let latitude = 38 + Double(cell / Self.width) * 0.05
    let longitude = -9 + Double(cell % Self.width) * 0.05
    let here = try queries.locate(latitude: latitude, longitude: longitude, method: .nearest)
    #expect(here.j * Self.width + here.i == cell)
    // A cell of another band reads, and the cube is not withdrawn.
    let elsewhere = try queries.locate(latitude: 38.1, longitude: -8.9, method: .nearest)
    let oldElsewhere = try old.locate(latitude: 38.1, longitude: -8.9, method: .nearest)
    #expect(
      try queries.series(rain, at: elsewhere, steps: 0..<Self.steps)
        == old.series(old.metric("rain"), at: oldElsewhere, steps: 0..<Self.steps))
    #expect(file.withdrawal == nil)
    // The damaged entry's read fails, naming the block, and withdraws the cube.
    #expect(throws: QueryError.unreadableCube(expected)) { try queries.series(rain, at: here, steps: 0..<Self.steps) }
    #expect(file.withdrawal == .damaged && file.isDamaged && file.damage?.description == expected)
    // Reads that cannot throw give missing values there, never a number.
    #expect((0..<Self.steps).allSatisfy { file.word(metric: 1, cell: cell, step: $0) == CubeMetric.missing })
    // Every answer of the damaged cube is now an error rather than a number.
    #expect(throws: QueryError.unreadableCube(expected)) {
      try queries.value(rain, at: elsewhere, time: queries.firstTime)
    }
    // Other blocks still verify on their own; the damaged one fails again.
    try file.verify(bytes: cube.geometryOffset..<(cube.geometryOffset + 8))
    #expect(throws: CubeError(path: path, reason: String(expected.dropFirst(path.count + 2)))) {
      try file.verify(bytes: range)
    }
    var failure: CubeError?
    do {
      while try file.verifyNext(limit: 1 << 20) > 0 {}
    } catch {
      failure = error
    }
    #expect(failure?.description == expected && !file.isFullyVerified)
  }
}
