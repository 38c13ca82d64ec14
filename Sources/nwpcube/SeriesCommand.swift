import ArgumentParser
import FaceKit
import Meteorology
import PointQuery
import UTCTime

struct SeriesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "series",
    abstract: "Print a point's values at every output step between two times.",
    discussion: """
      JSON: one object with a times array and one array per metric. CSV: a header, then one \
      row per step. precipitation_probability averages up to four runs covering each step; \
      in JSON, "precipitation_probability_members" names them for each step, newest first. \
      Where a moving nest leaves the point, the steps are answered by the run's next finest \
      domain containing it, and in JSON "domains" names the domain of each step.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case json, csv
  }

  @OptionGroup var point: PointOptions

  @Option(help: "First time, ISO 8601.")
  var from: String

  @Option(help: "Last time, ISO 8601 (inclusive).")
  var to: String

  @Option(help: "json or csv.")
  var format: Format = .json

  func run() throws {
    let start = try parseTime(from, option: "--from")
    let end = try parseTime(to, option: "--to")
    guard start <= end else {
      throw ValidationError("--from \(from) is after --to \(to)")
    }
    let (sources, answering) = try point.sources(time: start, through: end)
    let (cube, location) = (answering.cube, answering.location)
    let metrics = try point.resolveMetrics(in: cube)
    let steps = try cube.stepIndices(from: start, to: end)
    let times = steps.map { UTC.iso8601(cube.time(ofStep: $0)) }
    // Each step from the finest of the run's domains that holds the point then: a moving
    // nest answers while its grid holds the point, its parent domain elsewhere.
    let stepSources = steps.map { step in
      let time = cube.time(ofStep: step)
      return sources.sources.first { $0.covers(time) && $0.cube.header.runStart == cube.header.runStart }
    }
    let oneSource = stepSources.allSatisfy { $0?.cube === cube && $0?.firstTime == answering.firstTime }
    // A probability is a mean over the runs covering each step, not a series of this cube.
    let probabilities =
      metrics.contains { $0.metric.origin == .timeLaggedMembers }
      ? steps.map { sources.precipitationProbability(at: cube.time(ofStep: $0)) } : nil
    let columns = try metrics.map { metric throws(QueryError) in
      if metric.metric.origin == .timeLaggedMembers, let probabilities { return probabilities.map { $0?.value } }
      if oneSource { return try cube.series(metric, at: location, steps: steps) }
      return try zip(steps, stepSources).map { step, source throws(QueryError) in
        guard let source else { return nil }
        let time = cube.time(ofStep: step)
        return try source.cube.value(source.cube.metric(metric.metric), at: source.location, time: time)
      }
    }
    switch format {
    case .json:
      var members = Answer.provenance(cube: cube, location: location, method: point.method)
      members.append(("times", JSONText.array(times.map(JSONText.string))))
      if !oneSource {
        let domains = stepSources.map { $0.map { JSONText.string($0.cube.header.domain) } ?? "null" }
        members.append(("domains", JSONText.array(domains)))
      }
      members.append(
        (
          "values",
          JSONText.object(
            zip(metrics, columns).map { metric, column in
              (metric.metric.name, JSONText.array(column.map { JSONText.number($0, decimals: metric.metric.decimals) }))
            })
        ))
      if let probabilities {
        let runs = probabilities.map { probability in
          JSONText.array((probability?.members ?? []).map { JSONText.string(Answer.run(sources.sources[$0].cube)) })
        }
        members.append((Answer.probabilityMembersKey, JSONText.array(runs)))
      }
      members.append(("units", Answer.units(metrics)))
      let unavailable = metrics.filter { !$0.isAvailable }
      if !unavailable.isEmpty { members.append(("unavailable", Answer.unavailable(unavailable, in: cube))) }
      print(JSONText.object(members))
    case .csv:
      print((["time"] + metrics.map(\.metric.name)).joined(separator: ","))
      for (row, time) in times.enumerated() {
        let cells = zip(metrics, columns).map { metric, column in
          column[row].map { JSONText.number($0, decimals: metric.metric.decimals) } ?? ""
        }
        print(([time] + cells).joined(separator: ","))
      }
    }
  }
}
