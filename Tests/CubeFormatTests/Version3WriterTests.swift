import Foundation
import Testing
import _TestSupport

@testable import CubeFormat

/// `TestRandom` as a `RandomNumberGenerator`, so that a failing random cube can be made again
/// from its seed.
struct Seeded: RandomNumberGenerator {
  var random: TestRandom
  init(_ seed: UInt64) { random = TestRandom(seed: seed) }
  mutating func next() -> UInt64 { random.next() }
}

/// A random cube for the version 3 writer: its shape, layout and every value, and the word
/// each value must be stored as, computed here from the definition of quantization
/// (`((value − offset) / scale).rounded()` in 0…65534, missing for NaN and out of range).
struct RandomCube {
  let header: CubeHeader
  let positions: [CubeGrid]
  let stepPositions: [Int]
  let layout: CubeWriter.Layout
  /// `values[metric][step][cell]`.
  let values: [[[Double]]]
  /// The (band, metric, step) triples never written: missing.
  let skipped: Set<[Int]>
  /// Whether a one-band cube is written through `write(metric:step:values:)`.
  let wholeGrid: Bool
  let order: [[Int]]

  var cells: Int { header.cells }

  init(seed: UInt64) {
    var random = Seeded(seed)
    let width = Int.random(in: 1...23, using: &random)
    let height = Int.random(in: 1...17, using: &random)
    let steps = Int.random(in: 1...26, using: &random)
    let cells = width * height
    let metrics = (0..<Int.random(in: 1...4, using: &random)).map { m in
      CubeMetric(
        name: "m\(m)", unit: "u", temporal: UInt32(m % 2), scale: [0.01, 0.1, 0.5, 1][m % 4],
        offset: [-150, 0, -20, 5][m % 4])
    }
    header = CubeHeader(
      width: width, height: height, stepCount: steps, firstTime: 1_750_000_000, stepSeconds: 3600,
      runStart: 1_750_000_000 - 3600, model: "wrf", domain: "d02", gridSpacing: 3000,
      projection: CubeProjection(code: 1, parameters: [30, 60, -8, 39.5, -8, 90, 0, 3000]), metrics: metrics,
      // Every input convention, and none, without drawing from the generator.
      inputConvention: UInt32(seed % 5))
    let terrain = Bool.random(using: &random)
    let positionCount = Int.random(in: 1...min(3, steps), using: &random)
    stepPositions = (0..<steps).map { $0 * positionCount / steps }
    func grid() -> CubeGrid {
      CubeGrid(
        latitudes: (0..<cells).map { _ in Float.random(in: -90...90, using: &random) },
        longitudes: (0..<cells).map { _ in Float.random(in: -360...360, using: &random) },
        terrain: terrain
          ? CubeTerrain(
            heights: (0..<cells).map { _ in
              Bool.random(using: &random) ? .nan : Float.random(in: -500...4000, using: &random)
            },
            landMask: (0..<cells).map { _ in [0, 1, CubeTerrain.unknownMask].randomElement(using: &random) ?? 0 })
          : nil)
    }
    positions = (0..<positionCount).map { _ in grid() }
    // Bands: one (nil, or a power of two at least the cells), or many, often with a short
    // last band.
    let bandCells: Int? =
      switch Int.random(in: 0..<4, using: &random) {
      case 0: nil
      case 1: BandWriter.powerOfTwo(atLeast: cells) << Int.random(in: 0...2, using: &random)
      default:
        1 << Int.random(in: 0...max(0, (BandWriter.powerOfTwo(atLeast: cells)).trailingZeroBitCount), using: &random)
      }
    let locator: [UInt8]? =
      Bool.random(using: &random)
      ? (0..<Int.random(in: 1...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) } : nil
    // Every other cube packs each band in the background while the next is written.
    layout = CubeWriter.Layout(
      bandCells: bandCells, projectionChecked: Bool.random(using: &random), locatorIndex: locator,
      packsInBackground: seed.isMultiple(of: 2))
    // Each series is of a kind: missing throughout, constant, the full range of words, a
    // small span, random words, with some steps missing or unrepresentable.
    var values: [[[Double]]] = []
    for definition in metrics {
      func value(_ q: Double) -> Double { definition.offset + definition.scale * q }
      var series = [[Double]](repeating: [Double](repeating: 0, count: cells), count: steps)
      for cell in 0..<cells {
        let kind = Int.random(in: 0..<7, using: &random)
        let base = Double(Int.random(in: 0...60_000, using: &random))
        for step in 0..<steps {
          // Never on a half: the rounding of a tie is not what is tested here.
          let jitter = Double.random(in: -0.4...0.4, using: &random)
          series[step][cell] =
            switch kind {
            case 0: .nan
            case 1: value(base)
            case 2: value(step.isMultiple(of: 2) ? 0 : 65_534)
            case 3: value(base + Double(Int.random(in: 0...5, using: &random)) + jitter)
            case 4: value(Double(Int.random(in: 0...65_534, using: &random)) + jitter)
            case 5: Bool.random(using: &random) ? .nan : value(base + jitter)
            default: step == steps / 2 ? value(70_000) : value(base + Double(step) + jitter)
            }
        }
      }
      values.append(series)
    }
    self.values = values
    let bands = CubeLayout.Plan3.bandCount(cells: cells, bandCells: bandCells ?? BandWriter.powerOfTwo(atLeast: cells))
    var skipped: Set<[Int]> = []
    var order: [[Int]] = []
    for band in 0..<bands {
      // Sometimes a band is never written, and so missing throughout.
      let skipBand = bands > 1 && Int.random(in: 0..<6, using: &random) == 0
      var pairs: [[Int]] = []
      for metric in metrics.indices {
        for step in 0..<steps {
          if skipBand || Int.random(in: 0..<10, using: &random) == 0 {
            skipped.insert([band, metric, step])
          } else {
            pairs.append([band, metric, step])
          }
        }
      }
      order += pairs.shuffled(using: &random)
    }
    self.skipped = skipped
    self.order = order
    wholeGrid = bands == 1 && Bool.random(using: &random)
  }

  /// The word `value` must be stored as for `definition`, from the definition of
  /// quantization; nil when it cannot be represented.
  static func expectedWord(_ value: Double, _ definition: CubeMetric) -> UInt16? {
    if value.isNaN { return CubeMetric.missing }
    let q = ((value - definition.offset) / definition.scale).rounded()
    return q >= 0 && q <= 65_534 ? UInt16(q) : nil
  }

  func expectedWord(metric: Int, cell: Int, step: Int, bandCells: Int) -> UInt16 {
    if skipped.contains([cell / bandCells, metric, step]) { return CubeMetric.missing }
    return Self.expectedWord(values[metric][step][cell], header.metrics[metric]) ?? CubeMetric.missing
  }

  /// Writes the cube at `path` in version 3 through the band API (or, for one band, now and
  /// then through `write(metric:step:values:)`) and returns the failures: a write whose
  /// returned first bad cell is not the expected one.
  func write(to path: String) throws -> [String] {
    let writer = try CubeWriter(
      header: header, positions: positions, stepPositions: stepPositions, destination: path, layout: layout)
    var failures: [String] = []
    for triple in order {
      let (band, metric, step) = (triple[0], triple[1], triple[2])
      let range = writer.cells(ofBand: band)
      let slice = Array(values[metric][step][range])
      let expected = slice.firstIndex { Self.expectedWord($0, header.metrics[metric]) == nil }.map {
        range.lowerBound + $0
      }
      let returned =
        wholeGrid
        ? writer.write(metric: metric, step: step, values: slice)
        : slice.withUnsafeBufferPointer { writer.write(band: band, metric: metric, step: step, values: $0) }
      if returned != expected {
        failures.append(
          "write(band: \(band), metric: \(metric), step: \(step)) returned \(String(describing: returned)), expected \(String(describing: expected))"
        )
      }
    }
    _ = try writer.publish()
    return failures
  }

  /// Writes the same cube in version 2, a whole step of the grid at a time (what was never
  /// written as NaN).
  func writeVersion2(to path: String, bandCells: Int) throws {
    let writer = try CubeWriter(
      header: header, positions: positions, stepPositions: stepPositions, destination: path, formatVersion: 2)
    for metric in header.metrics.indices {
      for step in 0..<header.stepCount {
        let row = (0..<cells).map {
          skipped.contains([$0 / bandCells, metric, step]) ? .nan : values[metric][step][$0]
        }
        writer.write(metric: metric, step: step, values: row)
      }
    }
    _ = try writer.publish()
  }
}

/// Cube format version 3 as `CubeWriter` writes it, decoded by `Version3Cube` (an independent
/// decoder of the specification) and compared with what was written.
@Suite struct Version3WriterTests {
  static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

  @Test(arguments: 0..<60)
  func randomCubesDecodeToEveryWordCoordinateAndSectionWritten(seed: Int) throws {
    let directory = SampleFiles.temporaryDirectory("v3-random")
    defer { SampleFiles.remove(directory) }
    let cube = RandomCube(seed: UInt64(seed) &* 7919 &+ 17)
    let path = "\(directory)/wrf/d02/2025061500.cube"
    let failures = try cube.write(to: path)
    #expect(failures.isEmpty, "\(failures.prefix(3))")
    let decoded = try Version3Cube(try Self.bytes(path))
    let bandCells = cube.layout.bandCells ?? BandWriter.powerOfTwo(atLeast: cube.cells)
    #expect(decoded.bandCells == bandCells)
    #expect(decoded.bandCount == (cube.cells + bandCells - 1) / bandCells)
    #expect(
      (decoded.width, decoded.height, decoded.steps) == (cube.header.width, cube.header.height, cube.header.stepCount))
    #expect(decoded.metrics.map(\.name) == cube.header.metrics.map(\.name))
    #expect(decoded.metrics.map(\.scale) == cube.header.metrics.map(\.scale))
    #expect(decoded.metrics.map(\.offset) == cube.header.metrics.map(\.offset))
    #expect(decoded.metrics.map(\.temporal) == cube.header.metrics.map(\.temporal))
    #expect(decoded.projectionParameters == cube.header.projection.parameters)
    #expect((decoded.model, decoded.domain) == ("wrf", "d02"))
    #expect(decoded.inputConvention == cube.header.inputConvention)
    #expect(try CubeFile(path: path).header.inputConvention == cube.header.inputConvention)
    #expect(decoded.geometryFlags & 1 == (cube.layout.projectionChecked ? 1 : 0))
    #expect(decoded.locatorIndex == cube.layout.locatorIndex)
    #expect(decoded.latitudes.map { $0.map(\.bitPattern) } == cube.positions.map { $0.latitudes.map(\.bitPattern) })
    #expect(decoded.longitudes.map { $0.map(\.bitPattern) } == cube.positions.map { $0.longitudes.map(\.bitPattern) })
    let terrain = cube.positions.compactMap(\.terrain)
    #expect(decoded.heights.map { $0.map(\.bitPattern) } == terrain.map { $0.heights.map(\.bitPattern) })
    #expect(decoded.landMasks == terrain.map(\.landMask))
    #expect(decoded.stepPositions == cube.stepPositions)
    var wrong: [String] = []
    for metric in cube.header.metrics.indices {
      for cell in 0..<cube.cells {
        for step in 0..<cube.header.stepCount {
          let expected = cube.expectedWord(metric: metric, cell: cell, step: step, bandCells: bandCells)
          let word = decoded.word(metric: metric, cell: cell, step: step)
          if word != expected, wrong.count < 5 {
            wrong.append("metric \(metric) cell \(cell) step \(step): \(word), expected \(expected)")
          }
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")
    // Nothing is left beside the cube: no temporary file, no scratch file.
    #expect(try FileManager.default.contentsOfDirectory(atPath: "\(directory)/wrf/d02") == ["2025061500.cube"])
  }

  @Test(arguments: 0..<12)
  func version3StoresTheWordsVersion2Stores(seed: Int) throws {
    let directory = SampleFiles.temporaryDirectory("v3-v2")
    defer { SampleFiles.remove(directory) }
    let cube = RandomCube(seed: UInt64(seed) &* 104_729 &+ 3)
    let bandCells = cube.layout.bandCells ?? BandWriter.powerOfTwo(atLeast: cube.cells)
    _ = try cube.write(to: "\(directory)/wrf/d02/2025061500.cube")
    try cube.writeVersion2(to: "\(directory)/wrf/d02/2025061501.cube", bandCells: bandCells)
    let three = try Version3Cube(try Self.bytes("\(directory)/wrf/d02/2025061500.cube"))
    let two = try CubeFile(path: "\(directory)/wrf/d02/2025061501.cube")
    #expect(two.formatVersion == 2)
    var differing = 0
    for metric in cube.header.metrics.indices {
      for cell in 0..<cube.cells {
        for step in 0..<cube.header.stepCount
        where two.word(metric: metric, cell: cell, step: step) != three.word(metric: metric, cell: cell, step: step) {
          differing += 1
        }
      }
    }
    #expect(differing == 0)
    #expect(two.latitudes.map(\.bitPattern) == three.latitudes[0].map(\.bitPattern))
  }

  /// A 4 × 4 grid in bands of 4 cells, two steps of one metric (hundredths of a millimetre
  /// from 0: −5 and 700 cannot be stored).
  static func smallWriter(_ path: String, bandCells: Int? = 4) throws -> CubeWriter {
    let header = CubeHeader(
      width: 4, height: 4, stepCount: 2, firstTime: 1_750_000_000, stepSeconds: 3600, runStart: 1_750_000_000,
      model: "wrf", domain: "d01", gridSpacing: 3000, projection: CubeProjection(code: 1, parameters: []),
      metrics: [CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.01, offset: 0)])
    return try CubeWriter(
      header: header,
      positions: [
        CubeGrid(latitudes: Array(repeating: 1, count: 16), longitudes: Array(repeating: 2, count: 16), terrain: nil)
      ],
      stepPositions: [0, 0], destination: path, layout: CubeWriter.Layout(bandCells: bandCells))
  }

  /// Writes `values` to `band` of `writer`.
  static func write(_ writer: CubeWriter, band: Int, metric: Int = 0, step: Int = 0, _ values: [Double]) -> Int? {
    values.withUnsafeBufferPointer { writer.write(band: band, metric: metric, step: step, values: $0) }
  }

  @Test func aBandWrittenAfterALaterOneIsRefusedAndPublishingSaysWhy() throws {
    let directory = SampleFiles.temporaryDirectory("v3-order")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrf/d01/2025061500.cube"
    let writer = try Self.smallWriter(path)
    #expect(writer.bandCount == 4 && writer.cells(ofBand: 2) == 8..<12)
    #expect(Self.write(writer, band: 1, [1, 2, 3, 4]) == nil)
    #expect(writer.refusedWrite == nil)
    // Band 0 was packed when band 1 began: the write stores nothing and names the rule.
    #expect(Self.write(writer, band: 0, [1, 2, 3, 4]) == 0)
    #expect(writer.refusedWrite?.contains("bands are written in order") == true, "\(writer.refusedWrite ?? "")")
    #expect(Self.write(writer, band: 2, [1, 2, 3, 4]) == nil)
    do {
      _ = try writer.publish()
      Issue.record("a cube with a refused write was published")
    } catch {
      #expect(
        error.reason.contains("write(band: 0, metric: 0, step: 0)") && error.reason.contains("in order"),
        "\(error.reason)")
    }
    // Nothing is published and nothing is left behind.
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/wrf/d01")) == [])
  }

  @Test(arguments: [
    (2, 0, 0, 3, 8, "4 cells in band 2"), (2, 1, 0, 4, 8, "1 metrics"), (2, 0, 2, 4, 8, "2 steps"),
    (4, 0, 0, 4, 0, "there are 4 bands"), (-1, 0, 0, 4, 0, "there are 4 bands"),
  ])
  func aWriteOutOfRangeOrOfTheWrongCountIsRefused(
    band: Int, metric: Int, step: Int, count: Int, returned: Int, reason: String
  ) throws {
    let directory = SampleFiles.temporaryDirectory("v3-refused")
    defer { SampleFiles.remove(directory) }
    let writer = try Self.smallWriter("\(directory)/wrf/d01/2025061500.cube")
    #expect(Self.write(writer, band: band, metric: metric, step: step, Array(repeating: 1, count: count)) == returned)
    #expect(writer.refusedWrite?.contains(reason) == true, "\(writer.refusedWrite ?? "nil")")
    #expect(throws: CubeError.self) { try writer.publish() }
  }

  @Test func aWholeGridWriteToACubeOfManyBandsIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("v3-whole")
    defer { SampleFiles.remove(directory) }
    let writer = try Self.smallWriter("\(directory)/wrf/d01/2025061500.cube")
    #expect(writer.write(metric: 0, step: 0, values: Array(repeating: 1, count: 16)) == 0)
    #expect(writer.refusedWrite?.contains("cube of 4 bands") == true, "\(writer.refusedWrite ?? "nil")")
  }

  @Test func theFirstUnrepresentableCellIsNamedInTheWholeGridAndStoredAsMissing() throws {
    let directory = SampleFiles.temporaryDirectory("v3-bad")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrf/d01/2025061500.cube"
    let writer = try Self.smallWriter(path)
    #expect(Self.write(writer, band: 0, [0, 0.01, 0.02, 0.03]) == nil)
    // Band 2 holds cells 8…11: −5 mm at its third cell is cell 10 of the grid.
    #expect(Self.write(writer, band: 2, [1, 2, -5, 700]) == 10)
    #expect(writer.refusedWrite == nil)
    _ = try writer.publish()
    let cube = try Version3Cube(try Self.bytes(path))
    #expect((0..<4).map { cube.word(metric: 0, cell: $0, step: 0) } == [0, 1, 2, 3])
    #expect(
      (8..<12).map { cube.word(metric: 0, cell: $0, step: 0) } == [100, 200, CubeMetric.missing, CubeMetric.missing])
    // Band 1 and 3 were never written, nor step 1.
    #expect((0..<16).allSatisfy { cube.word(metric: 0, cell: $0, step: 1) == CubeMetric.missing })
    #expect((4..<8).allSatisfy { cube.word(metric: 0, cell: $0, step: 0) == CubeMetric.missing })
  }

  @Test(arguments: [3, 6, 1 << 32])
  func aBandSizeThatIsNotAPowerOfTwoUpTo2To31IsRefused(bandCells: Int) throws {
    let directory = SampleFiles.temporaryDirectory("v3-band-size")
    defer { SampleFiles.remove(directory) }
    #expect {
      _ = try Self.smallWriter("\(directory)/wrf/d01/2025061500.cube", bandCells: bandCells)
    } throws: { error in
      (error as? CubeError)?.reason.contains("band cells \(bandCells) is not a power of two") == true
    }
  }

  @Test func moreThan65536BandsAreRefused() throws {
    let directory = SampleFiles.temporaryDirectory("v3-bands")
    defer { SampleFiles.remove(directory) }
    let header = CubeHeader(
      width: 300, height: 300, stepCount: 1, firstTime: 1_750_000_000, stepSeconds: 3600, runStart: 1_750_000_000,
      model: "wrf", domain: "d01", gridSpacing: 3000, projection: CubeProjection(code: 1, parameters: []),
      metrics: [CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.01, offset: 0)])
    let grid = CubeGrid(
      latitudes: Array(repeating: 1, count: 90_000), longitudes: Array(repeating: 1, count: 90_000), terrain: nil)
    #expect {
      _ = try CubeWriter(
        header: header, positions: [grid], stepPositions: [0], destination: "\(directory)/wrf/d01/2025061500.cube",
        layout: CubeWriter.Layout(bandCells: 1))
    } throws: { error in
      (error as? CubeError)?.reason.contains("90000 bands, more than 65536") == true
    }
  }

  @Test func aBandWhoseSubSectionCouldPass4GiBIsRefusedBeforeAnythingIsHeld() throws {
    let directory = SampleFiles.temporaryDirectory("v3-4gib")
    defer { SampleFiles.remove(directory) }
    // 1024 × 1024 cells over 2,100 steps: a series at 16 bits is 4,200 bytes, and one band of
    // every cell could need 4.4 GB of payload, past a u32 offset.
    let header = CubeHeader(
      width: 1024, height: 1024, stepCount: 2_100, firstTime: 1_750_000_000, stepSeconds: 3600,
      runStart: 1_750_000_000, model: "wrf", domain: "d01", gridSpacing: 3000,
      projection: CubeProjection(code: 1, parameters: []),
      metrics: [CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.01, offset: 0)])
    let grid = CubeGrid(
      latitudes: Array(repeating: 1, count: 1 << 20), longitudes: Array(repeating: 1, count: 1 << 20), terrain: nil)
    #expect {
      _ = try CubeWriter(
        header: header, positions: [grid], stepPositions: Array(repeating: 0, count: 2_100),
        destination: "\(directory)/wrf/d01/2025061500.cube")
    } throws: { error in
      let reason = (error as? CubeError)?.reason ?? ""
      return reason.contains("a band of 1048576 cells over 2100 steps") && reason.contains("use smaller bands")
    }
    #expect((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/wrf/d01")) ?? [] == [])
  }

  @Test func anEmptyLocatorIndexIsRefused() throws {
    let directory = SampleFiles.temporaryDirectory("v3-locator")
    defer { SampleFiles.remove(directory) }
    #expect {
      _ = try CubeWriter(
        header: Self.smallWriter("\(directory)/a/b/c.cube").header,
        positions: [
          CubeGrid(latitudes: Array(repeating: 1, count: 16), longitudes: Array(repeating: 2, count: 16), terrain: nil)
        ],
        stepPositions: [0, 0], destination: "\(directory)/wrf/d01/2025061500.cube",
        layout: CubeWriter.Layout(locatorIndex: []))
    } throws: { error in
      (error as? CubeError)?.reason == "cannot write: the locator index has no bytes"
    }
  }

  @Test func abandoningLeavesNothing() throws {
    let directory = SampleFiles.temporaryDirectory("v3-abandon")
    defer { SampleFiles.remove(directory) }
    let writer = try Self.smallWriter("\(directory)/wrf/d01/2025061500.cube")
    #expect(Self.write(writer, band: 1, [1, 2, 3, 4]) == nil)
    writer.abandon()
    #expect((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/wrf/d01")) == [])
  }

  @Test func aBandCostsItsWordsAndItsTableBeyondAFixedStaging() {
    // Doubling the band adds exactly one more band's words (2 bytes per cell, step and
    // metric) and, for each of the two threads that may pack it, its table (8 bytes per
    // cell) and the sub-section it packs (8 bytes of entry and 16 bits of each step's
    // value, per cell): the rest (the output's two staging buffers of 2 MiB and a little,
    // the tiles) does not grow with the band.
    for (steps, metrics) in [(25, 20), (121, 20), (1, 1), (1_000, 3)] {
      let perCell = steps * metrics * 2 + 2 * (8 + 8 + (steps * 16 + 7) / 8)
      let one = CubeWriter.bandBytes(bandCells: 1 << 14, steps: steps, metrics: metrics)
      let two = CubeWriter.bandBytes(bandCells: 1 << 15, steps: steps, metrics: metrics)
      #expect(two - one == (1 << 14) * perCell)
      #expect(one - (1 << 14) * perCell < 5 << 20)
    }
  }

  /// This thread's bytes written to storage so far (`write_bytes` of /proc/thread-self/io:
  /// the kernel counts a page when it is first dirtied, against the thread dirtying it, so
  /// that tests running beside this one do not count).
  static func writtenBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
      return Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }

  @Test(
    .enabled(if: writtenBytes() != nil, "/proc/thread-self/io is absent: bytes written cannot be measured here"),
    arguments: [(128, nil), (128, 4096), (24, nil)])
  func publishingWritesEachByteOfTheCubeAboutOnce(side: Int, bandCells: Int?) throws {
    let directory = SampleFiles.temporaryDirectory("v3-io")
    defer { SampleFiles.remove(directory) }
    // A few MB, in one band or many; and a cube smaller than one write (under 100 kB).
    let (width, height, steps) = (side, side, 48)
    let cells = width * height
    let metrics = (0..<3).map { CubeMetric(name: "m\($0)", unit: "u", temporal: 0, scale: 1, offset: 0) }
    let header = CubeHeader(
      width: width, height: height, stepCount: steps, firstTime: 1_750_000_000, stepSeconds: 3600,
      runStart: 1_750_000_000, model: "wrf", domain: "d01", gridSpacing: 3000,
      projection: CubeProjection(code: 1, parameters: []), metrics: metrics)
    let grid = CubeGrid(
      latitudes: (0..<cells).map { Float($0 / width) * 0.01 }, longitudes: (0..<cells).map { Float($0 % width) * 0.01 },
      terrain: nil)
    let path = "\(directory)/wrf/d01/2025061500.cube"
    var random = Seeded(29)
    let before = try #require(Self.writtenBytes())
    let writer = try CubeWriter(
      header: header, positions: [grid], stepPositions: Array(repeating: 0, count: steps), destination: path,
      layout: CubeWriter.Layout(bandCells: bandCells))
    var values = [Double](repeating: 0, count: writer.bandCells)
    for band in 0..<writer.bandCount {
      let count = writer.cells(ofBand: band).count
      for metric in metrics.indices {
        for step in 0..<steps {
          // Words of every width: most series need 16 bits, so the cube is a few MB.
          for cell in 0..<count { values[cell] = Double(UInt16.random(in: 0...65_534, using: &random)) }
          _ = values.withUnsafeBufferPointer {
            writer.write(band: band, metric: metric, step: step, values: UnsafeBufferPointer(rebasing: $0[..<count]))
          }
        }
      }
    }
    _ = try writer.publish()
    let written = try #require(Self.writtenBytes()) - before
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(size > side * side * steps * metrics.count * 2)
    #expect(Double(written) <= 1.3 * Double(size), "\(written) bytes written for a cube of \(size)")
  }

  @Test(arguments: 0..<20)
  func theCheckedPlanOfAWrittenCubeIsWhereItsPartsAre(seed: Int) throws {
    let directory = SampleFiles.temporaryDirectory("v3-plan")
    defer { SampleFiles.remove(directory) }
    let cube = RandomCube(seed: UInt64(seed) &* 15_485_863 &+ 11)
    let path = "\(directory)/wrf/d02/2025061500.cube"
    _ = try cube.write(to: path)
    let decoded = try Version3Cube(try Self.bytes(path))
    let plan = try #require(
      CubeLayout.Plan3.checked(
        cells: cube.cells, steps: cube.header.stepCount, metricCount: cube.header.metrics.count,
        bandCells: UInt64(decoded.bandCells), subsectionBytes: decoded.bandIndex.map { UInt64($0.bytes) },
        terrain: !decoded.heights.isEmpty, positions: decoded.latitudes.count,
        locatorIndexBytes: UInt64(decoded.locatorIndex?.count ?? 0)))
    #expect(plan.subsectionOffsets == decoded.bandIndex.map(\.offset))
    #expect(plan.bandIndexOffset == decoded.bandIndexOffset)
    #expect(plan.checksumTableOffset == decoded.checksumTableOffset)
    #expect(plan.fileBytes == decoded.fileBytes)
    #expect(plan.checksumTableBytes == 8 * decoded.checksumBlocks)
  }

  @Test func theCheckedPlanRefusesBandsAndSizesOutsideTheFormat() {
    // 10 cells in bands of 4: 3 bands; one metric over 5 steps. A band of 4 cells' sub-section
    // is 4 × 8 + 8 = 40 bytes at least and 40 + 4 × 10 = 80 at most; the last band's (2
    // cells) 24…44.
    func plan(bandCells: UInt64 = 4, sizes: [UInt64] = [40, 80, 24], cells: Int = 10) -> CubeLayout.Plan3? {
      CubeLayout.Plan3.checked(
        cells: cells, steps: 5, metricCount: 1, bandCells: bandCells, subsectionBytes: sizes, terrain: true)
    }
    #expect(plan() != nil)
    #expect(plan(sizes: [40, 80, 44]) != nil)
    #expect(plan(bandCells: 16, sizes: [88]) != nil)
    for bandCells: UInt64 in [0, 3, 6, 1 << 32, UInt64.max] {
      #expect(plan(bandCells: bandCells) == nil, "\(bandCells)")
    }
    for sizes: [UInt64] in [
      [40, 80], [40, 80, 24, 24], [39, 80, 24], [40, 81, 24], [40, 80, 23], [40, 80, 45], [40, UInt64.max, 24],
    ] {
      #expect(plan(sizes: sizes) == nil, "\(sizes)")
    }
    // A locator index whose size leaves no room for the rest of the file.
    for bytes: UInt64 in [UInt64.max, UInt64(Int.max), UInt64(Int.max - 100)] {
      #expect(
        CubeLayout.Plan3.checked(
          cells: 10, steps: 5, metricCount: 1, bandCells: 4, subsectionBytes: [40, 80, 24], terrain: true,
          locatorIndexBytes: bytes) == nil, "\(bytes)")
    }
    // 65 537 bands of one cell is one band too many.
    #expect(plan(bandCells: 1, sizes: Array(repeating: 18, count: 65_536), cells: 65_536) != nil)
    #expect(plan(bandCells: 1, sizes: Array(repeating: 18, count: 65_537), cells: 65_537) == nil)
  }
}
