/// One position of a cube's grid: the coordinates of every cell, and the terrain under
/// them when the cube has a terrain section.
///
/// A grid that moves (a WRF vortex-following nest) keeps its shape and shifts by whole
/// cells between output times; a cube stores each place it takes once, as a position,
/// and names for each step the position it uses (docs/cube-format.md, *Positions*).
public struct CubeGrid: Sendable, Equatable {
  /// Latitude of each cell, degrees north; cell (i, j) at index `j × width + i`.
  public var latitudes: [Float]
  /// Longitude of each cell, degrees east, indexed as `latitudes`.
  public var longitudes: [Float]
  /// nil when the cube has no terrain section; every position of a cube has one or none.
  public var terrain: CubeTerrain?

  /// The latitudes a moved position may hold, degrees.
  public static let latitudeRange: ClosedRange<Float> = -90...90
  /// The longitudes a moved position may hold, degrees: either convention (−180…180 as
  /// WRF writes them, 0…360 as CF grids often do) with room to cross the seam.
  public static let longitudeRange: ClosedRange<Float> = -360...360

  /// A position from its coordinates and, when the cube has a terrain section, its terrain.
  public init(latitudes: [Float], longitudes: [Float], terrain: CubeTerrain?) {
    self.latitudes = latitudes
    self.longitudes = longitudes
    self.terrain = terrain
  }

  /// What is wrong with one cell's coordinates, nil when both are finite and in range.
  public static func coordinateProblem(latitude: Float, longitude: Float) -> String? {
    if !latitude.isFinite || !latitudeRange.contains(latitude) {
      return "latitude \(latitude) is not a finite number in \(latitudeRange.lowerBound)…\(latitudeRange.upperBound)"
    }
    if !longitude.isFinite || !longitudeRange.contains(longitude) {
      return
        "longitude \(longitude) is not a finite number in \(longitudeRange.lowerBound)…\(longitudeRange.upperBound)"
    }
    return nil
  }

  /// The first problem of this position for a grid of `cells` cells, naming the cell: its
  /// sizes, then, when `checkCoordinates`, every coordinate, then its terrain.
  public func problem(cells: Int, checkCoordinates: Bool) -> String? {
    guard latitudes.count == cells, longitudes.count == cells else {
      return "\(latitudes.count) latitudes and \(longitudes.count) longitudes for \(cells) cells"
    }
    if checkCoordinates {
      for cell in 0..<cells {
        if let problem = Self.coordinateProblem(latitude: latitudes[cell], longitude: longitudes[cell]) {
          return "\(problem) at cell \(cell)"
        }
      }
    }
    return terrain?.problem(cells: cells)
  }
}
