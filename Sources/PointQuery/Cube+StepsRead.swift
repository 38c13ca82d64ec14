import Meteorology

extension Cube {
  /// The steps a value of a `temporal` metric at `time` reads, as `value(_:at:time:)` reads
  /// them: the step itself at a step; between steps s and s + 1, both for an instant (it is
  /// interpolated) and s + 1 alone for an amount or a class (the interval ending at s + 1).
  /// Pictures use it to take a moving grid's positions at exactly the steps a value comes
  /// from. `time` is clamped into the run.
  public func stepsRead(at time: Int64, temporal: Metric.Temporal) -> ClosedRange<Int> {
    let elapsed = min(max(time, firstTime), lastTime) - firstTime
    let step = Int(elapsed / stepLength)
    guard elapsed % stepLength != 0, step + 1 < stepCount else { return step...step }
    return temporal == .instant ? step...(step + 1) : (step + 1)...(step + 1)
  }

  /// The step whose interval holds `time`: the step at or before it, clamped into the run.
  /// A moving grid's extent "at a time" is that step's position.
  public func step(holding time: Int64) -> Int {
    Int((min(max(time, firstTime), lastTime) - firstTime) / stepLength)
  }
}
