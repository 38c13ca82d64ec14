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

  /// A position from its nearest cell and fractional coordinates.
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
  /// Offset from a corner to its eastern neighbour: 1, or −(width − 1) when the stencil
  /// straddles the seam of a grid that is global in longitude (last column → first).
  public var eastStep: Int
  /// Weight of the eastern column, in [0, 1].
  public var fx: Double
  /// Weight of the northern row, in [0, 1].
  public var fy: Double

  /// The stencil at a fractional position. Within half a cell outside the outermost mass
  /// points (inside the edge cells) the position is clamped to the edge, which is the edge
  /// cell's own value there: never an extrapolation.
  @inlinable
  public init(position: GridPosition, width: Int, height: Int) {
    self.init(position: position, width: width, height: height, wrapsLongitude: false)
  }

  /// The stencil at a fractional position on a grid that may wrap in longitude. When
  /// `wrapsLongitude`, x is taken modulo the width and a position between the last column
  /// and the first interpolates between those two columns; rows are clamped as above.
  @inlinable
  public init(position: GridPosition, width: Int, height: Int, wrapsLongitude: Bool) {
    let y = min(max(position.y, 0), Double(height - 1))
    let j0 = min(Int(y), height - 2)
    var x = position.x
    if wrapsLongitude {
      // A locator gives x in [0, width) already; this only guards hand-made positions.
      if x < 0 || x >= Double(width) {
        x -= Double(width) * (x / Double(width)).rounded(.down)
      }
      if !(x >= 0 && x < Double(width)) { x = 0 }
      let i0 = min(Int(x), width - 1)
      southWest = j0 * width + i0
      eastStep = i0 == width - 1 ? 1 - width : 1
      fx = x - Double(i0)
    } else {
      x = min(max(x, 0), Double(width - 1))
      let i0 = min(Int(x), width - 2)
      southWest = j0 * width + i0
      eastStep = 1
      fx = x - Double(i0)
    }
    northStep = width
    fy = y - Double(j0)
  }

  /// Interpolates with `value(flatIndex)`; nil if any corner is missing.
  @inlinable
  public func interpolate(_ value: (Int) -> Double?) -> Double? {
    guard let a = value(southWest), let b = value(southWest + eastStep),
      let c = value(southWest + northStep), let d = value(southWest + northStep + eastStep)
    else { return nil }
    let south = a + (b - a) * fx
    let north = c + (d - c) * fx
    return south + (north - south) * fy
  }
}
