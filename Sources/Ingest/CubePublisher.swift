import CubeFormat
import Dispatch
import Foundation
import Meteorology
import Synchronization
import UTCTime

/// Writes an ingest plan into a cube, streaming step by step, and publishes it atomically.
enum CubePublisher {
  /// Writes `plan` at the metric table's precisions, or those of `precision` where it names one.
  /// `cost` is the plan's band cells and steps derived at once (nil: one band, a step
  /// per core); `geometry` is what `ProjectionCheck` found of its grid.
  static func publish(
    _ plan: IngestPlan, store: String, model: String, precision: [Metric: Double] = [:], cost: IngestCost? = nil,
    geometry: ProjectionCheck.Outcome
  ) throws(IngestError) -> Ingestor.Published {
    try publish(
      plan, store: store, model: model, precision: precision, schedule: Schedule(cost: cost), geometry: geometry)
  }

  /// How a cube is written: its bands, the steps derived at once, and whether a band is
  /// packed in the background while the next is derived.
  struct Schedule: Sendable {
    /// Cells per band; nil for one band over every cell.
    var bandCells: Int?
    /// Steps derived at once; nil for `concurrentSteps(cells:metrics:)`.
    var workers: Int?
    var packsInBackground = false

    /// The schedule of `cost`'s plan (nil: one band, a step per core, nothing in the
    /// background).
    init(cost: IngestCost?) {
      bandCells = (cost?.bands ?? 1) > 1 ? cost?.bandCells : nil
      workers = cost?.concurrentSteps
      packsInBackground = cost?.packsInBackground ?? false
    }

    init(bandCells: Int?, workers: Int?, packsInBackground: Bool) {
      (self.bandCells, self.workers, self.packsInBackground) = (bandCells, workers, packsInBackground)
    }
  }

  /// Writes `plan` as `publish(_:store:model:precision:cost:geometry:)` does, on `schedule`.
  static func publish(
    _ plan: IngestPlan, store: String, model: String, precision: [Metric: Double] = [:], schedule: Schedule,
    geometry: ProjectionCheck.Outcome
  ) throws(IngestError) -> Ingestor.Published {
    // Every convention validates each input file's grid (`InputGrid.validated()`, naming
    // the file and its variables) before it makes a plan, but for a CF lattice's, whose
    // check runs beside the derivation and is awaited before publishing (`gridCheck`).
    let first = plan.steps[0]
    let run = UTC.runIdentifier(plan.runStart)
    let header = CubeHeader(
      width: plan.width, height: plan.height, stepCount: plan.steps.count, firstTime: first.time,
      stepSeconds: plan.stepSeconds, runStart: plan.runStart, model: model, domain: plan.domain,
      // A spacing no cube can hold (DX negative or NaN) is stored as unknown, 0: the
      // projection check has already warned that it describes no projection, and the
      // spacing only ranks nested domains.
      gridSpacing: CubeLimits.gridSpacing.contains(plan.gridSpacing) ? plan.gridSpacing : 0,
      projection: plan.projection,
      metrics: plan.metrics.map {
        CubeMetric(
          name: $0.name, unit: $0.unit, temporal: $0.temporal.rawValue, scale: precision[$0] ?? $0.step ?? 1,
          offset: $0.offset)
      }, inputConvention: plan.inputConvention?.rawValue ?? 0)
    // Checked before anything is written, so that the error names the input rather than
    // the cube that would have been: a WRF file whose DX is NaN, say.
    if let problem = CubeLimits.problem(in: header) {
      throw IngestError(path: first.path, reason: "cannot store this run in a cube: \(problem)")
    }
    let destination = StoreLayout.path(store: store, model: model, domain: plan.domain, run: run)
    if let motion = plan.motion, motion.positions.count > CubeLimits.positions.upperBound {
      throw IngestError(
        path: first.path,
        reason:
          "cannot store this run in a cube: its grid takes \(motion.positions.count) positions, more than \(CubeLimits.positions.upperBound)"
      )
    }
    // The bands of the plan (one over every cell when the run fits its budget whole), and
    // what the cube records of its geometry.
    let layout = CubeWriter.Layout(
      bandCells: schedule.bandCells, projectionChecked: geometry.locatesEveryCell,
      locatorIndex: geometry.locatorIndex, packsInBackground: schedule.packsInBackground)
    let writer: CubeWriter
    do {
      // A moving grid: every position with its terrain, and each step's; a grid that does
      // not move has one.
      let positions =
        plan.motion?.positions.map {
          CubeGrid(latitudes: $0.latitudes, longitudes: $0.longitudes, terrain: $0.terrain)
        } ?? [CubeGrid(latitudes: plan.latitudes, longitudes: plan.longitudes, terrain: plan.terrain)]
      writer = try CubeWriter(
        header: header, positions: positions,
        stepPositions: plan.motion?.stepPositions ?? [Int](repeating: 0, count: plan.steps.count),
        destination: destination, layout: layout)
    } catch {
      throw IngestError(path: error.path, reason: error.reason)
    }
    // Band by band (the writer's: each band's cells are packed and appended once its last
    // step is in, in the background when the plan holds two bands), every step is derived,
    // guarded and quantized by one of a thread per core, and the error reported is that of
    // the first step in step order that has one, as a one-at-a-time ingest would report.
    for band in 0..<writer.bandCount {
      let rows = RowBand.covering(writer.cells(ofBand: band), width: plan.width, height: plan.height)
      let workers = schedule.workers ?? concurrentSteps(cells: rows.cells, metrics: plan.metrics.count)
      guard let words = writer.words(ofBand: band) else {
        let refused = writer.refusedWrite ?? "band \(band) was refused"
        writer.abandon()
        throw IngestError(path: destination, reason: "cannot write the cube: \(refused)")
      }
      let job = BandJob(
        plan: plan, rows: rows, metrics: header.metrics, destination: destination, words: words)
      if let error = job.run(workers: workers) {
        writer.abandon()
        throw error
      }
    }
    // Every step is read: a field too much of which is implausible refuses the run, and so
    // does the grid's check, when it ran beside the derivation.
    if let refusal = plan.screen.refusal() {
      writer.abandon()
      throw refusal
    }
    if let check = plan.gridCheck {
      do {
        _ = try check.grid()
      } catch {
        writer.abandon()
        throw error
      }
    }
    do {
      let path = try writer.publish()
      return Ingestor.Published(
        path: path, domain: plan.domain, run: run, metrics: plan.metrics.map(\.name), steps: plan.steps.count)
    } catch {
      throw IngestError(path: error.path, reason: error.reason)
    }
  }

  /// The bytes of derived values in flight at once, at most: two steps of a 1,000 × 1,000
  /// grid with 20 metrics.
  static let derivedBudget = 320 << 20

  /// How many steps are derived at once: one per core, up to 8, as long as their values
  /// fit in `derivedBudget`; at least one.
  static func concurrentSteps(cells: Int, metrics: Int) -> Int {
    let perStep = max(1, cells * max(metrics, 1) * MemoryLayout<Double>.stride)
    return max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8, derivedBudget / perStep))
  }
}
