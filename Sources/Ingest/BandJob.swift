import CubeFormat
import Dispatch
import Foundation
import Meteorology
import Synchronization
import UTCTime

/// The filling of one band of a cube: every step of the plan derived over the band's rows,
/// guarded and quantized into the band's words by the thread that derived it, a thread per
/// core taking the next step as it finishes one.
///
/// Steps are taken in step order, and a step that fails stops the taking of later ones, so
/// every step before it is taken and finished: the error reported is that of the first step
/// in step order that has one, as a one-at-a-time ingest would report it.
struct BandJob: Sendable {
  let plan: IngestPlan
  let rows: RowBand
  /// The cube's metric table, whose ranges an unstorable value's error names.
  let metrics: [CubeMetric]
  /// The cube's path, which a refused write names.
  let destination: String
  let words: BandWords

  /// The steps taken so far and the first failure, in step order.
  private final class Schedule: Sendable {
    private struct State {
      var next = 0
      var failure: (step: Int, error: IngestError)?
    }
    private let state = Mutex(State())
    private let steps: Int

    init(steps: Int) { self.steps = steps }

    /// The next step, nil once every step is taken or a step before it failed.
    func take() -> Int? {
      state.withLock { state in
        guard state.next < steps, state.next < state.failure?.step ?? .max else { return nil }
        defer { state.next += 1 }
        return state.next
      }
    }

    /// Records `error` at `step`, kept when it is the earliest failure.
    func fail(_ step: Int, _ error: IngestError) {
      state.withLock { state in
        if step < state.failure?.step ?? .max { state.failure = (step, error) }
      }
    }

    var failure: IngestError? { state.withLock { $0.failure?.error } }
  }

  /// Fills the band with `workers` threads (the calling thread alone for one); returns the
  /// error of the first failing step, nil when every step is stored.
  func run(workers: Int) -> IngestError? {
    let schedule = Schedule(steps: plan.steps.count)
    let threads = Swift.max(1, Swift.min(workers, plan.steps.count))
    let work = { @Sendable () in
      while let index = schedule.take() {
        if let error = fill(step: index) { schedule.fail(index, error) }
      }
    }
    // Threads of their own, not `concurrentPerform`'s: called from a thread of a busy
    // dispatch pool (Swift concurrency's, say), that may run every iteration on the calling
    // thread, one after the other.
    let helpers = DispatchGroup()
    for _ in 1..<threads {
      helpers.enter()
      Thread {
        work()
        helpers.leave()
      }.start()
    }
    work()
    helpers.wait()
    return schedule.failure
  }

  /// Derives step `index`, guards each metric's values and stores them; the step's error,
  /// nil when it is stored.
  private func fill(step index: Int) -> IngestError? {
    let step = plan.steps[index]
    var values: [[Double]]
    do {
      values = try plan.derive(index, rows)
    } catch {
      return error
    }
    guard let row = words.claim(step: index) else {
      // Each step is taken once: a claim refused is a fault of this loop, not of the input.
      return IngestError(
        path: destination,
        reason: "cannot write the cube: step \(index) of the band at cell \(rows.owned.lowerBound) was taken twice")
    }
    let owned = rows.ownedInRows
    for (slot, metric) in plan.metrics.enumerated() {
      let problem = values[slot].withUnsafeMutableBufferPointer { all -> IngestError? in
        let checked = UnsafeMutableBufferPointer(rebasing: all[owned])
        guard let offset = store(checked, metric: metric, slot: slot, step: step, into: row) else { return nil }
        let cell = rows.owned.lowerBound + offset
        let range = metrics[slot].range
        return IngestError(
          path: step.path, variable: metric.name,
          reason:
            "value \(checked[offset]) \(metric.unit) at cell i=\(cell % plan.width), j=\(cell / plan.width) on \(UTC.iso8601(step.time)) is outside the storable range \(range.lowerBound)…\(range.upperBound)"
        )
      }
      if let problem { return problem }
    }
    return nil
  }

  /// Guards `values` of `metric` (`InputScreen.guardDerived`) and stores them in `row`;
  /// the index of the first value the cube cannot represent, nil when all fit.
  ///
  /// The guard's check and the store share one read of the values: the derivation wrote
  /// them a whole step earlier, beyond the second-level cache, and reading them twice,
  /// once to check and once to store, cost a pass over memory per metric and step. Only a
  /// metric with an implausible value, which should never be, is guarded and stored again.
  private func store(
    _ values: UnsafeMutableBufferPointer<Double>, metric: Metric, slot: Int, step: StepSource,
    into row: borrowing StepWords
  ) -> Int? {
    let region = ReadRegion.owned(by: rows)
    if let range = metric.plausibleRange, range.lower <= range.upper {
      let once = row.store(metric: slot, values: UnsafeBufferPointer(values), checking: range.lower...range.upper)
      if once.plausible {
        plan.screen.recordPlausible(metric, count: values.count, step: step, region: region)
        return once.unrepresentable
      }
    }
    plan.screen.guardDerived(metric, values, step: step, region: region)
    return row.store(metric: slot, values: UnsafeBufferPointer(values))
  }
}
