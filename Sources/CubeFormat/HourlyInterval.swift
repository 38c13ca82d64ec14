/// The output steps an hourly amount (temporal kind 1) is taken over: ingest subtracts the
/// accumulation at `earlierStep` from the accumulation at the step. One rule for both
/// sides, because a reader that asks where an hour began (a moving grid holds a place only
/// from the hour after it reaches it, `Cube.answeringSteps`) must count the steps exactly
/// as ingest did.
public enum HourlyInterval {
  /// Output steps per hour: at least one, a step longer than an hour being its own interval
  /// (its amount spread over its hours).
  public static func steps(stepSeconds: Int64) -> Int { max(1, Int(3600 / stepSeconds)) }

  /// The step whose accumulation is subtracted from `step`'s: `steps(stepSeconds:)` before
  /// it, or the run's first step within the first hour (the hour so far, knowable only when
  /// the output starts at the run's start).
  public static func earlierStep(of step: Int, stepSeconds: Int64) -> Int {
    let hour = steps(stepSeconds: stepSeconds)
    return step >= hour ? step - hour : 0
  }
}
