import UTCTime

/// One output time in one input file.
struct StepSource: Equatable {
  let path: String
  let index: Int
  let time: Int64
}

/// The checks every convention's time axis must pass before a cube can hold it.
enum TimeAxis {
  /// The uniform step of time-sorted steps. Duplicates, gaps and uneven spacing are errors
  /// naming the file; so is a step that neither divides nor is a multiple of an hour,
  /// because hourly precipitation is then undefined. A single step counts as hourly.
  static func stepSeconds(of steps: [StepSource], timeVariable: String) throws(IngestError) -> Int64 {
    for (a, b) in zip(steps, steps.dropFirst()) where a.time == b.time {
      throw IngestError(
        path: b.path,
        reason:
          "duplicate step \(UTC.iso8601(b.time)): also in \(a.path) (step \(a.index + 1)); give each output time once")
    }
    let stepSeconds = steps.count > 1 ? steps[1].time - steps[0].time : 3600
    for (a, b) in zip(steps, steps.dropFirst()) where b.time - a.time != stepSeconds {
      let gap = b.time - a.time
      throw IngestError(
        path: b.path,
        reason: gap > stepSeconds && gap % stepSeconds == 0
          ? "gap in the time axis: \(UTC.iso8601(a.time)) (\(a.path)) is followed by \(UTC.iso8601(b.time)); \(gap / stepSeconds - 1) step(s) of \(stepSeconds / 60) min missing"
          : "output times are not evenly spaced: \(UTC.iso8601(a.time)) to \(UTC.iso8601(b.time)) is \(gap / 60) min, earlier steps are \(stepSeconds / 60) min apart"
      )
    }
    guard stepSeconds % 3600 == 0 || 3600 % stepSeconds == 0 else {
      throw IngestError(
        path: steps[0].path, variable: timeVariable,
        reason: "output step of \(stepSeconds) s neither divides nor is a multiple of an hour; hourly rain is undefined"
      )
    }
    return stepSeconds
  }
}
