import NetCDF
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

/// The steps of files whose time is a CF time coordinate ("<unit> since <date>"), as CF
/// and MM5 files have: every file is opened once, checked by `inspect`, and its times
/// collected; the steps come back sorted, with the first file's units reference.
struct CFTimeScan {
  let steps: [StepSource]
  let reference: Int64
  /// The first file given, for the metadata every file shares.
  let firstPath: String

  init(_ paths: [String], inspect: (NCFile) throws(IngestError) -> Void) throws(IngestError) {
    var steps: [StepSource] = []
    var reference: Int64?
    for path in paths {
      let file = try NCFile.openForIngest(path)
      defer { file.close() }
      try inspect(file)
      let time = try CFTime(file)
      steps += time.times.enumerated().map { StepSource(path: path, index: $0.offset, time: $0.element) }
      reference = reference ?? time.reference
    }
    self.steps = steps.sorted { ($0.time, $0.path, $0.index) < ($1.time, $1.path, $1.index) }
    self.reference = reference ?? 0
    self.firstPath = paths.first ?? ""
  }
}
