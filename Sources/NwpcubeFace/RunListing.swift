import JSONOutput
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

  /// One run as the listing writes it: `model_domain`, `run`, `bytes`, then `first`,
  /// `last`, `steps` and `step_seconds` of a readable cube or `problem` of an unreadable
  /// file. `path` is given when asked for (a local user wants it; an HTTP client has no use
  /// for the server's file layout).
  public struct Entry: Encodable, Sendable {
    public let run: Run
    public let showsPath: Bool

    /// `run`, with its path when `showsPath`.
    public init(_ run: Run, showsPath: Bool) {
      self.run = run
      self.showsPath = showsPath
    }

    private enum CodingKeys: String, CodingKey {
      case modelDomain = "model_domain"
      case run, path, bytes, first, last, steps
      case stepSeconds = "step_seconds"
      case problem
    }

    /// The members in the listing's order, which a synthesized conformance could not
    /// give: the axis is a tuple, and either it or the problem is written.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(run.name, forKey: .modelDomain)
      try container.encode(run.run, forKey: .run)
      if showsPath { try container.encode(run.path, forKey: .path) }
      try container.encode(run.bytes, forKey: .bytes)
      if let axis = run.axis {
        try container.encode(UTC.iso8601(axis.first), forKey: .first)
        try container.encode(UTC.iso8601(axis.last), forKey: .last)
        try container.encode(axis.steps, forKey: .steps)
        try container.encode(axis.stepSeconds, forKey: .stepSeconds)
      } else {
        try container.encode(run.problem ?? "", forKey: .problem)
      }
    }
  }

  /// `/v1/runs`' answer, `{"runs": [...]}`, without paths.
  public struct Document: Encodable, Sendable {
    public let runs: [Entry]

    /// The listing of `runs`, with their paths when `paths` is true.
    public init(_ runs: [Run], paths: Bool) {
      self.runs = runs.map { Entry($0, showsPath: paths) }
    }
  }

  /// The runs as a JSON array of `Entry`s, what `nwpcube runs --json` prints.
  public static func json(_ runs: [Run], paths: Bool) -> String {
    // An entry holds strings and integers only, which always encode.
    (try? OrderedJSONEncoder().text(Document(runs, paths: paths).runs)) ?? "[]"
  }
}
