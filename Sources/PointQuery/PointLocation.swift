/// Where a query point falls on a cube's grid.
///
/// On a cube whose grid moves (a vortex-following nest, `Cube.isMoving`), a location keeps
/// the point itself and finds its cell, or bilinear stencil, in the position of each step
/// it reads, with that position's locator. Its public `i`, `j`, `latitude` and `longitude`
/// are those of the first step whose grid holds the point (of the first step of the
/// stretch, for a `PointSources.Source`), since a cell's place changes from one position to
/// the next; `Cube.location(_:atStep:)` gives them at any step.
///
/// A plain value with no reference in it, so that passing one around on the lookup path
/// costs no reference counting (a table of the point's cell in every position, held by
/// reference, made fixed grids' single-value reads 30–50 % slower in `nwpcube bench`).
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
  /// How the location follows a moving grid. Declared beside `method`, with `selection`
  /// and `anchor`, so that they fill its padding rather than grow the value.
  @usableFromInline let following: Following
  /// The cell selection each position of a moving grid applies (see `CellSelection`).
  @usableFromInline let selection: CellSelection
  /// The position of a moving grid whose cell the fields describe; 0 otherwise.
  @usableFromInline let anchor: UInt16
  /// The cube whose grid the indices below belong to.
  @usableFromInline let maker: CubeIdentity
  @usableFromInline let cell: Int
  @usableFromInline let southWest: Int
  @usableFromInline let northStep: Int
  /// 1, or −(width − 1) when a bilinear quad straddles the seam of a global grid.
  @usableFromInline let eastStep: Int
  @usableFromInline let fx: Double
  @usableFromInline let fy: Double
  /// The point asked about, which a moving grid locates in each step's position.
  @usableFromInline let pointLatitude: Double
  @usableFromInline let pointLongitude: Double

  /// How a location follows a grid's positions.
  @usableFromInline
  enum Following: UInt8, Sendable {
    /// A grid that does not move: the fields are the location at every step.
    case fixed
    /// A moving grid: the point is located in each step's position.
    case point
    /// A moving grid, cell by index (`Cube.location(i:j:)`): the same cell in every
    /// position, wherever it lies.
    case index
  }

  @usableFromInline
  init(
    maker: CubeIdentity, i: Int, j: Int, width: Int, latitude: Double, longitude: Double,
    method: InterpolationMethod, southWest: Int = 0, eastStep: Int = 1, fx: Double = 0, fy: Double = 0
  ) {
    self.init(
      maker: maker, i: i, j: j, width: width, latitude: latitude, longitude: longitude, method: method,
      southWest: southWest, eastStep: eastStep, fx: fx, fy: fy, following: .fixed, selection: .nearest, anchor: 0,
      pointLatitude: 0, pointLongitude: 0)
  }

  init(
    maker: CubeIdentity, i: Int, j: Int, width: Int, latitude: Double, longitude: Double,
    method: InterpolationMethod, southWest: Int, eastStep: Int, fx: Double, fy: Double, following: Following,
    selection: CellSelection, anchor: UInt16, pointLatitude: Double, pointLongitude: Double
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
    self.following = following
    self.selection = selection
    self.anchor = anchor
    self.pointLatitude = pointLatitude
    self.pointLongitude = pointLongitude
  }

  /// Whether the location belongs to a moving grid, and finds its cell step by step.
  @usableFromInline
  var isMoving: Bool { following != .fixed }

  /// The location on a moving grid whose fields are `here`'s (the point in position
  /// `anchor`), following the grid as `following` says and selecting cells by `selection`.
  init(
    following: Following, anchor: Int, here: PointLocation, selection: CellSelection, latitude: Double,
    longitude: Double
  ) {
    self.init(
      maker: here.maker, i: here.i, j: here.j, width: here.northStep, latitude: here.latitude,
      longitude: here.longitude, method: here.method, southWest: here.southWest, eastStep: here.eastStep,
      fx: here.fx, fy: here.fy, following: following, selection: selection, anchor: UInt16(anchor),
      pointLatitude: latitude, pointLongitude: longitude)
  }
}
