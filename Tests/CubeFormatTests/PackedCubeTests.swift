import Foundation
import PointQuery
import Testing
import _TestSupport

@testable import CubeFormat

/// Cube format version 2: every value of a generated cube reads back within half its
/// precision, version 1 cubes read as before, and damage to any region of a version 2
/// cube is refused with a reason naming it.
@Suite struct PackedCubeTests {
  static let (width, height, steps) = (12, 8, 30)
  static let metrics = [
    CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.05, offset: -150),
    CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.1, offset: 0),
    CubeMetric(name: "code", unit: "wmo code", temporal: 2, scale: 1, offset: 0),
  ]

  /// What cell `cell` of `metric` holds at `step`, by the cell's kind of series (its index
  /// mod 9): missing throughout, constant, constant with missing steps, the full 16-bit
  /// range (both ends), full range with a missing step, a width of `cell % 17` bits, a
  /// smooth diurnal cycle, noise, and values at exact half steps.
  static func value(metric: Int, cell: Int, step: Int) -> Double {
    let definition = metrics[metric]
    let top = definition.offset + definition.scale * 65534
    func word(_ q: Int) -> Double { definition.offset + definition.scale * Double(q) }
    switch cell % 9 {
    case 0: return .nan
    case 1: return word(1234 + metric)
    case 2: return step % 4 == 1 ? .nan : word(7)
    case 3: return step.isMultiple(of: 2) ? definition.offset : top
    case 4: return step == 3 ? .nan : (step == 5 ? top : word(step))
    case 5:
      // Codes 0 and 2^w − 2 (the span that needs exactly w bits), others between; w = 1 is
      // a constant series with a missing step.
      let width = (cell + metric * 7) % 17
      let base = width == 16 ? 0 : 100
      if width < 2 { return width == 1 && step == 2 ? .nan : word(base) }
      let span = (1 << width) - 2
      return word(base + (step == 0 ? 0 : step == 1 ? span : (step &* 2_654_435_761) % (span + 1)))
    case 6: return word(3000) + sin(Double(step) / 24 * 2 * .pi) * 8 + Double(cell) * 0.01
    case 7: return word(Int((UInt64(step * 31 + cell * 7 + metric) &* 0x9E37_79B9_7F4A_7C15) >> 52))
    default: return word(200 + step) + definition.scale / 2 * (step.isMultiple(of: 3) ? 0.999 : 0.5)
    }
  }

  /// Writes the generated cube in `version` and returns its path.
  static func write(version: UInt32, to path: String) throws -> String {
    let header = CubeHeader(
      width: width, height: height, stepCount: steps, firstTime: 1_750_000_000, stepSeconds: 3600,
      runStart: 1_750_000_000 - 3600, model: "wrf", domain: "d01", gridSpacing: 3000,
      projection: CubeProjection(code: 0, parameters: []), metrics: metrics)
    let cells = width * height
    let writer = try CubeWriter(
      header: header, latitudes: (0..<cells).map { 38 + Float($0 / width) * 0.1 },
      longitudes: (0..<cells).map { -9 + Float($0 % width) * 0.1 },
      terrain: CubeTerrain(heights: Array(repeating: 12, count: cells), landMask: Array(repeating: 1, count: cells)),
      destination: path, formatVersion: version)
    for step in 0..<steps {
      for metric in metrics.indices {
        let values = (0..<cells).map { value(metric: metric, cell: $0, step: step) }
        #expect(writer.write(metric: metric, step: step, values: values) == nil)
      }
    }
    return try writer.publish()
  }

  @Test func everyValueReadsBackWithinHalfItsPrecision() throws {
    let directory = SampleFiles.temporaryDirectory("packed-roundtrip")
    defer { SampleFiles.remove(directory) }
    let file = try CubeFile(path: Self.write(version: 2, to: "\(directory)/v2.cube"))
    #expect(file.formatVersion == 2)
    var checked = (values: 0, missing: 0)
    var words = [UInt16](repeating: 0, count: Self.steps)
    for (metric, definition) in Self.metrics.enumerated() {
      for cell in 0..<(Self.width * Self.height) {
        words.withUnsafeMutableBufferPointer { buffer in
          guard let start = buffer.baseAddress else { return }
          file.words(metric: metric, cell: cell, steps: 0..<Self.steps, into: start)
        }
        for step in 0..<Self.steps {
          let written = Self.value(metric: metric, cell: cell, step: step)
          let word = file.word(metric: metric, cell: cell, step: step)
          #expect(word == words[step], "metric \(metric) cell \(cell) step \(step): one word, then the series")
          guard let read = definition.decode(word) else {
            #expect(written.isNaN, "metric \(metric) cell \(cell) step \(step) read missing, written \(written)")
            checked.missing += 1
            continue
          }
          #expect(
            abs(read - written) <= definition.scale / 2 * (1 + 1e-9),
            "metric \(metric) cell \(cell) step \(step): read \(read), written \(written)")
          checked.values += 1
        }
      }
    }
    #expect(checked.values > 3000 && checked.missing > 300, "\(checked)")
    // Every width 0…16 occurs, so every shift and mask of the decoder is exercised.
    let raw = RawCube(Array(try Data(contentsOf: URL(fileURLWithPath: file.path))))
    let widths = Set((0..<raw.cells).flatMap { cell in (0..<3).map { raw.cellEntry($0, cell: cell).width } })
    #expect(widths == Set(0...16), "\(widths.sorted())")
  }

  /// A version 1 cube (written by the writer's version 1 path, byte for byte what builds
  /// before version 2 wrote) reads as the version 2 cube of the same values, word for word
  /// and through every query.
  @Test func aVersionOneCubeReadsAsTheVersionTwoCubeOfTheSameValues() throws {
    let directory = SampleFiles.temporaryDirectory("packed-v1")
    defer { SampleFiles.remove(directory) }
    let old = try CubeFile(path: Self.write(version: 1, to: "\(directory)/v1.cube"))
    let new = try CubeFile(path: Self.write(version: 2, to: "\(directory)/v2.cube"))
    #expect(old.formatVersion == 1 && new.formatVersion == 2)
    #expect(old.header == new.header && old.terrain == new.terrain)
    let cells = Self.width * Self.height
    #expect(old.fileBytes > Self.metrics.count * cells * Self.steps * 2)
    #expect(old.dataBytes == Array(repeating: cells * Self.steps * 2, count: 3))
    #expect(new.fileBytes < old.fileBytes)
    for metric in Self.metrics.indices {
      for cell in 0..<cells {
        for step in 0..<Self.steps
        where old.word(metric: metric, cell: cell, step: step)
          != new.word(
            metric: metric, cell: cell, step: step)
        {
          Issue.record("metric \(metric) cell \(cell) step \(step) differs between the versions")
        }
      }
    }
    let (a, b) = (try Cube(path: old.path), try Cube(path: new.path))
    for name in ["temp", "rain"] {
      for (latitude, longitude) in [(38.0, -9.0), (38.23, -8.41), (38.4, -8.2)] {
        for method in InterpolationMethod.allCases {
          let (x, y) = (
            try a.locate(latitude: latitude, longitude: longitude, method: method),
            try b.locate(latitude: latitude, longitude: longitude, method: method)
          )
          let (m, n) = (try a.metric(name), try b.metric(name))
          #expect(try a.series(m, at: x, steps: 0..<Self.steps) == b.series(n, at: y, steps: 0..<Self.steps))
          for time in stride(from: a.firstTime, through: a.lastTime, by: 1800) {
            #expect(try a.value(m, at: x, time: time) == b.value(n, at: y, time: time))
          }
        }
      }
    }
  }

  @Test func aCubeOfTheReleasedBuildReads() throws {
    // Written by nwpcube 2d5d403, the last build writing version 1 (SampleGrids/README.md).
    let url = URL(fileURLWithPath: SampleFiles.grid("cubes/wrf_d01_allvars_v1.cube"))
    let file = try CubeFile(path: url.path)
    #expect(file.formatVersion == 1)
    let raw = RawCube(Array(try Data(contentsOf: url)))
    #expect(raw.version == 1)
    for metric in 0..<raw.metricCount {
      for cell in stride(from: 0, to: raw.cells, by: 7) {
        for step in 0..<raw.stepCount
        where file.word(metric: metric, cell: cell, step: step)
          != raw.word(
            metric, cell: cell, step: step)
        {
          Issue.record("metric \(metric) cell \(cell) step \(step)")
        }
      }
    }
    let cube = try Cube(path: url.path)
    let location = try cube.locate(
      latitude: Double(file.latitudes[0]), longitude: Double(file.longitudes[0]), method: .nearest)
    let temp = try cube.series(cube.metric("temp"), at: location, steps: 0..<cube.stepCount)
    #expect(temp.allSatisfy { $0 != nil })
    #expect(temp.first ?? nil == raw.value(0, cell: 0, step: 0))
  }

  /// Why `CubeFile` refuses `bytes` written to a new file in `directory` (a refusal must
  /// name that file).
  static func refusal(of bytes: [UInt8], in directory: String) throws -> String {
    let path = "\(directory)/\(UUID().uuidString).cube"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let error = #expect(throws: CubeError.self) { try CubeFile(path: path) }
    #expect(error?.path == path)
    return error?.reason ?? ""
  }

  /// Truncations at every region boundary of a version 2 cube, and one bit flipped in each
  /// region: each refused with the reason naming what is wrong.
  @Test func damageToEveryRegionIsRefusedWithAReason() throws {
    let directory = SampleFiles.temporaryDirectory("packed-damage")
    defer { SampleFiles.remove(directory) }
    let good = try Self.write(version: 2, to: "\(directory)/good.cube")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: good)))
    let raw = RawCube(bytes)
    func reason(_ damaged: [UInt8]) throws -> String { try Self.refusal(of: damaged, in: directory) }
    let sections = (0..<3).map { (start: raw.dataOffset($0), bytes: raw.dataBytes($0)) }
    // Truncated: inside the header, at and inside every section, one byte short.
    for length in [300, raw.geometryOffset + 5]
      + sections.flatMap({ [$0.start, $0.start + 9, $0.start + $0.bytes - 1] })
      + [bytes.count - 1]
    {
      let text = try reason(Array(bytes.prefix(length)))
      #expect(
        text.hasPrefix("truncated: the header says \(bytes.count) bytes, the file has \(length)")
          || (length < 256 && text.hasPrefix("truncated or not a cube")), "\(length): \(text)")
    }
    func flipped(_ offset: Int) -> [UInt8] {
      var copy = bytes
      copy[offset] ^= 0x10
      return copy
    }
    #expect(try reason(flipped(raw.geometryOffset + 3)) == "corrupted: geometry checksum mismatch")
    #expect(try reason(flipped(44)) == "corrupted: header checksum mismatch")
    #expect(try reason(flipped(256 + 96 + 70)) == "corrupted: header checksum mismatch")
    for (metric, section) in sections.enumerated() {
      let name = Self.metrics[metric].name
      // The table, the first payload, the middle and the padding.
      for offset in [
        section.start + 6, section.start + 8 * raw.cells + 1, section.start + section.bytes / 2,
        section.start + section.bytes - 2,
      ] {
        #expect(try reason(flipped(offset)) == "corrupted: data checksum mismatch in metric \(name)", "\(offset)")
      }
    }
    #expect(try reason(flipped(bytes.count - 2)) == "corrupted: terrain checksum mismatch")
  }

  /// Entries whose checksums were recomputed after a change (widths, references, offsets
  /// and reserved bits out of range; section sizes that do not add up): each refused with
  /// the metric, the cell and the field named.
  @Test func entriesOutOfRangeAreRefusedByName() throws {
    let directory = SampleFiles.temporaryDirectory("packed-entries")
    defer { SampleFiles.remove(directory) }
    let good = try Self.write(version: 2, to: "\(directory)/good.cube")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: good)))
    let raw = RawCube(bytes)
    func reason(_ edit: (inout [UInt8]) -> Void) throws -> String {
      var copy = bytes
      edit(&copy)
      CubeFile.reseal(&copy)
      return try Self.refusal(of: copy, in: directory)
    }
    // A cell whose series needs a middling width w.
    let cell = try #require((0..<(raw.cells - 1)).first { (4...15).contains(raw.cellEntry(1, cell: $0).width) })
    let entry = raw.dataOffset(1) + 8 * cell
    let label = "corrupted: metric 1 (rain) cell \(cell)"
    let truth = raw.cellEntry(1, cell: cell)
    let w = truth.width
    for width in [17, 255] {
      #expect(try reason { $0[entry + 6] = UInt8(width) } == "\(label) bit width \(width) is not in 0…16")
    }
    // One bit narrower: the next payload no longer starts where this one ends.
    let next = raw.cellEntry(1, cell: cell + 1).offset
    let shorter = (Self.steps * w + 7) / 8 - (Self.steps * (w - 1) + 7) / 8
    #expect(
      try reason { $0[entry + 6] = UInt8(w - 1) }
        == "corrupted: metric 1 (rain) cell \(cell + 1) payload offset \(next) is not \(next - shorter), where the payload before it ends"
    )
    #expect(
      try reason { $0.set([0xFF, 0xFF], at: entry + 4) }
        == "\(label) reference 65535 with bit width \(w) decodes up to word \(65535 + (1 << w) - 2), past 65534")
    #expect(try reason { $0[entry + 7] = 1 }.hasPrefix("\(label) has reserved bits set"))
    #expect(
      try reason { $0.set(littleEndian(UInt64(truth.offset + 1), count: 4), at: entry) }
        == "\(label) payload offset \(truth.offset + 1) is not \(truth.offset), where the payload before it ends")
    // A section size that no longer adds up with the file's.
    let sizeField = 256 + 96 * 2 + 72
    let size = UInt64(raw.dataBytes(2))
    #expect(
      try reason { $0.set(littleEndian(size + 64, count: 8), at: sizeField) }.hasPrefix(
        "corrupted: shape 12×8×30 with 3 metrics and a terrain section and data sections of"))
    #expect(
      try reason { $0.set(littleEndian(1, count: 8), at: sizeField) }.hasPrefix(
        "corrupted: shape 12×8×30 with 3 metrics and a terrain section and data sections of"))
  }
}
