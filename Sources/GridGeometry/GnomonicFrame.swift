/// The gnomonic projection onto the plane tangent to the sphere at a grid's centre.
///
/// Great circles become straight lines, so a square in the plane is a convex spherical
/// quadrilateral, and any grid smaller than a hemisphere maps without a seam (the
/// dateline and the poles need no special case). The locator buckets cells in this plane.
@usableFromInline
struct GnomonicFrame: Sendable {
  @usableFromInline let centre: UnitVector
  @usableFromInline let east: UnitVector
  @usableFromInline let north: UnitVector

  init(centre: UnitVector) {
    self.centre = centre
    let pole = UnitVector(x: 0, y: 0, z: 1)
    let eastward = pole.cross(centre)
    // At a pole "east" is undefined; any perpendicular axis serves.
    east = eastward.dot(eastward) < 1e-20 ? UnitVector(x: 0, y: 1, z: 0) : eastward.normalized()
    north = centre.cross(east)
  }

  /// The plane coordinates of `point`, or nil for points 80° or more from the centre,
  /// where the projection runs off to infinity.
  @inlinable
  func project(_ point: UnitVector) -> (x: Double, y: Double)? {
    let depth = point.dot(centre)
    guard depth > 0.17 else { return nil }
    let scale = 1 / depth
    return (point.dot(east) * scale, point.dot(north) * scale)
  }

  func unproject(x: Double, y: Double) -> UnitVector {
    UnitVector(
      x: centre.x + x * east.x + y * north.x,
      y: centre.y + x * east.y + y * north.y,
      z: centre.z + x * east.z + y * north.z
    ).normalized()
  }
}
