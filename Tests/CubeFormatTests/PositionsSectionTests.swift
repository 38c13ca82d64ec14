import CubeFormat
import Foundation
import Testing
import _TestSupport

/// The positions section of a grid that moves: written after everything a cube without it
/// holds, read back exactly, and absent (byte for byte) from a cube whose grid does not
/// move.
@Suite struct PositionsSectionTests {
  /// Checks `file` against what `cube` wrote and against the bytes decoded independently.
  static func expectReadsBack(_ file: CubeFile, _ cube: MovingCube, bytes: [UInt8]) throws {
    let raw = RawCube(bytes)
    let label = "\(cube.width)×\(cube.height)×\(cube.stepCount) v\(cube.version) table \(cube.table)"
    #expect(file.positionCount == cube.shifts.count, "\(label)")
    #expect(raw.positionCount == cube.shifts.count, "\(label)")
    #expect(file.stepPositions == cube.table && raw.stepPositions == cube.table, "\(label)")
    #expect((0..<cube.stepCount).map(file.position(ofStep:)) == cube.table, "\(label)")
    for position in cube.shifts.indices {
      let grid = try cube.grid(position)
      let stored = raw.position(position)
      #expect(file.latitudes(position: position) == grid.latitudes, "\(label) position \(position)")
      #expect(file.longitudes(position: position) == grid.longitudes, "\(label) position \(position)")
      #expect(stored.latitudes == grid.latitudes && stored.longitudes == grid.longitudes, "\(label) \(position)")
      let terrain = file.terrain(position: position)
      #expect(terrain?.heights.map(\.bitPattern) == grid.terrain?.heights.map(\.bitPattern), "\(label) \(position)")
      #expect(terrain?.landMask == grid.terrain?.landMask, "\(label) position \(position)")
      #expect(stored.heights?.map(\.bitPattern) == grid.terrain?.heights.map(\.bitPattern), "\(label) \(position)")
      #expect(stored.masks == grid.terrain?.landMask, "\(label) position \(position)")
      for cell in 0..<cube.cells {
        let height = grid.terrain.map { $0.heights[cell] }
        #expect(
          file.terrainHeight(cell: cell, position: position) == height.flatMap { $0.isNaN ? nil : Double($0) },
          "\(label) position \(position) cell \(cell)")
        let mask = grid.terrain.map { $0.landMask[cell] }
        #expect(
          file.isLand(cell: cell, position: position) == mask.flatMap { $0 == 255 ? nil : $0 == 1 },
          "\(label) position \(position) cell \(cell)")
      }
    }
    for metric in MovingCube.names.indices {
      for cell in 0..<cube.cells {
        for step in 0..<cube.stepCount {
          let expected = cube.header.metrics[metric].quantize(cube.value(metric, cell: cell, step: step)) ?? 0xFFFF
          guard file.word(metric: metric, cell: cell, step: step) == expected else {
            Issue.record("\(label): metric \(metric) cell \(cell) step \(step) does not read back")
            return
          }
        }
      }
    }
  }

  @Test func theDefaultMovingCubeReadsBackExactly() throws {
    let directory = SampleFiles.temporaryDirectory("positions")
    defer { SampleFiles.remove(directory) }
    let cube = MovingCube()
    let bytes = try cube.write(to: "\(directory)/moving.cube")
    let file = try CubeFile(path: "\(directory)/moving.cube")
    try Self.expectReadsBack(file, cube, bytes: bytes)
    #expect(file.hasTerrain && bytes.le(76, as: UInt32.self) == 3)
  }

  /// Random shapes, step tables and shifts, with and without terrain, in both versions.
  @Test func randomMovingCubesReadBackExactly() throws {
    let directory = SampleFiles.temporaryDirectory("positions")
    defer { SampleFiles.remove(directory) }
    var random = TestRandom(seed: 0x9051_7105)
    for index in 0..<60 {
      var cube = MovingCube()
      cube.width = 1 + Int(random.next() % 7)
      cube.height = 1 + Int(random.next() % 5)
      cube.stepCount = 2 + Int(random.next() % 11)
      cube.table = MovingCube.randomTable(
        steps: cube.stepCount, limit: 2 + Int(random.next() % 6), random: &random)
      // At least two positions, so that the section is there.
      if cube.table.max() == 0 { cube.table[cube.stepCount - 1] = 1 }
      cube.shifts = (0...(cube.table.max() ?? 1)).map { _ in
        (Int(random.next() % 9) - 4, Int(random.next() % 9) - 4)
      }
      cube.terrain = random.next() % 2 == 0
      cube.version = random.next() % 3 == 0 ? 1 : 2
      let path = "\(directory)/random-\(index).cube"
      let bytes = try cube.write(to: path)
      try Self.expectReadsBack(try CubeFile(path: path), cube, bytes: bytes)
    }
  }

  @Test func onePositionWritesTheCubeTheCoordinateInitializerWrites() throws {
    let directory = SampleFiles.temporaryDirectory("positions")
    defer { SampleFiles.remove(directory) }
    for terrain in [true, false] {
      var cube = MovingCube.still
      cube.terrain = terrain
      let moving = try cube.write(to: "\(directory)/positions.cube")
      let grid = try cube.grid(0)
      let writer = try CubeWriter(
        header: cube.header, latitudes: grid.latitudes, longitudes: grid.longitudes, terrain: grid.terrain,
        destination: "\(directory)/plain.cube", formatVersion: 2)
      for step in 0..<cube.stepCount {
        for metric in MovingCube.names.indices {
          writer.write(
            metric: metric, step: step, values: (0..<cube.cells).map { cube.value(metric, cell: $0, step: step) })
        }
      }
      _ = try writer.publish()
      let plain = Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/plain.cube")))
      #expect(moving == plain, "terrain \(terrain)")
      // No flag bit 1 and the reserved field still zero: what cubes were before positions.
      #expect(plain.le(76, as: UInt32.self) & 2 == 0 && plain[248..<256].allSatisfy { $0 == 0 })
      let file = try CubeFile(path: "\(directory)/plain.cube")
      #expect(file.positionCount == 1 && file.stepPositions == cube.table && !file.isMoving)
      #expect(file.latitudes(position: 0) == grid.latitudes && file.longitudes(position: 0) == grid.longitudes)
      // Bit patterns: an unknown height is NaN, which equals nothing.
      #expect(file.terrain(position: 0)?.heights.map(\.bitPattern) == grid.terrain?.heights.map(\.bitPattern))
    }
  }

  @Test func theSectionFollowsEverythingAndLeavesItUnmoved() throws {
    let directory = SampleFiles.temporaryDirectory("positions")
    defer { SampleFiles.remove(directory) }
    let still = MovingCube.still
    let plain = try still.write(to: "\(directory)/still.cube")
    let moving = try MovingCube().write(to: "\(directory)/moving.cube")
    // Everything after the header is where it was; the section starts on the next 64-byte
    // boundary and holds the count, the table and two moved positions with terrain.
    let headerBytes = 256 + 96 * MovingCube.names.count
    #expect(Array(moving[headerBytes..<plain.count]) == Array(plain[headerBytes...]))
    let start = (plain.count + 63) / 64 * 64
    let cells = still.cells
    #expect(moving.count == start + 8 + (4 * still.stepCount + 7) / 8 * 8 + 2 * ((13 * cells + 7) / 8 * 8))
    #expect(moving.le(start, as: UInt32.self) == 3 && moving.le(start + 4, as: UInt32.self) == 0)
    #expect(moving.le(248, as: UInt64.self) == XXH64.hash(Array(moving[start...])))
    let differing = (0..<headerBytes).filter { moving[$0] != plain[$0] }
    let allowed = Set(Array(16..<24) + Array(76..<80) + Array(168..<176) + Array(248..<256))
    #expect(differing.allSatisfy(allowed.contains), "\(differing)")
  }

  @Test func sameGridComparesEveryPositionAndTheTable() throws {
    let directory = SampleFiles.temporaryDirectory("positions")
    defer { SampleFiles.remove(directory) }
    let cube = MovingCube()
    try cube.write(to: "\(directory)/a.cube")
    try cube.write(to: "\(directory)/b.cube")
    var otherTable = cube
    otherTable.table = [0, 1, 1, 1, 0, 2, 2]
    try otherTable.write(to: "\(directory)/table.cube")
    var otherShift = cube
    otherShift.shifts[2] = (2, 2)
    try otherShift.write(to: "\(directory)/shift.cube")
    try MovingCube.still.write(to: "\(directory)/still.cube")
    let a = try CubeFile(path: "\(directory)/a.cube")
    #expect(a.hasSameGrid(as: try CubeFile(path: "\(directory)/b.cube")))
    for name in ["table", "shift", "still"] {
      let other = try CubeFile(path: "\(directory)/\(name).cube")
      #expect(!a.hasSameGrid(as: other) && !other.hasSameGrid(as: a), "\(name)")
    }
  }
}
