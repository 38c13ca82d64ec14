import CubeFormat
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
  /// The valid times nwpcube accepts, those a cube may hold: 1900-01-01 00:00 to
  /// 2200-12-31 23:59:59 UTC. Model output and reanalyses lie well inside; a time outside
  /// is a corrupt or misread file (a year 9999 placeholder, a time in the wrong units), and
  /// bounding times here also keeps every difference and sum of them far from Int64's
  /// limits.
  static let supportedTimes = CubeLimits.times
  static let supportedYears = "1900–2200"

  /// `time` if it lies in `supportedTimes`; otherwise an error naming the file, the
  /// variable and what the time is.
  static func checked(
    _ time: Int64, path: String, variable: String, what: String
  ) throws(IngestError) -> Int64 {
    guard supportedTimes.contains(time) else {
      throw IngestError(
        path: path, variable: variable,
        reason: "\(what) is \(UTC.iso8601(time)), outside the years \(supportedYears) that nwpcube accepts")
    }
    return time
  }

  /// `reference + value × secondsPerUnit` as Unix seconds, rounded to the second, if it is a
  /// supported time; otherwise an error naming the file and variable. The product is
  /// formed in floating point and bounded before it becomes an integer, so no value a file
  /// holds (1e300, −inf) can overflow.
  static func time(
    _ value: Double, secondsPerUnit: Double, since reference: Int64, path: String, variable: String, what: String
  ) throws(IngestError) -> Int64 {
    let offset = (value * secondsPerUnit).rounded()
    // Supported times span under 2^39 s, so an offset that can land inside them is far
    // inside Int64; a larger one is out of range without being converted.
    if offset.isFinite, abs(offset) < 0x1p40 {
      let (sum, overflow) = reference.addingReportingOverflow(Int64(offset))
      if !overflow { return try checked(sum, path: path, variable: variable, what: what) }
    }
    throw IngestError(
      path: path, variable: variable,
      reason:
        "\(what) is \(value) × \(Int64(secondsPerUnit)) s after \(UTC.iso8601(reference)), outside the years \(supportedYears) that nwpcube accepts"
    )
  }

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
    guard CubeLimits.stepSeconds.contains(stepSeconds) else {
      throw IngestError(
        path: steps[1].path, variable: timeVariable,
        reason:
          "output step of \(stepSeconds / 86_400) days is longer than a cube holds (\(CubeLimits.stepSeconds.upperBound / 86_400) days)"
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
