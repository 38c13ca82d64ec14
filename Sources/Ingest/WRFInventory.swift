import NetCDF
import UTCTime

/// The files of one WRF domain of one run, in time order, with the facts every step shares.
struct WRFInventory {
  let domain: String
  let steps: [StepSource]
  let stepSeconds: Int64
  let runStart: Int64
  /// Whether the first step is the run's initial time, so accumulations start at zero.
  let startsAtRunStart: Bool
  let width: Int
  let height: Int
  let globalAttributes: [String: NCAttribute]
  /// The variables of the first file; every file must have the ones a metric uses.
  let variables: [String: NCVariable]
  /// The files the scan opened, kept open for the reads that follow.
  let inputs: OpenInputs

  var firstPath: String { steps[0].path }

  /// The most levels of any 3-D `(Time, level, rows, columns)` variable, staggered
  /// included; 0 when there is none.
  var levels: Int {
    variables.values.filter { $0.shape.count == 4 }.map { $0.shape[1] }.max() ?? 0
  }

  /// Scans every file's metadata and `Times` and groups them by domain (GRID_ID).
  static func scan(_ paths: [String]) throws(IngestError) -> [WRFInventory] {
    guard !paths.isEmpty else {
      throw IngestError(path: "ingest", reason: "no input files given")
    }
    var byDomain: [String: [(file: ScannedFile, steps: [StepSource])]] = [:]
    let inputs = OpenInputs()
    for path in paths {
      let scanned = try ScannedFile(path: path, keepingOpenIn: inputs)
      byDomain[scanned.domain, default: []].append((scanned, scanned.steps))
    }
    var inventories: [WRFInventory] = []
    for domain in byDomain.keys.sorted() {
      inventories.append(try assemble(domain: domain, files: byDomain[domain] ?? [], inputs: inputs))
    }
    return inventories
  }

  private static func assemble(
    domain: String, files: [(file: ScannedFile, steps: [StepSource])], inputs: OpenInputs
  ) throws(IngestError) -> WRFInventory {
    let first = files[0].file
    for (other, steps) in files.dropFirst() {
      guard other.width == first.width, other.height == first.height else {
        // Every step of the file has this shape; its first is named.
        let place = steps.first.map { " at step \($0.index) (\(UTC.iso8601($0.time)))" } ?? ""
        throw IngestError(
          path: other.path,
          reason:
            "grid is \(other.width)×\(other.height)\(place) but \(first.path) of the same domain \(domain) is \(first.width)×\(first.height)"
        )
      }
      guard other.runStart == first.runStart else {
        throw IngestError(
          path: other.path, variable: "SIMULATION_START_DATE",
          reason:
            "belongs to the run of \(UTC.iso8601(other.runStart)), but \(first.path) to the run of \(UTC.iso8601(first.runStart)); ingest one run at a time"
        )
      }
    }
    let steps = files.flatMap(\.steps).sorted { ($0.time, $0.path, $0.index) < ($1.time, $1.path, $1.index) }
    let stepSeconds = try TimeAxis.stepSeconds(of: steps, timeVariable: "Times")
    return WRFInventory(
      domain: domain, steps: steps, stepSeconds: stepSeconds, runStart: first.runStart,
      startsAtRunStart: steps[0].time == first.runStart, width: first.width, height: first.height,
      globalAttributes: first.attributes, variables: first.variables, inputs: inputs)
  }
}

/// What one input file contributes, read from its metadata and `Times`.
private struct ScannedFile {
  let path: String
  let domain: String
  let runStart: Int64
  let width: Int
  let height: Int
  let attributes: [String: NCAttribute]
  let variables: [String: NCVariable]
  let steps: [StepSource]

  init(path: String, keepingOpenIn inputs: OpenInputs) throws(IngestError) {
    do {
      let file = try NCFile.open(path)
      // Kept open for the field reads only once the file has passed every check here.
      var accepted = false
      defer { if accepted { inputs.keep(file) } else { file.close() } }
      for required in ["Times", "T2", "XLAT", "XLONG"] where file.variables[required] == nil {
        throw IngestError(
          path: path, variable: required,
          reason: "required variable is missing; is this a WRF wrfout file?")
      }
      let times = try file.variable("Times")
      guard times.type == .char, times.shape.count == 2 else {
        throw IngestError(path: path, variable: "Times", reason: "expected char Times(Time, DateStrLen)")
      }
      let strings = try file.readStrings("Times", start: [0, 0], count: times.shape)
      var steps: [StepSource] = []
      for (index, text) in strings.enumerated() {
        guard let time = UTC.parseWRF(text) else {
          throw IngestError(
            path: path, variable: "Times", reason: "step \(index + 1) is \"\(text)\", not YYYY-MM-DD_HH:MM:SS")
        }
        let checked = try TimeAxis.checked(time, path: path, variable: "Times", what: "step \(index + 1)")
        steps.append(StepSource(path: path, index: index, time: checked))
      }
      guard let firstTime = steps.first?.time else {
        throw IngestError(path: path, variable: "Times", reason: "the file has no time steps")
      }
      let t2 = try file.variable("T2")
      guard t2.dimensions.count == 3, t2.dimensions[0] == "Time", t2.shape[0] == steps.count else {
        throw IngestError(
          path: path, variable: "T2", reason: "expected T2(Time, south_north, west_east), found \(t2.dimensions)")
      }
      self.path = path
      self.height = t2.shape[1]
      self.width = t2.shape[2]
      self.attributes = file.globalAttributes
      self.variables = file.variables
      self.steps = steps
      self.domain = try Self.domain(file.globalAttributes["GRID_ID"], path: path)
      // The run is the simulation's start; cut or restarted files may only say START_DATE.
      let start = ["SIMULATION_START_DATE", "START_DATE"].lazy.compactMap { name in
        file.globalAttributes[name]?.text.flatMap(UTC.parseWRF).map { (name, $0) }
      }.first
      self.runStart =
        try start.map { (name, time) throws(IngestError) in
          try TimeAxis.checked(time, path: path, variable: name, what: "the run's start")
        } ?? firstTime
      accepted = true
    } catch let error as IngestError {
      throw error
    } catch let error as NCError {
      throw IngestError(error)
    } catch {
      throw IngestError(path: path, reason: "\(error)")
    }
  }

  /// The domain name (`d01`…`d99`) of a file's `GRID_ID`, which WRF numbers from 1; a file
  /// without one is the outermost domain. Anything but a whole number in 1…99 is refused:
  /// it would name a directory of the store (`d0-5`) or trap when converted (NaN, 1e300).
  static func domain(_ attribute: NCAttribute?, path: String) throws(IngestError) -> String {
    guard let attribute else { return "d01" }
    guard let number = attribute.number, number.isFinite, number.rounded() == number, (1...99).contains(number)
    else {
      let shown = attribute.text.map { "\"\($0)\"" } ?? attribute.number.map { "\($0)" } ?? "empty"
      throw IngestError(
        path: path, variable: "GRID_ID", reason: "\(shown) is not a domain number; WRF numbers domains 1…99")
    }
    let id = Int(number)
    return id < 10 ? "d0\(id)" : "d\(id)"
  }
}
