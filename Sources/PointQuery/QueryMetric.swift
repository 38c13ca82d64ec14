import Meteorology

/// A metric resolved against one cube: which stored blocks answer it.
public struct QueryMetric: Sendable, Equatable {
  /// The metric asked for.
  public let metric: Metric
  @usableFromInline let source: Source

  @usableFromInline
  enum Source: Sendable, Equatable {
    /// A stored block (its index in the cube's metric table).
    case stored(Int)
    /// Speed from stored u and v.
    case windSpeed(u: Int, v: Int)
    /// Direction from stored u and v.
    case windDirection(u: Int, v: Int)
    /// Not in this cube: its inputs were missing at ingest.
    case absent
  }

  init(metric: Metric, source: Source) {
    self.metric = metric
    self.source = source
  }

  /// Whether the cube has the data for this metric.
  public var isAvailable: Bool { source != .absent }
}
