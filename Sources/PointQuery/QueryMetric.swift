import Meteorology

/// A metric resolved against one cube: which stored blocks answer it.
///
/// A trivial value (small integers and the source) so that passing one around on the
/// lookup path costs no reference counting. Only the cube that resolved it reads with it:
/// its slots index that cube's metric table, and another cube refuses it with
/// `QueryError.foreignHandle` rather than reading a different metric.
public struct QueryMetric: Sendable, Equatable {
  /// Position of the metric in `Metric.queryable`.
  @usableFromInline let catalogueIndex: Int
  @usableFromInline let source: Source
  /// The cube whose metric table `source` indexes.
  @usableFromInline let maker: CubeIdentity

  /// The metric asked for.
  public var metric: Metric { Metric.queryable[catalogueIndex] }

  @usableFromInline
  enum Source: Sendable, Equatable {
    /// A stored block (its index in the cube's metric table).
    case stored(Int)
    /// Speed from stored u and v.
    case windSpeed(u: Int, v: Int)
    /// Direction from stored u and v.
    case windDirection(u: Int, v: Int)
    /// Whether the sun is up at the cell, computed at query time.
    case sunUp
    /// Not in this cube: its inputs were missing at ingest.
    case absent
  }

  init(metric: Metric, source: Source, maker: CubeIdentity) {
    self.catalogueIndex = metric.index
    self.source = source
    self.maker = maker
  }

  /// Whether the cube has the data for this metric.
  public var isAvailable: Bool { source != .absent }
}
