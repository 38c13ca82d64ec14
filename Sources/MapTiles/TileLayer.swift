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

  /// The steps of `cube` whose positions this layer draws at `time`: those the metric's
  /// value reads, or the step holding `time` for the land mask. A moving grid answers a
  /// pixel only where it holds it at the first and the last of them; for a metric the first
  /// is the hour before the first step read, as for points (`Cube.answeringSteps`), so that
  /// the parent draws a move's leading edge, where the nest has no hourly amounts.
  func steps(of cube: Cube, at time: Int64) -> ClosedRange<Int> {
    switch self {
    case .metric(let metric):
      let read = cube.stepsRead(at: time, temporal: metric.temporal)
      return cube.isMoving ? cube.hourBefore(step: read.lowerBound)...read.upperBound : read
    case .land:
      return cube.step(holding: time)...cube.step(holding: time)
    }
  }
}
