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
    // The grid needs no check here: every convention validates each input file's grid
    // (`InputGrid.validated()`, naming the file and its variables) before it makes a plan.
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
      })
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
      bandCells: (cost?.bands ?? 1) > 1 ? cost?.bandCells : nil,
      projectionChecked: geometry.locatesEveryCell, locatorIndex: geometry.locatorIndex)
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
    // step is in), steps are derived a batch at a time, one per core, and written in step
    // order, so that an error names the first step that has one, as a one-at-a-time
    // ingest would.
    for band in 0..<writer.bandCount {
      let rows = RowBand.covering(writer.cells(ofBand: band), width: plan.width, height: plan.height)
      let owned = rows.ownedInRows
      let batch = cost?.concurrentSteps ?? concurrentSteps(cells: rows.cells, metrics: plan.metrics.count)
      for first in stride(from: 0, to: plan.steps.count, by: batch) {
        let indices = first..<min(first + batch, plan.steps.count)
        for (index, derived) in zip(indices, derive(indices, rows, plan.derive)) {
          let step = plan.steps[index]
          let values: [[Double]]
          switch derived {
          case .success(let success): values = success
          case .failure(let error):
            writer.abandon()
            throw error
          }
          for (slot, metric) in plan.metrics.enumerated() {
            var checked = owned == values[slot].indices ? values[slot] : Array(values[slot][owned])
            plan.screen.guardDerived(metric, &checked, step: step, region: .owned(by: rows))
            let unstorable = checked.withUnsafeBufferPointer {
              writer.write(band: band, metric: slot, step: index, values: $0)
            }
            if let cell = unstorable {
              // A write the writer refused is a fault of this loop, not of the input.
              if let refused = writer.refusedWrite {
                writer.abandon()
                throw IngestError(path: destination, reason: "cannot write the cube: \(refused)")
              }
              writer.abandon()
              throw IngestError(
                path: step.path, variable: metric.name,
                reason:
                  "value \(checked[cell - rows.owned.lowerBound]) \(metric.unit) at cell i=\(cell % plan.width), j=\(cell / plan.width) on \(UTC.iso8601(step.time)) is outside the storable range \(header.metrics[slot].range.lowerBound)…\(header.metrics[slot].range.upperBound)"
              )
            }
          }
        }
      }
    }
    // Every step is read: a field too much of which is implausible refuses the run.
    if let refusal = plan.screen.refusal() {
      writer.abandon()
      throw refusal
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

  /// The values of the steps `indices` over `band`'s rows, derived at once, one thread
  /// per step, in order. Each step's derivation reads its files under libnetcdf's lock and
  /// computes alone.
  private static func derive(
    _ indices: Range<Int>, _ band: RowBand, _ derive: @Sendable (Int, RowBand) throws(IngestError) -> [[Double]]
  ) -> [Result<[[Double]], IngestError>] {
    guard indices.count > 1 else {
      return indices.map { index in Result { () throws(IngestError) in try derive(index, band) } }
    }
    let results = Mutex([Result<[[Double]], IngestError>?](repeating: nil, count: indices.count))
    DispatchQueue.concurrentPerform(iterations: indices.count) { offset in
      let result = Result { () throws(IngestError) in try derive(indices.lowerBound + offset, band) }
      results.withLock { $0[offset] = result }
    }
    // `concurrentPerform` returns after every iteration has run, so every slot is filled.
    return results.withLock { $0.compactMap { $0 } }
  }
}
