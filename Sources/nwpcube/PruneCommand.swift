import ArgumentParser
import CubeFormat
import PointQuery
import Store
import UTCTime

struct PruneCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "Delete old runs, keeping the newest N of each model/domain.",
    discussion: """
      An older run that still covers valid times beyond every kept run (a 180-hour run \
      behind a newer 72-hour one) is kept until a newer run reaches that far. Safe while \
      readers run: a process that has a cube open keeps reading it, and picks up the \
      change on its next query. Prints one line per cube: keep, keep (still needed), \
      delete, or skip (unreadable). Also removes the temporary files of ingests that were \
      killed while writing, one line each.
      """
  )

  @Option(help: "The store directory.")
  var store: String

  @Option(help: "Runs to keep per model/domain (at least 1).")
  var keep: Int

  @Flag(help: "Print what would be deleted without deleting anything.")
  var dryRun = false

  func validate() throws {
    guard keep >= 1 else { throw ValidationError("--keep \(keep) must be at least 1") }
  }

  func run() throws {
    let decisions =
      dryRun ? StorePruning.plan(store: store, keep: keep) : try StorePruning.prune(store: store, keep: keep)
    let leftovers = dryRun ? TemporaryFiles.stale(in: store) : TemporaryFiles.removeStale(in: store)
    for leftover in leftovers { print(leftover.described(verb: dryRun ? "would remove" : "removed")) }
    guard !decisions.isEmpty else { throw QueryError.emptyStore(store) }
    for decision in decisions {
      let verb =
        switch decision.action {
        case .keep: "keep"
        case .keepStillNeeded(let until): "keep (still the only run through \(UTC.iso8601(until)))"
        case .delete: dryRun ? "would delete" : "deleted"
        case .skipUnreadable(let reason): "skip (unreadable: \(reason))"
        }
      print("\(decision.name) \(decision.run) \(verb) \(decision.path)")
    }
  }
}
