extension CubeFile {
  /// Each step's position: `stepPositions[t]` is the position whose coordinates give the
  /// places of step t's values. All 0 when the grid does not move.
  public var stepPositions: [Int] { stepTable ?? [Int](repeating: 0, count: header.stepCount) }

  /// Whether the grid takes more than one position during the run.
  public var isMoving: Bool { positionCount > 1 }

  /// The position step `step` uses; `step` must be in range.
  @inlinable
  public func position(ofStep step: Int) -> Int { stepTable?[step] ?? 0 }

  /// The latitudes of every cell in `position` (copied out of the mapping); position 0's
  /// are `latitudes`. `position` must be in `0..<positionCount`.
  public func latitudes(position: Int) -> [Float] { floats(coordinates(position: position), count: header.cells) }

  /// The longitudes of every cell in `position` (copied out of the mapping); position 0's
  /// are `longitudes`. `position` must be in `0..<positionCount`.
  public func longitudes(position: Int) -> [Float] {
    floats(coordinates(position: position) + header.cells * MemoryLayout<Float>.size, count: header.cells)
  }

  /// The terrain under `position` (copied out of the mapping), nil when the cube has no
  /// terrain section; position 0's is `terrain`. `position` must be in `0..<positionCount`.
  public func terrain(position: Int) -> CubeTerrain? {
    guard let heights = terrainBase(position: position) else { return nil }
    let cells = header.cells
    let masks = heights + cells * MemoryLayout<Float>.size
    return CubeTerrain(
      heights: floats(heights, count: cells),
      landMask: (0..<cells).map { masks.load(fromByteOffset: $0, as: UInt8.self) })
  }

  /// The terrain height of `cell` in `position`, metres, nil where unknown (no section, or
  /// NaN in it). Both must be in range.
  public func terrainHeight(cell: Int, position: Int) -> Double? {
    guard let heights = terrainBase(position: position) else { return nil }
    let height = Float(bitPattern: heights.le(cell * MemoryLayout<Float>.size, as: UInt32.self))
    return height.isNaN ? nil : Double(height)
  }

  /// Whether `cell` in `position` is land (true) or water (false), nil where unknown. Both
  /// must be in range.
  public func isLand(cell: Int, position: Int) -> Bool? {
    guard let heights = terrainBase(position: position) else { return nil }
    let mask = heights.load(fromByteOffset: header.cells * MemoryLayout<Float>.size + cell, as: UInt8.self)
    return mask == CubeTerrain.unknownMask ? nil : mask == 1
  }

  /// The whole grid in `position`: coordinates and terrain. `position` must be in
  /// `0..<positionCount`.
  public func grid(position: Int) -> CubeGrid {
    CubeGrid(
      latitudes: latitudes(position: position), longitudes: longitudes(position: position),
      terrain: terrain(position: position))
  }

  /// `count` little-endian f32s from `start`.
  private func floats(_ start: UnsafeRawPointer, count: Int) -> [Float] {
    (0..<count).map { Float(bitPattern: start.le($0 * MemoryLayout<Float>.size, as: UInt32.self)) }
  }
}
