import Foundation
import Testing
import _TestSupport

@testable import CubeFormat

/// The version 2 writer's block buffer must not change a single byte of the cube, whatever
/// the block size and in whatever order steps arrive: each variant is compared with words scattered
/// straight into the mapping (no buffer) and with independently quantized values.
@Suite struct CubeWriterBlockTests {
  static let (width, height, steps) = (7, 3, 6)
  static let metrics = [
    CubeMetric(name: "temp", unit: "°C", temporal: 0, scale: 0.01, offset: -150),
    CubeMetric(name: "rain", unit: "mm", temporal: 1, scale: 0.01, offset: 0),
    CubeMetric(name: "hum", unit: "%", temporal: 0, scale: 0.5, offset: 0),
  ]

  /// The value written for a metric, cell and visit; NaN (missing) now and then.
  static func value(metric: Int, cell: Int, step: Int, visit: Int) -> Double {
    if (cell + step + metric) % 11 == 0 { return .nan }
    return Double(metric * 3 + 1) + Double(cell) * 0.37 + Double(step) * 1.25 + Double(visit) * 7
  }

  /// Steps out of order, step 3 written twice (the second visit wins) and step 5 of `hum`
  /// never written (missing). Returns the cube's bytes.
  static func write(bufferBytes: Int, to path: String) throws -> [UInt8] {
    let header = CubeHeader(
      width: width, height: height, stepCount: steps, firstTime: 1_750_000_000, stepSeconds: 3600,
      runStart: 1_750_000_000 - 3600, model: "wrf", domain: "d01", gridSpacing: 3000,
      projection: CubeProjection(code: 1, parameters: [30, 60, -8, 39.5, -8]), metrics: metrics)
    let cells = width * height
    let writer = try CubeWriter(
      header: header, latitudes: (0..<cells).map { Float($0 / width) },
      longitudes: (0..<cells).map { Float($0 % width) }, destination: path, bufferBytes: bufferBytes, formatVersion: 2)
    for (visit, step) in [(0, 4), (0, 0), (0, 3), (0, 1), (0, 5), (1, 3), (0, 2)] {
      for metric in metrics.indices where !(metric == 2 && step == 5) {
        let values = (0..<cells).map { value(metric: metric, cell: $0, step: step, visit: visit) }
        #expect(writer.write(metric: metric, step: step, values: values) == nil)
      }
    }
    _ = try writer.publish()
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test(arguments: [1, 2, 3, 4, 6])
  func blocksOfStepsWriteTheBytesOfScatteredWords(blockSteps: Int) throws {
    let directory = SampleFiles.temporaryDirectory("writer-blocks")
    defer { SampleFiles.remove(directory) }
    let stepBytes = Self.width * Self.height * Self.metrics.count * 2
    let direct = try Self.write(bufferBytes: 0, to: "\(directory)/wrf/d01/2025061500.cube")
    let blocked = try Self.write(bufferBytes: blockSteps * stepBytes, to: "\(directory)/wrf/d01/2025061501.cube")
    #expect(blocked == direct)

    let file = try CubeFile(path: "\(directory)/wrf/d01/2025061501.cube")
    for metric in Self.metrics.indices {
      let definition = Self.metrics[metric]
      for cell in 0..<(Self.width * Self.height) {
        for step in 0..<Self.steps {
          let word = file.word(metric: metric, cell: cell, step: step)
          let value = Self.value(metric: metric, cell: cell, step: step, visit: step == 3 ? 1 : 0)
          if (metric == 2 && step == 5) || value.isNaN {
            #expect(word == CubeMetric.missing)
          } else {
            #expect(word == UInt16(((value - definition.offset) / definition.scale).rounded()))
          }
        }
      }
    }
  }

  @Test func aValueOutsideTheRangeIsReportedFromTheBuffer() throws {
    let directory = SampleFiles.temporaryDirectory("writer-blocks-bad")
    defer { SampleFiles.remove(directory) }
    let header = CubeHeader(
      width: 2, height: 2, stepCount: 4, firstTime: 1_750_000_000, stepSeconds: 3600, runStart: 1_750_000_000,
      model: "wrf", domain: "d01", gridSpacing: 3000,
      projection: CubeProjection(code: 1, parameters: [30, 60, -8, 0, 0]),
      metrics: [Self.metrics[1]])
    let writer = try CubeWriter(
      header: header, latitudes: [0, 0, 1, 1], longitudes: [0, 1, 0, 1],
      destination: "\(directory)/wrf/d01/2025061500.cube", bufferBytes: 1 << 20, formatVersion: 2)
    #expect(writer.write(metric: 0, step: 1, values: [1, 2, -5, 700]) == 2)
    writer.abandon()
  }
}
