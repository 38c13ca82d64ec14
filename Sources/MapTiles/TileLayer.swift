import Meteorology
import PointQuery

/// What a tile shows: a metric on its colour scale, or the base map of land and sea.
public enum TileLayer: Sendable, Equatable, CustomStringConvertible {
  case metric(Metric)
  /// Sea and land from the cube's land mask, with the coastline where it changes.
  case land

  /// The name of the base layer in a tile's path.
  public static let landName = "land"

  /// The layer named `name` in a tile's or legend's path; `TileError.unknownMetric` names
  /// the choices.
  public init(name: String) throws(TileError) {
    if name == Self.landName {
      self = .land
    } else if let metric = Metric.named(name) {
      self = .metric(metric)
    } else {
      throw .unknownMetric(name, known: Self.names)
    }
  }

  /// Every layer name: the metrics, then `land`.
  public static var names: [String] { Metric.queryable.map(\.name) + [landName] }

  public var description: String {
    switch self {
    case .metric(let metric): metric.name
    case .land: Self.landName
    }
  }

  /// The steps of `cube` this layer reads at `time`: those the metric's value reads, or the
  /// step holding `time` for the land mask. A moving grid is drawn at their positions.
  func steps(of cube: Cube, at time: Int64) -> ClosedRange<Int> {
    switch self {
    case .metric(let metric): cube.stepsRead(at: time, temporal: metric.temporal)
    case .land:
      cube.step(holding: time)...cube.step(holding: time)
    }
  }
}
