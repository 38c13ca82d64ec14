import CubeFormat
import Foundation
import PointQuery
import Synchronization
import Testing
import _TestSupport

/// Cubes whose checksums are recomputed after a mutation (`CubeFile.reseal`), so that the
/// fields behind the checksums are what is tested: every header and metric-table field set
/// to extremes, limit edges, off-by-one and other fields' values, plus seeded random
/// mutations of several fields at once. Each must be refused with one line naming the file
/// or give correct answers, through `CubeFile` and `Cube`, with a hang detected per case.
@Suite struct ResealedCubeTests {
  /// Far above what a case takes (milliseconds); only a hang reaches it.
  static let timeout = 20.0

  /// Version 2 (with its section tables' fields), and version 1, which readers still read.
  @Test(arguments: [UInt32(2), 1])
  func everyFieldMutationIsRefusedCleanlyOrAnsweredCorrectly(version: UInt32) throws {
    let directory = SampleFiles.temporaryDirectory("resealed")
    defer { SampleFiles.remove(directory) }
    let base = try SmallCube.write(to: "\(directory)/base.cube", version: version)
    let mutations = CubeMutation.generate(
      base: base, metricCount: SmallCube.names.count, randomCount: 1_200, seed: 0x5EED_C0BE)
    #expect(mutations.count >= 2_000, "\(mutations.count) mutations")
    let tally = Self.run(mutations, on: base, in: directory, lookups: true)
    // Both outcomes happen: the suite is not refusing everything (or accepting everything).
    let (opened, answered) = tally.counts.withLock { $0 }
    #expect(opened > 100 && opened < mutations.count / 2, "CubeFile opened \(opened) of \(mutations.count)")
    #expect(answered > 100, "Cube answered \(answered)")
  }

  /// Version 3 in three bands of 8 cells and in one band: the record's fields, every band
  /// index entry and cell entries of every sub-section besides the header's fields, with
  /// the checksum table recomputed.
  @Test(arguments: [8, 32])
  func everyMutationOfABandedCubeIsRefusedCleanlyOrAnsweredCorrectly(bandCells: Int) throws {
    let directory = SampleFiles.temporaryDirectory("resealed-v3")
    defer { SampleFiles.remove(directory) }
    let v2 = try SmallCube.write(to: "\(directory)/v2.cube", version: 2)
    let base = BandedCube(v2: v2, bandCells: bandCells).bytes
    let mutations = CubeMutation.generate(
      base: base, metricCount: SmallCube.names.count, randomCount: 1_200, seed: 0x5EED_0003)
    #expect(mutations.contains { $0.label.hasPrefix("band index offset") })
    let tally = Self.run(mutations, on: base, in: directory, lookups: true)
    let (opened, answered) = tally.counts.withLock { $0 }
    #expect(opened > 100 && opened < mutations.count / 2, "CubeFile opened \(opened) of \(mutations.count)")
    #expect(answered > 100, "Cube answered \(answered)")
  }

  /// A cube whose grid moves (three positions, with terrain), with its positions section's
  /// fields and length mutated besides every other field. `CubeFile` reads back exactly what
  /// the bytes hold or refuses in one line; `Cube` opens or refuses in one line (which cell
  /// answers at which step is the point queries' own tests' business).
  @Test(arguments: [UInt32(2), 1])
  func everyMutationOfAMovingCubeIsRefusedCleanlyOrReadExactly(version: UInt32) throws {
    let directory = SampleFiles.temporaryDirectory("resealed-moving")
    defer { SampleFiles.remove(directory) }
    var moving = MovingCube()
    moving.version = version
    let base = try moving.write(to: "\(directory)/base.cube")
    let mutations = CubeMutation.generate(
      base: base, metricCount: MovingCube.names.count, randomCount: 600, seed: 0x90_5171)
    #expect(mutations.contains { $0.label.hasPrefix("step 6 position") } && mutations.contains { $0.length != nil })
    let tally = Self.run(mutations, on: base, in: directory, lookups: false)
    let (opened, _) = tally.counts.withLock { $0 }
    #expect(opened > 50 && opened < mutations.count / 2, "CubeFile opened \(opened) of \(mutations.count)")
  }

  /// Applies and reseals each mutation of `base`, checks the outcome (`check`) with a hang
  /// detected per case, and expects no failure; returns how many each reader opened.
  static func run(_ mutations: [CubeMutation], on base: [UInt8], in directory: String, lookups: Bool) -> Tally {
    let tally = Tally()
    let failures = HangGuard.run(
      Array(mutations.enumerated()), timeout: Self.timeout, name: { "mutation \($0.offset) (\($0.element.label))" }
    ) { index, mutation in
      let path = "\(directory)/case-\(index).cube"
      let bytes = mutation.applied(to: base) { CubeFile.reseal(&$0, blocks: $1) }
      let found = Self.check(bytes, at: path, tally: tally, lookups: lookups)
      return found.map { "mutation \(index) (\(mutation.label)): \($0)" }
    }
    #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(40).joined(separator: "\n"))")
    return tally
  }

  /// Writes `bytes` to `path`, opens them with both readers and checks the outcome; with
  /// `lookups` false, `Cube` need only open or refuse in one line.
  static func check(_ bytes: [UInt8], at path: String, tally: Tally, lookups: Bool) -> [String] {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return ["cannot write \(path)"] }
    defer { try? FileManager.default.removeItem(atPath: path) }
    var oracle = CubeOracle(path: path, bytes: bytes)
    do {
      let file = try CubeFile(path: path)
      tally.counts.withLock { $0.opened += 1 }
      oracle.checkAccepted(file)
    } catch {
      if error.path != path { oracle.checkRefusal("wrong path \(error.path)", by: "CubeFile") }
      oracle.checkRefusal(error.description, by: "CubeFile")
    }
    do {
      let cube = try Cube(path: path)
      tally.counts.withLock { $0.answered += 1 }
      // Corners, an edge and the interior of the grid; points between cells, one far outside
      // and one near the pole.
      if lookups {
        oracle.checkLookups(
          cube, cells: [0, 5, 7, 14, 18, 23], extraPoints: [(38.1, -11.8), (38.05, -11.95), (0.0, 0.0), (-89.0, 179.0)])
      }
    } catch {
      oracle.checkRefusal(error.description, by: "Cube")
    }
    return oracle.failures
  }
}

/// How many cases each reader opened, shared with the worker thread.
final class Tally: Sendable {
  let counts = Mutex<(opened: Int, answered: Int)>((0, 0))
}
