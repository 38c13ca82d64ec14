extension CubeFile {
  /// What a version 3 cube's record says about its geometry, for a reader that builds the
  /// cell locator: whether ingest checked the header's projection against every cell of
  /// every position (record geometry flag bit 0), and the locator index section's bytes
  /// (flag bit 1), verified before they are returned: when a block of them does not match,
  /// nil, and the cube is damaged (`damage` names the block). Neither for versions 1 and 2,
  /// which have no record.
  public var geometryRecord: CubeGeometryRecord {
    let index = locatorIndexRange.flatMap { range in try? withVerifiedBytes(range) { Array($0) } }
    return CubeGeometryRecord(projectionChecked: projectionChecked, locatorIndex: index)
  }
}

/// The geometry facts of a version 3 cube's record (`CubeFile.geometryRecord`).
public struct CubeGeometryRecord: Sendable, Equatable {
  /// Record geometry flag bit 0: the header's projection locates every cell of every
  /// position within 0.1 cell, as checked at ingest.
  public let projectionChecked: Bool
  /// The locator index section (record geometry flag bit 1), nil without one.
  public let locatorIndex: [UInt8]?

  /// The facts as given.
  public init(projectionChecked: Bool, locatorIndex: [UInt8]?) {
    self.projectionChecked = projectionChecked
    self.locatorIndex = locatorIndex
  }
}
