import Warnings

/// What a `DarkSkyQuery` read, in canonical units, ready for `DarkSkyDocument`. A block
/// left out by `exclude` is nil (or empty); hours and days no run covers are left out.
public struct DarkSkyAnswer: Sendable {
  public let query: DarkSkyQuery
  /// The conditions at the query's time, nil when no run covers it; read even when
  /// `currently` is excluded, for the minutely summary.
  public var currently: DarkSkyHour?
  /// Nil when excluded, for a Time Machine request, or when the run's step is longer than
  /// `DarkSkyQuery.longestMinutelyStep`.
  public var minutely: [DarkSkyMinute]?
  /// The step (seconds) of the run `minutely` came from.
  public var minutelyStep: Int64?
  public var hourly: [DarkSkyHour]?
  public var daily: [DarkSkyDay]?
  /// The warnings in force from the query's time, in order of onset; empty without rules
  /// or when `alerts` is excluded.
  public var warnings: [Warning] = []
  /// The runs used, `model/domain run` each, for `flags.sources`.
  public var sources: [String] = []

  public init(query: DarkSkyQuery) {
    self.query = query
  }
}
