import FaceKit
import PointQuery
import Store
import UTCTime

/// A store's runs as JSON: what `nwpcube runs --json` prints and `/v1/runs` serves.
public enum RunListing {
  /// One object per run: `model_domain`, `run`, `bytes`, then `first`, `last`, `steps` and
  /// `step_seconds` of a readable cube or `problem` of an unreadable file. `path` is given
  /// when `paths` is true (a local user wants it; an HTTP client has no use for the
  /// server's file layout).
  public static func json(_ runs: [StoredRun], paths: Bool) -> String {
    JSONText.array(runs.map { json($0, path: paths) })
  }

  private static func json(_ run: StoredRun, path: Bool) -> String {
    var members: [(String, String)] = [("model_domain", JSONText.string(run.name)), ("run", JSONText.string(run.run))]
    if path { members.append(("path", JSONText.string(run.path))) }
    members.append(("bytes", String(run.bytes)))
    if let header = run.header {
      members += [
        ("first", JSONText.string(UTC.iso8601(header.firstTime))),
        ("last", JSONText.string(UTC.iso8601(header.lastTime))),
        ("steps", String(header.stepCount)), ("step_seconds", String(header.stepSeconds)),
      ]
    } else {
      members.append(("problem", JSONText.string(run.problem ?? "")))
    }
    return JSONText.object(members)
  }
}
