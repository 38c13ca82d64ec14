import CubeFormat
import Foundation
import Testing
import _TestSupport

/// A small cube with known values: temp = cell + step/10, rain missing at step 0.
private func writeCube(to path: String, width: Int = 5, height: Int = 4, steps: Int = 6) throws -> CubeHeader {
  let header = CubeHeader(
    width: width, height: height, stepCount: steps, firstTime: 1_750_000_000, stepSeconds: 3600,
    runStart: 1_750_000_000 - 3600, model: "wrf", domain: "d02", gridSpacing: 3000,
    projection: CubeProjection(code: 1, parameters: [30, 60, -8, 39.5, -8]),
    metrics: [
      CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150),
      CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.01, offset: 0),
    ])
  let cells = width * height
  // Version 2: the damage these tests make is named by its per-metric checksums.
  let writer = try CubeWriter(
    header: header, latitudes: (0..<cells).map { Float($0 / width) }, longitudes: (0..<cells).map { Float($0 % width) },
    destination: path, formatVersion: 2)
  for step in 0..<steps {
    #expect(
      writer.write(metric: 0, step: step, values: (0..<cells).map { Double($0) + Double(step) / 10 + 0.004 }) == nil)
    writer.write(metric: 1, step: step, values: (0..<cells).map { step == 0 ? .nan : Double($0) * 0.5 })
  }
  _ = try writer.publish()
  return header
}

private func flip(_ path: String, at offset: Int) throws {
  var data = try Data(contentsOf: URL(fileURLWithPath: path))
  data[offset] ^= 0x01
  try data.write(to: URL(fileURLWithPath: path))
}

@Suite struct CubeFormatTests {
  @Test func xxh64MatchesTheReferenceVectors() {
    // Published XXH64 values (seed 0) for "", "a" and "abc", and a long input that
    // exercises the 32-byte stripes and every tail length, checked with python-xxhash.
    #expect(XXH64.hash(Array("".utf8)) == 0xEF46_DB37_51D8_E999)
    #expect(XXH64.hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
    #expect(XXH64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
    let long = Array((0..<3).flatMap { _ in (0...255).map(UInt8.init) }) + Array("xyz".utf8)
    #expect(XXH64.hash(long) == 0xE921_A1B4_5BD7_79F8)
  }

  @Test func aWrittenCubeReadsBackWithinHalfAStep() throws {
    let directory = SampleFiles.temporaryDirectory("roundtrip")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrf/d02/2025061514.cube"
    let header = try writeCube(to: path)
    let file = try CubeFile(path: path)
    #expect(file.header == header)
    #expect(file.latitudes[7] == 1 && file.longitudes[7] == 2)
    let temp = file.header.metrics[0]
    for cell in 0..<header.cells {
      for step in 0..<header.stepCount {
        let value = try #require(temp.decode(file.word(metric: 0, cell: cell, step: step)))
        #expect(abs(value - (Double(cell) + Double(step) / 10 + 0.004)) <= 0.005 + 1e-9)
      }
      #expect(file.header.metrics[1].decode(file.word(metric: 1, cell: cell, step: 0)) == nil)
      var series = [UInt16](repeating: 0, count: header.stepCount)
      series.withUnsafeMutableBufferPointer { buffer in
        guard let start = buffer.baseAddress else { return }
        file.words(metric: 1, cell: cell, steps: 0..<header.stepCount, into: start)
      }
      #expect(series[0] == CubeMetric.missing)
      #expect(file.header.metrics[1].decode(series[3]) == Double(cell) * 0.5)
    }
    // At most 2 bytes per value plus header, geometry, each section's table (8 bytes a
    // cell) and padding: version 2 packs these series into fewer bits than 16.
    let values = header.cells * header.stepCount * header.metrics.count
    #expect(file.formatVersion == 2)
    #expect(file.fileBytes <= 2 * values + 256 + 96 * 2 + 8 * header.cells * 3 + 3 * 64 + 16)
  }

  /// `quantize` rounds without libm; the word must be the one `rounded()` gives for every
  /// value: at and beside every half step, at both ends of the range and far outside it.
  @Test func quantizingAgreesWithLibmRoundingBitForBit() {
    func oracle(_ metric: CubeMetric, _ value: Double) -> UInt16? {
      guard !value.isNaN else { return CubeMetric.missing }
      let q = ((value - metric.offset) / metric.scale).rounded()
      guard q >= 0, q <= 65534 else { return nil }
      return UInt16(q)
    }
    var generator = SystemRandomNumberGenerator()
    for metric in [
      CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150),
      CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.1, offset: 0),
      CubeMetric(name: "code", unit: "wmo", temporal: 2, scale: 1, offset: 0),
    ] {
      var values: [Double] = [.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -0.0, 0, 1e300, -1e300]
      for ratio in [-1.5, -1, -0.5, -0.25, 0, 0.5, 1, 1.5, 2.5, 12_345.5, 65_533.5, 65_534, 65_534.5, 65_535] {
        let value = metric.offset + ratio * metric.scale
        values += [value, value.nextUp, value.nextDown, value.nextUp.nextUp, value.nextDown.nextDown]
      }
      for _ in 0..<100_000 {
        let ratio = Double.random(in: -2...65_537, using: &generator)
        values.append(metric.offset + ratio * metric.scale)
        // Halves exactly, where the two roundings could part.
        values.append(metric.offset + (Double(Int.random(in: -2...65_537, using: &generator)) + 0.5) * metric.scale)
      }
      let differing = values.filter { metric.quantize($0) != oracle(metric, $0) }
      #expect(differing.isEmpty, "\(metric.name): \(differing.prefix(5))")
    }
  }

  @Test func valuesOutsideTheRangeAreReportedNotClamped() throws {
    let metric = CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150)
    #expect(metric.quantize(-150.004) == 0)
    #expect(metric.quantize(-150.006) == nil)
    #expect(metric.quantize(505.34) == 65534)
    #expect(metric.quantize(505.36) == nil)
    #expect(metric.quantize(.nan) == CubeMetric.missing)
    #expect(metric.quantize(.infinity) == nil)
  }

  /// The header read alone (for choosing among runs) is the header opening reads, and
  /// damage to the header is refused with the same reason; damage beyond it (data,
  /// coordinates) is left for opening to find.
  @Test func theHeaderReadAloneIsTheOneOpeningReads() throws {
    let directory = SampleFiles.temporaryDirectory("header-alone")
    defer { SampleFiles.remove(directory) }
    for terrain in [true, false] {
      let path = "\(directory)/terrain-\(terrain).cube"
      _ = try SmallCube.write(to: path, terrain: terrain)
      #expect(try CubeFile.header(path: path) == CubeFile(path: path).header)
    }
    let good = "\(directory)/terrain-true.cube"
    let size = try Data(contentsOf: URL(fileURLWithPath: good)).count
    func damaged(_ mutate: (String) throws -> Void) throws -> String {
      let path = "\(directory)/\(UUID().uuidString).cube"
      try FileManager.default.copyItem(atPath: good, toPath: path)
      try mutate(path)
      return path
    }
    for path in [
      try damaged { try flip($0, at: 30) }, try damaged { try flip($0, at: 0) }, try damaged { try flip($0, at: 8) },
      try damaged {
        try Data(contentsOf: URL(fileURLWithPath: good)).prefix(size - 100).write(to: URL(fileURLWithPath: $0))
      },
      try damaged { try Data(contentsOf: URL(fileURLWithPath: good)).prefix(100).write(to: URL(fileURLWithPath: $0)) },
      "\(directory)/none.cube",
    ] {
      let opening = #expect(throws: CubeError.self) { try CubeFile(path: path) }
      let alone = #expect(throws: CubeError.self) { try CubeFile.header(path: path) }
      #expect(alone?.reason == opening?.reason && alone?.path == path, "\(path)")
    }
    let data = try damaged { try flip($0, at: size - 3) }
    #expect(try CubeFile.header(path: data) == CubeFile(path: good).header)
    #expect(throws: CubeError.self) { try CubeFile(path: data) }
  }

  @Test func aScopeOfBlocksHashesTheNamedBlocksOnly() throws {
    let directory = SampleFiles.temporaryDirectory("scope")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/rain-damaged.cube"
    _ = try writeCube(to: path)
    // The last bytes are rain's block (the second and last): temp's is intact.
    try flip(path, at: try Data(contentsOf: URL(fileURLWithPath: path)).count - 3)
    #expect(try CubeFile(path: path, checksums: .blocks(["temp"])).header.metrics.map(\.name) == ["temp", "rain"])
    #expect(try CubeFile(path: path, checksums: .headerOnly).header.stepCount == 6)
    for scope in [ChecksumScope.all, .blocks(["rain"]), .blocks(["temp", "rain"])] {
      let error = #expect(throws: CubeError.self) { try CubeFile(path: path, checksums: scope) }
      #expect(error?.reason == "corrupted: data checksum mismatch in metric rain", "\(scope)")
    }
  }

  @Test func damagedFilesAreRefusedWithAReason() throws {
    let directory = SampleFiles.temporaryDirectory("damaged")
    defer { SampleFiles.remove(directory) }
    let good = "\(directory)/good.cube"
    _ = try writeCube(to: good)
    let size = try Data(contentsOf: URL(fileURLWithPath: good)).count

    func reason(_ mutate: (String) throws -> Void) throws -> String {
      let path = "\(directory)/\(UUID().uuidString).cube"
      try FileManager.default.copyItem(atPath: good, toPath: path)
      try mutate(path)
      let error = #expect(throws: CubeError.self) { try CubeFile(path: path) }
      #expect(error?.path == path)
      return error?.reason ?? ""
    }
    #expect(
      try reason {
        try Data(contentsOf: URL(fileURLWithPath: good)).prefix(size - 100).write(to: URL(fileURLWithPath: $0))
      }
      .hasPrefix("truncated: the header says \(size) bytes, the file has \(size - 100)"))
    #expect(
      try reason { try Data(contentsOf: URL(fileURLWithPath: good)).prefix(100).write(to: URL(fileURLWithPath: $0)) }
        .hasPrefix("truncated or not a cube"))
    #expect(try reason { try flip($0, at: size - 3) } == "corrupted: data checksum mismatch in metric rain")
    #expect(try reason { try flip($0, at: 600) } == "corrupted: geometry checksum mismatch")
    #expect(try reason { try flip($0, at: 30) } == "corrupted: header checksum mismatch")
    #expect(try reason { try flip($0, at: 0) } == "not an nwpcube cube: bad magic number")
    // Version 2 becomes 3, whose header has a record this one lacks; then a version no
    // build writes.
    #expect(try reason { try flip($0, at: 8) }.hasPrefix("corrupted: inconsistent header size"))
    #expect(
      try reason {
        try flip($0, at: 8)
        try flip($0, at: 10)
      } == "cube format version 65539 is not supported; this build reads versions 1…3")
    #expect(
      try reason { try String(repeating: "x", count: 4000).write(toFile: $0, atomically: true, encoding: .utf8) }
        == "not an nwpcube cube: bad magic number")
    let missing = #expect(throws: CubeError.self) { try CubeFile(path: "\(directory)/none.cube") }
    #expect(missing?.reason == "cannot open: No such file or directory")
  }

  @Test func nothingIsVisibleUntilPublishAndAbandonLeavesNothing() throws {
    let directory = SampleFiles.temporaryDirectory("atomic")
    defer { SampleFiles.remove(directory) }
    let path = "\(directory)/wrf/d01/2025061500.cube"
    let header = CubeHeader(
      width: 2, height: 2, stepCount: 1, firstTime: 0, stepSeconds: 3600, runStart: 0, model: "wrf", domain: "d01",
      gridSpacing: 0, projection: CubeProjection(code: 0, parameters: []),
      metrics: [CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150)])
    let writer = try CubeWriter(header: header, latitudes: [0, 0, 1, 1], longitudes: [0, 1, 0, 1], destination: path)
    writer.write(metric: 0, step: 0, values: [1, 2, 3, 4])
    #expect(!FileManager.default.fileExists(atPath: path))
    writer.abandon()
    #expect(try FileManager.default.contentsOfDirectory(atPath: "\(directory)/wrf/d01").isEmpty)
  }
}
