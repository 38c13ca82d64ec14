import Warnings

/// The part of a Dark Sky answer that stays the same through an hour: `hourly`, `daily`,
/// the warnings in force and the runs they came from, in canonical units. Every request for
/// the same point, zone, units and blocks within the same `DarkSkyQuery.outlookHour` shares
/// one, until the store changes; `currently` and `minutely` are read per request.
public struct DarkSkyOutlook: Sendable {
  /// Nil when excluded.
  public var hourly: [DarkSkyHour]?
  /// Nil when excluded.
  public var daily: [DarkSkyDay]?
  /// In order of onset; empty without rules or when `alerts` is excluded.
  public var warnings: [Warning] = []
  /// `model/domain run` each, in order of first use.
  public var sources: [String]

  public init(sources: [String]) {
    self.sources = sources
  }
}
