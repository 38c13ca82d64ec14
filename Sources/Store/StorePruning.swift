import CubeFormat
import Platform
import PointQuery
import UTCTime

/// Removing old runs from a store.
///
/// For every model and domain the newest `keep` runs stay. An older run is deleted unless
/// it still covers valid times beyond the last of every run kept: a 00 UTC 180-hour run
/// behind a 12 UTC 72-hour run still answers days 4–7, so it stays until a newer run
/// reaches that far. Deleting is safe while readers have the cube open: the file's mapping
/// outlives its directory entry, and a reader that finds it gone while rescanning skips it.
public enum StorePruning {
  /// What pruning does with one cube.
  public struct Decision: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
      /// Among the newest `keep` runs.
      case keep
      /// Older than the newest `keep`, but still the only run covering valid times up to
      /// `until`.
      case keepStillNeeded(until: Int64)
      /// Older than the newest `keep` and covered by them: removed.
      case delete
      /// Not readable as a cube; left alone.
      case skipUnreadable(reason: String)
    }

    public let path: String
    /// `model/domain`.
    public let name: String
    /// The run, `yyyyMMddHH` (the file name for an unreadable file).
    public let run: String
    public let action: Action
  }

  /// What `prune` would do, without touching the store. `keep` below 1 counts as 1: the
  /// newest run of a domain is never pruned.
  public static func plan(store: String, keep: Int) -> [Decision] {
    let keep = max(keep, 1)
    var decisions: [Decision] = []
    var keptLast: [String: Int64] = [:]
    var kept: [String: Int] = [:]
    // Newest run first within each model/domain.
    for stored in StoreInventory.runs(in: store) {
      guard let header = stored.header else {
        decisions.append(
          .init(
            path: stored.path, name: stored.name, run: stored.run, action: .skipUnreadable(reason: stored.problem ?? "")
          ))
        continue
      }
      let last = keptLast[stored.name] ?? .min
      let action: Decision.Action
      if kept[stored.name, default: 0] < keep {
        action = .keep
        kept[stored.name, default: 0] += 1
        keptLast[stored.name] = max(last, header.lastTime)
      } else if header.lastTime > last {
        action = .keepStillNeeded(until: header.lastTime)
        keptLast[stored.name] = header.lastTime
      } else {
        action = .delete
      }
      decisions.append(.init(path: stored.path, name: stored.name, run: stored.run, action: action))
    }
    return decisions
  }

  /// Deletes what `plan` marks for deletion and returns the plan. A file that cannot be
  /// removed is an error naming it; files removed before it stay removed.
  public static func prune(store: String, keep: Int) throws(QueryError) -> [Decision] {
    let decisions = plan(store: store, keep: keep)
    for decision in decisions where decision.action == .delete {
      do {
        try Posix.unlink(decision.path)
      } catch {
        guard error.code == Errno.noSuchFile else {
          throw .unreadableCube("\(decision.path): cannot remove: \(error.text)")
        }
      }
    }
    return decisions
  }
}
