/// A grid of mass points given by their latitude and longitude, `west_east` fastest:
/// cell (i, j) is at index `j · width + i`.
public struct CurvilinearGrid: Sendable {
  /// Number of cells west–east (i).
  public let width: Int
  /// Number of cells south–north (j).
  public let height: Int
  /// Latitude of every cell in degrees.
  public let latitudes: [Float]
  /// Longitude of every cell in degrees, in whatever convention the source used.
  public let longitudes: [Float]

  /// A grid over the given coordinates; fails with a reason when the arrays do not hold
  /// `width × height` finite coordinates in range. Whether they describe a grid a model
  /// could have (no duplicated, misplaced or folded cells) is `validate()`'s concern:
  /// locators accept any grid that passes this, and stay bounded on it.
  public init(width: Int, height: Int, latitudes: [Float], longitudes: [Float]) throws(GeometryError) {
    guard width >= 2, height >= 2 else {
      throw .invalidGrid("a grid needs at least 2×2 cells, got \(width)×\(height)")
    }
    // The product of two untrusted sizes, checked: it must equal the arrays' counts.
    let (cells, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, latitudes.count == cells, longitudes.count == cells else {
      throw .invalidGrid(
        "expected \(width)×\(height) coordinates, got \(latitudes.count) latitudes and \(longitudes.count) longitudes")
    }
    if let bad = latitudes.firstIndex(where: { !$0.isFinite || abs($0) > 90 }) {
      throw .invalidGrid(
        "cell (\(bad % width), \(bad / width)): latitude \(latitudes[bad]) is not a number in −90…90")
    }
    // Longitudes within a turn either side of zero hold both the −180…180 of WRF and MM5 and
    // the 0…360 of CF files; anything beyond is no longitude a model writes.
    if let bad = longitudes.firstIndex(where: { !$0.isFinite || abs($0) > 360 }) {
      throw .invalidGrid(
        "cell (\(bad % width), \(bad / width)): longitude \(longitudes[bad]) is not a number in −360…360")
    }
    self.width = width
    self.height = height
    self.latitudes = latitudes
    self.longitudes = longitudes
  }

  /// The number of cells.
  public var count: Int { width * height }
}

/// A grid that cannot be used, or a point the grid does not cover.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
  case invalidGrid(String)
  /// A map projection that cannot serve the grid: parameters that describe no projection,
  /// or a mapping that does not reproduce the grid's own cell coordinates.
  case projectionRejected(String)

  public var description: String {
    switch self {
    case .invalidGrid(let reason): "invalid grid: \(reason)"
    case .projectionRejected(let reason): "projection rejected: \(reason)"
    }
  }
}
