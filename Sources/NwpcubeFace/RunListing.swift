import FaceKit
import UTCTime

/// A store's runs as JSON: what `nwpcube runs --json` prints and `/v1/runs` serves.
public enum RunListing {
  /// One stored run as the listing shows it: the holder of the store (the service, the
  /// command line) fills it from the store's inventory, so that this face needs no store.
  public struct Run: Sendable {
    /// `model/domain`.
    public var name: String
    /// The run, `yyyyMMddHH`, or the file name of an unreadable file.
    public var run: String
    /// The cube's path.
    public var path: String
    /// The size of the file in bytes.
    public var bytes: Int
    /// The time axis of a readable cube: its first and last times (Unix seconds), its
    /// number of steps and their length; nil for an unreadable file.
    public var axis: (first: Int64, last: Int64, steps: Int, stepSeconds: Int64)?
    /// Why the file is not a readable cube.
    public var problem: String?

    public init(
      name: String, run: String, path: String, bytes: Int,
      axis: (first: Int64, last: Int64, steps: Int, stepSeconds: Int64)?, problem: String?
    ) {
      self.name = name
      self.run = run
      self.path = path
      self.bytes = bytes
      self.axis = axis
      self.problem = problem
    }

  }

  /// One object per run: `model_domain`, `run`, `bytes`, then `first`, `last`, `steps` and
  /// `step_seconds` of a readable cube or `problem` of an unreadable file. `path` is given
  /// when `paths` is true (a local user wants it; an HTTP client has no use for the
  /// server's file layout).
  public static func json(_ runs: [Run], paths: Bool) -> String {
    JSONText.array(runs.map { json($0, path: paths) })
  }

  private static func json(_ run: Run, path: Bool) -> String {
    var members: [(String, String)] = [("model_domain", JSONText.string(run.name)), ("run", JSONText.string(run.run))]
    if path { members.append(("path", JSONText.string(run.path))) }
    members.append(("bytes", String(run.bytes)))
    if let axis = run.axis {
      members += [
        ("first", JSONText.string(UTC.iso8601(axis.first))),
        ("last", JSONText.string(UTC.iso8601(axis.last))),
        ("steps", String(axis.steps)), ("step_seconds", String(axis.stepSeconds)),
      ]
    } else {
      members.append(("problem", JSONText.string(run.problem ?? "")))
    }
    return JSONText.object(members)
  }
}
