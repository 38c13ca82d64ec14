import ArgumentParser
import FaceKit
import Meteorology
import PointQuery
import UTCTime

struct QueryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "query",
    abstract: "Print the metrics at one point and time as one JSON object.",
    discussion: """
      Times between output steps are interpolated linearly (wind through its u/v \
      components); rain and snow are the amount in the hour ending at the time. A metric \
      the cube does not hold is null, and "unavailable" gives the reason. \
      precipitation_probability averages the precip_neighbourhood of up to four runs \
      covering the time; "precipitation_probability_members" names them, newest first.
      """
  )

  @OptionGroup var point: PointOptions

  @Option(help: "Valid time, ISO 8601 (e.g. 2026-06-20T15:00:00Z).")
  var time: String

  func run() throws {
    let seconds = try parseTime(time, option: "--time")
    let (sources, answering) = try point.sources(time: seconds)
    let cube = answering.cube
    // A moving nest's cell at the time asked (the step at or before it), for provenance.
    let step = Int((seconds - cube.firstTime) / cube.stepLength)
    let location = cube.location(answering.location, atStep: step) ?? answering.location
    let metrics = try point.resolveMetrics(in: cube)
    var values: [(String, String)] = []
    var probabilityMembers: [String]?
    for metric in metrics {
      let value: Double?
      if metric.metric.origin == .timeLaggedMembers {
        // A mean over the runs covering the time, not a value of the answering cube.
        let probability = sources.precipitationProbability(at: seconds)
        value = probability?.value
        probabilityMembers = probability?.members.map { Answer.run(sources.sources[$0].cube) } ?? []
      } else {
        value = try cube.value(metric, at: location, time: seconds)
      }
      values.append((metric.metric.name, JSONText.number(value, decimals: metric.metric.decimals)))
    }
    var members = Answer.provenance(cube: cube, location: location, method: point.method)
    members.insert(("time", JSONText.string(UTC.iso8601(seconds))), at: 0)
    members.append(("values", JSONText.object(values)))
    if let probabilityMembers {
      members.append(
        (Answer.probabilityMembersKey, JSONText.array(probabilityMembers.map(JSONText.string))))
    }
    members.append(("units", Answer.units(metrics)))
    let unavailable = metrics.filter { !$0.isAvailable }
    if !unavailable.isEmpty { members.append(("unavailable", Answer.unavailable(unavailable, in: cube))) }
    print(JSONText.object(members))
  }
}

/// The parts every point answer shares.
enum Answer {
  /// The key listing the runs `precipitation_probability` averaged, newest first (one run:
  /// the value is its neighbourhood share; none: no run had a value).
  static let probabilityMembersKey = "precipitation_probability_members"

  /// A run as provenance names it: `wrf/d01 2026062000`.
  static func run(_ cube: Cube) -> String { "\(cube.name) \(cube.run)" }

  static func provenance(cube: Cube, location: PointLocation, method: InterpolationMethod) -> [(String, String)] {
    [
      ("method", JSONText.string(method.rawValue)),
      ("model", JSONText.string(cube.header.model)),
      ("run", JSONText.string(cube.run)),
      ("domain", JSONText.string(cube.header.domain)),
      (
        "cell",
        JSONText.object([
          ("i", String(location.i)), ("j", String(location.j)),
          ("latitude", JSONText.number(location.latitude, decimals: 4)),
          ("longitude", JSONText.number(location.longitude, decimals: 4)),
        ])
      ),
    ]
  }

  /// Why each metric `cube` lacks is null: ingest left it out because the model output
  /// lacked its inputs (the ingest warnings named them), or an older ingest skipped it.
  static func unavailable(_ metrics: [QueryMetric], in cube: Cube) -> String {
    JSONText.object(
      metrics.map { ($0.metric.name, JSONText.string(cube.absenceReason($0.metric))) })
  }

  static func units(_ metrics: [QueryMetric]) -> String {
    JSONText.object(metrics.map { ($0.metric.name, JSONText.string($0.metric.unit)) })
  }
}
