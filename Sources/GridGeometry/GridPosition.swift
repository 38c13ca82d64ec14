/// Where a point falls on a grid.
public struct GridPosition: Sendable, Equatable {
  /// The nearest mass point (great-circle), west–east index.
  public var i: Int
  /// The nearest mass point, south–north index.
  public var j: Int
  /// The fractional west–east grid coordinate (0 at the first mass point).
  public var x: Double
  /// The fractional south–north grid coordinate.
  public var y: Double

  public init(i: Int, j: Int, x: Double, y: Double) {
    self.i = i
    self.j = j
    self.x = x
    self.y = y
  }
}

/// The four cells and weights of a bilinear interpolation in grid space.
public struct BilinearStencil: Sendable, Equatable {
  /// Flat index (`j · width + i`) of the south-west corner.
  public var southWest: Int
  /// Offset from a corner to its northern neighbour: the grid width.
  public var northStep: Int
  /// Weight of the eastern column, in [0, 1].
  public var fx: Double
  /// Weight of the northern row, in [0, 1].
  public var fy: Double

  /// The stencil at a fractional position. Within half a cell outside the outermost mass
  /// points (inside the edge cells) the position is clamped to the edge, which is the edge
  /// cell's own value there: never an extrapolation.
  @inlinable
  public init(position: GridPosition, width: Int, height: Int) {
    let x = min(max(position.x, 0), Double(width - 1))
    let y = min(max(position.y, 0), Double(height - 1))
    let i0 = min(Int(x), width - 2)
    let j0 = min(Int(y), height - 2)
    southWest = j0 * width + i0
    northStep = width
    fx = x - Double(i0)
    fy = y - Double(j0)
  }

  /// Interpolates with `value(flatIndex)`; nil if any corner is missing.
  @inlinable
  public func interpolate(_ value: (Int) -> Double?) -> Double? {
    guard let a = value(southWest), let b = value(southWest + 1),
      let c = value(southWest + northStep), let d = value(southWest + northStep + 1)
    else { return nil }
    let south = a + (b - a) * fx
    let north = c + (d - c) * fx
    return south + (north - south) * fy
  }
}
