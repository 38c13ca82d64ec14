/// Where a query point falls on a cube's grid.
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

  @usableFromInline
  init(
    maker: CubeIdentity, i: Int, j: Int, width: Int, latitude: Double, longitude: Double,
    method: InterpolationMethod, southWest: Int = 0, eastStep: Int = 1, fx: Double = 0, fy: Double = 0
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
  }
}
