import Foundation
import GRIB
import Testing
import _TestSupport

@testable import Ingest

// Decodes are counted in debug builds only.
#if DEBUG
  /// A GRIB run written in several bands decodes each message once, not once per band: a
  /// simple-packed message is read band by band over each band's own rows, and a message
  /// that must be decoded whole is decoded by the first band and kept for the others. The
  /// decodes are counted in debug builds (`GRIBDecodeCount`), by file and message.
  @Suite(.timeLimit(.minutes(3))) struct GRIBDecodeOnceTests {
    /// 2026-06-21 00 UTC.
    static let reference: Int64 = 1_782_000_000
    static let grid = GRIBTestGrid.regularLatLon(first: (44, 350), last: (36, 6), width: 41, height: 29)
    /// Cells per band: 1,189 cells in 10 bands, each but the first starting mid-row.
    static let bandCells = 128

    /// Writes a run of four hourly steps, one file each, of temperature, 10 m wind and
    /// sea-level pressure, every message packed as `packing`; returns the files.
    static func writeRun(in directory: String, packing: GRIBTestField.Packing) throws -> [String] {
      let points = grid.width * grid.height
      return try (0..<4).map { hour in
        func series(_ scale: Double, _ base: Double) -> [Double] {
          (0..<points).map { k -> Double in
            let along = Double(k % 97) * scale
            let across = Double(k / 97) * 0.01
            return base + along + across + Double(hour)
          }
        }
        var fields: [GRIBTestField] = [
          .temperature(reference: reference, hours: hour, values: series(0.1, 270)),
          .wind("u", reference: reference, hours: hour, values: series(0.05, -3)),
          .wind("v", reference: reference, hours: hour, values: series(-0.03, 2)),
          .seaLevelPressure(reference: reference, hours: hour, values: series(10, 100_000)),
        ]
        for k in fields.indices { fields[k].packing = packing }
        let path = "\(directory)/run.f\(hour).grib2"
        try GRIBWriter.write(
          try fields.map { field throws(GRIBWriterError) in try GRIBWriter.message(field, on: grid) }, to: path)
        return path
      }
    }

    /// Publishes `plan` into `store` in bands of `bandCells` (nil: one band); returns the
    /// cube's bytes.
    static func publish(_ plan: IngestPlan, into store: String, bandCells: Int?) throws -> [UInt8] {
      let path = try CubePublisher.publish(
        plan, store: store, model: "ncep", schedule: .init(bandCells: bandCells, workers: 2, packsInBackground: false),
        geometry: ProjectionCheck.check(plan, names: .of(.grib))
      ).path
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The decodes counted so far for every message of `paths`.
    static func counts(_ paths: [String]) -> [String: [Int: GRIBDecodeCount]] {
      Dictionary(uniqueKeysWithValues: paths.map { ($0, GRIBDecodeCount.counted(path: $0)) })
    }

    /// The points a message's reads cover when each band reads the rows covering its own
    /// cells once, from the definition: band `b` owns cells `b·n ..< (b+1)·n`.
    static func pointsOfOneReadPerBand() -> Int {
      let (width, cells) = (grid.width, grid.width * grid.height)
      return stride(from: 0, to: cells, by: bandCells).reduce(0) { total, first in
        let last = Swift.min(first + bandCells, cells) - 1
        return total + (last / width - first / width + 1) * width
      }
    }

    /// The same words at every metric, cell and step as the cube written in one band.
    static func expectSameValues(_ banded: [UInt8], _ whole: [UInt8], metrics: Int, steps: Int) throws {
      let (a, b) = (try Version3Cube(banded), try Version3Cube(whole))
      #expect(a.bandCount == 10 && b.bandCount == 1)
      var differing = 0
      for metric in 0..<metrics {
        for cell in 0..<(grid.width * grid.height) {
          for step in 0..<steps
          where a.word(metric: metric, cell: cell, step: step) != b.word(metric: metric, cell: cell, step: step) {
            differing += 1
          }
        }
      }
      #expect(differing == 0)
    }

    /// Simple packing: no band decodes a message whole, and each band decodes only the rows
    /// covering its cells, once; the cube's values are those of the run written in one band.
    @Test func eachBandDecodesOnlyItsOwnRowsOfASimplePackedMessage() throws {
      let directory = SampleFiles.temporaryDirectory("grib-once-simple")
      defer { SampleFiles.remove(directory) }
      let paths = try Self.writeRun(in: directory, packing: .simple(bits: 16))
      let plan = try #require(try GRIBConvention.plans(paths, map: nil).first)
      let banded = try Self.publish(plan, into: "\(directory)/banded", bandCells: Self.bandCells)
      let counts = Self.counts(paths)
      let expected = Self.pointsOfOneReadPerBand()
      for path in paths {
        let messages = try GRIBFile(path: path).messages
        #expect(messages.count == 4)
        for message in messages {
          let count = counts[path]?[message.number] ?? GRIBDecodeCount()
          #expect(count.whole == 0, "\(path) message \(message.number) decoded whole \(count.whole) times")
          #expect(
            count.points == expected, "\(path) message \(message.number): \(count.points) points, not \(expected)")
        }
      }
      let whole = try Self.publish(plan, into: "\(directory)/whole", bandCells: nil)
      try Self.expectSameValues(banded, whole, metrics: plan.metrics.count, steps: plan.steps.count)
    }

    /// Complex packing with spatial differencing, as GFS and NAM write it: with room in the
    /// budget, each message is decoded whole once for all ten bands, and the cube's values
    /// are those of the run written in one band.
    @Test func aComplexPackedMessageIsDecodedOnceForAllBands() throws {
      let directory = SampleFiles.temporaryDirectory("grib-once-complex")
      defer { SampleFiles.remove(directory) }
      let paths = try Self.writeRun(in: directory, packing: .complex(bits: 16))
      let plan = try #require(try GRIBConvention.plans(paths, map: nil).first)
      let whole = try Self.publish(plan, into: "\(directory)/whole", bandCells: nil)
      let before = Self.counts(paths)
      plan.spareMemory?(64 << 20)
      let banded = try Self.publish(plan, into: "\(directory)/banded", bandCells: Self.bandCells)
      let after = Self.counts(paths)
      for path in paths {
        for message in try GRIBFile(path: path).messages {
          let decodes = (after[path]?[message.number]?.whole ?? 0) - (before[path]?[message.number]?.whole ?? 0)
          #expect(decodes == 1, "\(path) message \(message.number) decoded whole \(decodes) times for 10 bands")
        }
      }
      try Self.expectSameValues(banded, whole, metrics: plan.metrics.count, steps: plan.steps.count)
    }

    /// Without room to keep them (a budget the run's cost fills), complex-packed messages are
    /// decoded again by each band, as the counts show: what the room saves.
    @Test func withoutRoomEachBandDecodesAComplexPackedMessageAgain() throws {
      let directory = SampleFiles.temporaryDirectory("grib-once-noroom")
      defer { SampleFiles.remove(directory) }
      let paths = try Self.writeRun(in: directory, packing: .complex(bits: 16))
      let plan = try #require(try GRIBConvention.plans(paths, map: nil).first)
      _ = try Self.publish(plan, into: "\(directory)/banded", bandCells: Self.bandCells)
      let counts = Self.counts(paths)
      for path in paths {
        for message in try GRIBFile(path: path).messages {
          #expect(counts[path]?[message.number]?.whole == 10)
        }
      }
    }
  }
#endif
