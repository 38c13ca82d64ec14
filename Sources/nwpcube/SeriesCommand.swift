import ArgumentParser
import ForecastOutput
import PointQuery
import UTCTime

struct SeriesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "series",
    abstract: "Print a point's values at every output step between two times.",
    discussion: "JSON: one object with a times array and one array per metric. CSV: a header, then one row per step."
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
    let (cube, location) = try point.select(time: start)
    let metrics = try point.resolveMetrics(in: cube)
    let steps = try cube.steps(from: start, to: end)
    let times = steps.map { UTC.iso8601(cube.time(ofStep: $0)) }
    let columns = metrics.map { cube.series($0, at: location, steps: steps) }
    switch format {
    case .json:
      var members = Answer.provenance(cube: cube, location: location, method: point.method)
      members.append(("times", JSONText.array(times.map(JSONText.string))))
      members.append(
        (
          "values",
          JSONText.object(
            zip(metrics, columns).map { metric, column in
              (metric.metric.name, JSONText.array(column.map { JSONText.number($0, decimals: metric.metric.decimals) }))
            })
        ))
      members.append(("units", Answer.units(metrics)))
      let unavailable = metrics.filter { !$0.isAvailable }
      if !unavailable.isEmpty { members.append(("unavailable", Answer.unavailable(unavailable))) }
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
