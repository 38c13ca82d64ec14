import GridGeometry

// TEMPORARY stand-in for the query engineer's positions API (removed when it is merged):
// every cube holds one position.
extension Cube {
  public var positionCount: Int { 1 }
  public var isMoving: Bool { false }
  public func position(ofStep step: Int) -> Int { 0 }
  public func locator(position: Int) -> GridLocator { locator }
}
