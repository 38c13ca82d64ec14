/// Where a query point falls on a cube's grid.
///
/// On a cube whose grid moves (a vortex-following nest, `Cube.isMoving`), a location holds
/// the point's cell or bilinear stencil in each of the grid's positions, nil in those that
/// do not contain it, and every read takes the one of the step it reads. Its public `i`,
/// `j`, `latitude` and `longitude` are then those of the first step whose grid contains
/// the point (of the first step of the stretch, for a `PointSources.Source`), since a
/// cell's place changes from one position to the next.
///
/// Only the cube that made a location (`Cube.locate`) reads with it: its indices belong to
/// that cube's grid, and another cube refuses it with `QueryError.foreignHandle` rather than
/// reading elsewhere in its mapping, or past it.
public struct PointLocation: Sendable, Equatable {
  /// West–east index of the nearest mass point.
  public let i: Int
  /// South–north index of the nearest mass point.
  public let j: Int
  /// Latitude of the nearest mass point.
  public let latitude: Double
  /// Longitude of the nearest mass point.
  public let longitude: Double
  /// The method values are taken with.
  public let method: InterpolationMethod
  /// The cube whose grid the indices below belong to.
  @usableFromInline let maker: CubeIdentity
  @usableFromInline let cell: Int
  @usableFromInline let southWest: Int
  @usableFromInline let northStep: Int
  /// 1, or −(width − 1) when a bilinear quad straddles the seam of a global grid.
  @usableFromInline let eastStep: Int
  @usableFromInline let fx: Double
  @usableFromInline let fy: Double
  /// The point in each position of a moving grid (nil where a position does not contain
  /// it); nil for a grid that does not move, so that its reads stay as they were.
  @usableFromInline let positions: [PointLocation?]?
  /// The position of a moving grid whose cell the fields above describe; 0 otherwise.
  @usableFromInline let anchor: Int

  @usableFromInline
  init(
    maker: CubeIdentity, i: Int, j: Int, width: Int, latitude: Double, longitude: Double,
    method: InterpolationMethod, southWest: Int = 0, eastStep: Int = 1, fx: Double = 0, fy: Double = 0,
    positions: [PointLocation?]? = nil, anchor: Int = 0
  ) {
    self.maker = maker
    self.i = i
    self.j = j
    self.latitude = latitude
    self.longitude = longitude
    self.method = method
    self.cell = j * width + i
    self.southWest = southWest
    self.northStep = width
    self.eastStep = eastStep
    self.fx = fx
    self.fy = fy
    self.positions = positions
    self.anchor = anchor
  }

  /// A location on a moving grid: `positions` holds the point in each position (nil
  /// where one does not contain it), and the public fields and single-position indices
  /// are those of `here`, the point in position `anchor`.
  @usableFromInline
  init(positions: [PointLocation?], anchor: Int, here: PointLocation) {
    self.init(
      maker: here.maker, i: here.i, j: here.j, width: here.northStep, latitude: here.latitude,
      longitude: here.longitude, method: here.method, southWest: here.southWest, eastStep: here.eastStep,
      fx: here.fx, fy: here.fy, positions: positions, anchor: anchor)
  }

  /// This location anchored at `position` (see `init(positions:anchor:here:)`); itself on
  /// a grid that does not move or when `position` does not contain the point.
  @usableFromInline
  func anchored(at position: Int) -> PointLocation {
    guard let positions, let here = positions[position] else { return self }
    return PointLocation(positions: positions, anchor: position, here: here)
  }
}
