import Foundation
import Testing
import _TestSupport

@testable import CubeFormat

/// The writer finds each cell's frame from its words a vector of cells at a time
/// (`BandPacker`); the frame stored must be the narrowest the series allows, found here by
/// trying every width from 0 up, and decoded by the independent `Version3Cube`. A wider
/// frame would still decode, but the cube would no longer be the one written before.
@Suite struct PackedFrameTests {
  /// The narrowest frame of `series`, by the definition: width 0 holds a constant series
  /// without missing words (its word as reference) or one missing throughout (65535);
  /// width w ≥ 1 holds codes 0 … 2^w − 2 above the reference and all ones for missing,
  /// with no code decoding past 65534.
  static func narrowest(_ series: [UInt16]) -> (reference: UInt16, width: Int) {
    let known = series.filter { $0 != CubeMetric.missing }
    guard let smallest = known.min(), let largest = known.max() else { return (CubeMetric.missing, 0) }
    if smallest == largest, known.count == series.count { return (smallest, 0) }
    for width in 1...16 {
      let codes = (1 << width) - 1
      let reference = min(Int(smallest), 65_534 - (codes - 1))
      if Int(largest) - reference <= codes - 1 { return (UInt16(reference), width) }
    }
    return (0, 17)
  }

  /// A cube of `width × height` cells in bands of `bandCells`, whose series are of every
  /// kind the frames tell apart: missing throughout, constant, constant with missing
  /// steps, spans of every width up to 16, spans at the top of the range (whose reference
  /// is lowered), and random words.
  static func cube(
    seed: UInt64, width: Int, height: Int, steps: Int, bandCells: Int
  )
    -> (header: CubeHeader, values: [[[Double]]])
  {
    var random = Seeded(seed)
    let cells = width * height
    let metrics = (0..<3).map { m in
      CubeMetric(
        name: "m\(m)", unit: "u", temporal: 0, scale: [0.1, 1, 0.01][m], offset: [-50, 0, -150][m])
    }
    let header = CubeHeader(
      width: width, height: height, stepCount: steps, firstTime: 1_750_000_000, stepSeconds: 3600,
      runStart: 1_750_000_000, model: "cf", domain: "d01", gridSpacing: 25_000,
      projection: CubeProjection(code: 6, parameters: []), metrics: metrics)
    var values: [[[Double]]] = []
    for metric in metrics {
      var rows = [[Double]](repeating: [Double](repeating: .nan, count: cells), count: steps)
      for cell in 0..<cells {
        let kind = Int.random(in: 0..<6, using: &random)
        let span = 1 << Int.random(in: 0...16, using: &random) - 1
        let base = Int.random(in: 0...(65_534 - min(span, 65_534)), using: &random)
        for step in 0..<steps {
          let word: Int? =
            switch kind {
            case 0: nil
            case 1: base
            case 2: Bool.random(using: &random) ? nil : base
            case 3: base + Int.random(in: 0...min(span, 65_534 - base), using: &random)
            case 4: 65_534 - Int.random(in: 0...min(span, 65_534), using: &random)
            default: Int.random(in: 0...9, using: &random) == 0 ? nil : Int.random(in: 0...65_534, using: &random)
            }
          // Values a quarter step off their word: they round to it whatever the order of
          // the arithmetic.
          rows[step][cell] = word.map { metric.offset + metric.scale * (Double($0) + 0.25) } ?? .nan
        }
      }
      values.append(rows)
    }
    return (header, values)
  }

  /// Each code of a packed series lies at bits t·w ..< (t + 1)·w of its payload, least
  /// significant bit first, read here one bit at a time: the word less the reference, all
  /// ones for missing; for every width, series of odd and even lengths, and no byte past
  /// the payload written.
  @Test func everyCodeIsPackedAtItsOwnBitsAndNothingPastThePayload() {
    var random = Seeded(29)
    for width in 1...16 {
      let codes = (1 << width) - 1
      for steps in [1, 2, 3, 4, 7, 8, 9, 24, 25, 26, 121] {
        let reference = Int.random(in: 0...(65_534 - (codes - 1)), using: &random)
        let words = (0..<steps).map { _ in
          Int.random(in: 0..<8, using: &random) == 0
            ? CubeMetric.missing : UInt16(reference + Int.random(in: 0...(codes - 1), using: &random))
        }
        let bytes = SeriesFrame.payloadBytes(steps: steps, width: width)
        var payload = [UInt8](repeating: 0, count: bytes) + [UInt8](repeating: 0xA5, count: 8)
        payload.withUnsafeMutableBytes { payload in
          words.withUnsafeBufferPointer {
            SeriesFrame(reference: UInt16(reference), width: width).pack($0, into: payload.baseAddress!)
          }
        }
        for (step, word) in words.enumerated() {
          var code = 0
          for bit in 0..<width {
            let at = step * width + bit
            code |= Int(payload[at / 8] >> UInt8(at % 8) & 1) << bit
          }
          let expected = word == CubeMetric.missing ? codes : Int(word) - reference
          #expect(code == expected, "width \(width), \(steps) steps, step \(step)")
        }
        #expect(payload[bytes...].allSatisfy { $0 == 0xA5 }, "width \(width), \(steps) steps: past the payload")
      }
    }
  }

  @Test(arguments: [
    (seed: 1, width: 150, height: 9, steps: 25, bandCells: 512),
    (seed: 2, width: 97, height: 13, steps: 7, bandCells: 256),
    (seed: 3, width: 61, height: 5, steps: 121, bandCells: 64),
    (seed: 4, width: 13, height: 3, steps: 1, bandCells: 8),
    (seed: 5, width: 1, height: 5, steps: 40, bandCells: 4),
    (seed: 6, width: 200, height: 11, steps: 3, bandCells: 4096),
  ])
  func everyCellIsStoredInTheNarrowestFrameOfItsSeries(
    seed: Int, width: Int, height: Int, steps: Int, bandCells: Int
  ) throws {
    let directory = SampleFiles.temporaryDirectory("frames")
    defer { SampleFiles.remove(directory) }
    let (header, values) = Self.cube(
      seed: UInt64(seed), width: width, height: height, steps: steps, bandCells: bandCells)
    let cells = width * height
    let path = "\(directory)/cf/d01/2025061500.cube"
    let grid = CubeGrid(
      latitudes: (0..<cells).map { Float($0 / width) }, longitudes: (0..<cells).map { Float($0 % width) },
      terrain: nil)
    let writer = try CubeWriter(
      header: header, positions: [grid], stepPositions: [Int](repeating: 0, count: steps), destination: path,
      layout: CubeWriter.Layout(bandCells: bandCells, packsInBackground: seed.isMultiple(of: 2)))
    for band in 0..<writer.bandCount {
      let range = writer.cells(ofBand: band)
      for metric in header.metrics.indices {
        for step in 0..<steps {
          let slice = Array(values[metric][step][range])
          let refused = slice.withUnsafeBufferPointer {
            writer.write(band: band, metric: metric, step: step, values: $0)
          }
          #expect(refused == nil)
        }
      }
    }
    _ = try writer.publish()
    let decoded = try Version3Cube(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    #expect(decoded.bandCount == (cells + bandCells - 1) / bandCells)
    var wrong: [String] = []
    for (metric, definition) in header.metrics.enumerated() {
      for cell in 0..<cells {
        let series = (0..<steps).map { step in
          let value = values[metric][step][cell]
          return value.isNaN ? CubeMetric.missing : UInt16(((value - definition.offset) / definition.scale).rounded())
        }
        let decodedSeries = (0..<steps).map { decoded.word(metric: metric, cell: cell, step: $0) }
        let frame = decoded.frames[metric][cell]
        let expected = Self.narrowest(series)
        if (decodedSeries != series || frame != expected) && wrong.count < 5 {
          wrong.append(
            "metric \(metric) cell \(cell): frame \(frame), expected \(expected); words \(decodedSeries == series ? "equal" : "differ")"
          )
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")
  }
}
