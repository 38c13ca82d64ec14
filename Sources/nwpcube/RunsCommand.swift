import ArgumentParser
import HTTPService
import NwpcubeFace
import PointQuery
import Store
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
      print(RunListing.json(runs.map(\.listed), paths: true))
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
          run.name.padded(13), run.run.padded(11), UTC.iso8601(header.firstTime).padded(21),
          UTC.iso8601(header.lastTime).padded(21), String(header.stepCount).padded(6),
          "\(header.stepSeconds / 60)m".padded(6), String(run.bytes).padded(11), run.path,
        ].joined(separator: " "))
    }
  }
}
