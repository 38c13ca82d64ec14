import CubeFormat
import Foundation
import Meteorology
import Testing
import _TestSupport

@testable import Ingest

/// The publisher derives, guards and quantizes several steps at once, each on the thread
/// that derived it, and packs a band in the background while the next one is derived: the
/// cube must be the one a step-at-a-time ingest writes, and an error that of the first
/// failing step in step order.
@Suite struct CubePipelineTests {
  static let metrics: [Metric] = [.temp, .windU, .hum]
  static let start: Int64 = 1_781_913_600  // 2026-06-20T00:00:00Z

  /// A value of `metric` at `cell` and `step`, a function of them and `seed` alone (so that
  /// every band's rows agree), within the metric's plausible range, NaN for about one in
  /// twenty; some fall on a half step of the quantization, where rounding is decided.
  static func value(_ seed: Int, metric: Int, cell: Int, step: Int) -> Double {
    var random = TestRandom(seed: UInt64(seed * 1_000_003 + metric * 10_007 + step) &* 2_654_435_761 &+ UInt64(cell))
    let draw = random.next()
    if draw % 20 == 0 { return .nan }
    let definition = metrics[metric]
    guard let range = definition.plausibleRange, let step = definition.step else { return .nan }
    let unit = random.unit()
    let inside = range.lower + (range.upper - range.lower) * unit
    guard draw % 5 == 0 else { return inside }
    // A half step above a word, as near as a double gets.
    let word = ((inside - definition.offset) / step).rounded(.down)
    return min(max(definition.offset + step * (word + 0.5), range.lower), range.upper)
  }

  /// A plan of `width × height` cells and `steps` hourly steps whose values are `value`'s;
  /// `derive` may replace a step's derivation.
  static func plan(
    width: Int, height: Int, steps: Int, seed: Int,
    derive: @escaping @Sendable (_ step: Int, _ values: () -> [[Double]]) throws(IngestError) -> [[Double]] = {
      _, values in values()
    }
  ) -> IngestPlan {
    let sources = (0..<steps).map {
      StepSource(path: "/inputs/step-\($0).nc", index: 0, time: start + Int64($0) * 3600)
    }
    let cells = (0..<(width * height))
    return IngestPlan(
      domain: "d01", steps: sources, stepSeconds: 3600, runStart: start, width: width, height: height,
      latitudes: cells.map { Float(40 + $0 / width) }, longitudes: cells.map { Float(-9 + $0 % width) },
      projection: CubeProjection(code: 0, parameters: []), gridSpacing: 1000, metrics: metrics, warnings: [],
      terrain: nil, levels: 0, screen: InputScreen(),
      derive: { (index, band) throws(IngestError) in
        try derive(index) {
          metrics.indices.map { metric in
            (band.rows.lowerBound * width..<band.rows.upperBound * width).map {
              value(seed, metric: metric, cell: $0, step: index)
            }
          }
        }
      })
  }

  /// The word the format stores for `value` of `metric`, from the definition: the ratio to
  /// the step from the offset, rounded half away from zero, missing for NaN.
  static func expectedWord(_ value: Double, _ metric: Metric) -> UInt16 {
    guard !value.isNaN, let step = metric.step else { return 0xFFFF }
    return UInt16(((value - metric.offset) / step).rounded())
  }

  static func publish(
    _ plan: IngestPlan, into store: String, _ schedule: CubePublisher.Schedule, precision: [Metric: Double] = [:]
  ) throws(IngestError) -> String {
    try CubePublisher.publish(
      plan, store: store, model: "wrf", precision: precision, schedule: schedule,
      geometry: ProjectionCheck.check(plan, names: .of(.wrf))
    ).path
  }

  @Test(arguments: 0..<4)
  func workersAndBackgroundPackingWriteTheCubeOfOneStepAtATime(seed: Int) throws {
    let directory = SampleFiles.temporaryDirectory("pipeline-\(seed)")
    defer { SampleFiles.remove(directory) }
    // 143 cells in bands of 16: 9 bands, the last of 15 cells, each starting mid-row.
    let (width, height, steps) = (13, 11, 7)
    let plan = Self.plan(width: width, height: height, steps: steps, seed: seed)
    let alone = try Self.publish(
      plan, into: "\(directory)/alone", .init(bandCells: 16, workers: 1, packsInBackground: false))
    let threaded = try Self.publish(
      plan, into: "\(directory)/threaded", .init(bandCells: 16, workers: 3, packsInBackground: true))
    // Without a second band's words, the next band's steps are derived while a band is
    // packed, and wait to be stored.
    let waiting = try Self.publish(
      plan, into: "\(directory)/waiting", .init(bandCells: 16, workers: 3, packsInBackground: false))
    let aloneBytes = Array(try Data(contentsOf: URL(fileURLWithPath: alone)))
    let threadedBytes = Array(try Data(contentsOf: URL(fileURLWithPath: threaded)))
    #expect(aloneBytes == threadedBytes)
    #expect(aloneBytes == Array(try Data(contentsOf: URL(fileURLWithPath: waiting))))

    let cube = try Version3Cube(threadedBytes)
    #expect(cube.bandCells == 16)
    #expect(cube.bandCount == 9)
    var missing = 0
    for (slot, metric) in Self.metrics.enumerated() {
      for cell in 0..<(width * height) {
        for step in 0..<steps {
          let expected = Self.expectedWord(Self.value(seed, metric: slot, cell: cell, step: step), metric)
          if expected == 0xFFFF { missing += 1 }
          #expect(
            cube.word(metric: slot, cell: cell, step: step) == expected,
            "metric \(metric.name) cell \(cell) step \(step)")
        }
      }
    }
    // Both kinds of word are in the comparison.
    #expect(missing > 0 && missing < Self.metrics.count * width * height * steps / 5)
  }

  @Test func anErrorInALaterStepOfABatchStillReportsTheFirstFailingStep() throws {
    let directory = SampleFiles.temporaryDirectory("pipeline-error")
    defer { SampleFiles.remove(directory) }
    // The failing steps and how long each takes to fail: step 2 last, after steps 3 and 5
    // have failed on the other threads; then step 2 first, and step 3 (taken by a thread
    // that finished step 0) after it.
    let arrangements: [[Int: Double]] = [[2: 0.2, 3: 0, 5: 0], [2: 0.1, 3: 0.3]]
    for delays in arrangements {
      let plan = Self.plan(width: 9, height: 4, steps: 8, seed: 1) { (step, values) throws(IngestError) in
        guard let delay = delays[step] else { return values() }
        Thread.sleep(forTimeInterval: delay)
        throw IngestError(path: "/inputs/step-\(step).nc", variable: "T2", reason: "unreadable at step \(step)")
      }
      for schedule in [
        CubePublisher.Schedule(bandCells: nil, workers: 3, packsInBackground: false),
        CubePublisher.Schedule(bandCells: 8, workers: 3, packsInBackground: true),
      ] {
        let error = #expect(throws: IngestError.self) {
          try Self.publish(plan, into: "\(directory)/store", schedule)
        }
        #expect(error?.description == "/inputs/step-2.nc: T2: unreadable at step 2", "\(delays)")
        // Nothing is published, nor left behind.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/store/wrf/d01")) ?? [] == [])
      }
    }
  }

  /// A grid check still running beside the derivation (`IngestPlan.gridCheck`, a CF
  /// lattice's) is awaited before the cube is published: its refusal is the publish's
  /// error, with nothing published or left behind.
  @Test func aGridCheckThatRefusesBesideTheDerivationPublishesNothing() throws {
    let directory = SampleFiles.temporaryDirectory("pipeline-grid-check")
    defer { SampleFiles.remove(directory) }
    var plan = Self.plan(width: 9, height: 4, steps: 3, seed: 2)
    // The plan's grid with its cell (4, 2) on its neighbour (5, 2).
    var longitudes = plan.longitudes
    longitudes[2 * 9 + 4] = longitudes[2 * 9 + 5]
    plan.gridCheck = BackgroundGridCheck(
      InputGrid(
        path: "/inputs/step-0.nc", variables: "lat/lon", width: 9, height: 4, latitudes: plan.latitudes,
        longitudes: longitudes))
    for schedule in [
      CubePublisher.Schedule(bandCells: nil, workers: 2, packsInBackground: false),
      CubePublisher.Schedule(bandCells: 8, workers: 2, packsInBackground: true),
    ] {
      let error = #expect(throws: IngestError.self) { try Self.publish(plan, into: "\(directory)/store", schedule) }
      #expect(
        error?.description.hasPrefix(
          "/inputs/step-0.nc: lat/lon: invalid grid: cell (4, 2) at latitude 42.0, longitude -4.0 is at the same point as its neighbour (5, 2)"
        ) == true, "\(String(describing: error))")
      #expect((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/store/wrf/d01")) ?? [] == [])
    }
  }

  @Test func anUnstorableValueIsReportedAtTheFirstStepWithOneNamingCellTimeAndRange() throws {
    let directory = SampleFiles.temporaryDirectory("pipeline-unstorable")
    defer { SampleFiles.remove(directory) }
    // At a step of 0.001 °C temperatures reach from −150 °C to −150 + 65.534 °C: a value
    // of 20 °C is plausible but cannot be stored. Steps 4 and 6 have one, at cells
    // (5, 2) and (1, 0); step 4's is found last.
    let (width, height) = (9, 4)
    let plan = Self.plan(width: width, height: height, steps: 8, seed: 2) { (step, _) throws(IngestError) in
      if step == 4 { Thread.sleep(forTimeInterval: 0.2) }
      var values = Self.metrics.map { _ in [Double](repeating: -100, count: width * height) }
      if step == 4 { values[0][2 * width + 5] = 20 }
      if step == 6 { values[0][1] = 30 }
      return values
    }
    let top = -150 + 0.001 * 65534.0
    for schedule in [
      CubePublisher.Schedule(bandCells: nil, workers: 3, packsInBackground: false),
      CubePublisher.Schedule(bandCells: 32, workers: 2, packsInBackground: true),
    ] {
      let error = #expect(throws: IngestError.self) {
        try Self.publish(plan, into: "\(directory)/store", schedule, precision: [.temp: 0.001])
      }
      #expect(
        error?.description
          == "/inputs/step-4.nc: temp: value 20.0 °C at cell i=5, j=2 on 2026-06-20T04:00:00Z is outside the storable range -150.0…\(top)"
      )
    }
  }
}
