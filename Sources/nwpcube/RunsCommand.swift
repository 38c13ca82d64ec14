import ArgumentParser
import ForecastOutput
import PointQuery
import UTCTime

struct RunsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "runs",
    abstract: "List the runs in a store: model/domain, run, valid times, steps and size.",
    discussion: "Newest run first within each model/domain. Unreadable files are listed with the reason."
  )

  @Option(help: "The store directory.")
  var store: String

  @Flag(help: "Print a JSON array instead of a table.")
  var json = false

  func run() throws {
    let runs = StoreInventory.runs(in: store)
    guard !runs.isEmpty else { throw QueryError.emptyStore(store) }
    if json {
      print(JSONText.array(runs.map(Self.json)))
      return
    }
    print("model/domain  run         first valid           last valid            steps  step   bytes       path")
    for run in runs {
      guard let header = run.header else {
        print("\(run.name.padded(13)) unreadable: \(run.problem ?? "")")
        continue
      }
      print(
        [
          run.name.padded(13), run.run.padded(11), UTC.iso8601(header.firstStep).padded(21),
          UTC.iso8601(header.lastStep).padded(21), String(header.steps).padded(6),
          "\(header.stepSeconds / 60)m".padded(6), String(run.bytes).padded(11), run.path,
        ].joined(separator: " "))
    }
  }

  private static func json(_ run: StoredRun) -> String {
    var members: [(String, String)] = [
      ("model_domain", JSONText.string(run.name)), ("run", JSONText.string(run.run)),
      ("path", JSONText.string(run.path)), ("bytes", String(run.bytes)),
    ]
    if let header = run.header {
      members += [
        ("first", JSONText.string(UTC.iso8601(header.firstStep))),
        ("last", JSONText.string(UTC.iso8601(header.lastStep))),
        ("steps", String(header.steps)), ("step_seconds", String(header.stepSeconds)),
      ]
    } else {
      members.append(("problem", JSONText.string(run.problem ?? "")))
    }
    return JSONText.object(members)
  }
}
