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
  /// are `latitudes`. `position` must be in `0..<positionCount`. NaN throughout when a
  /// block of them fails verification (the cube is then damaged: `damage`).
  public func latitudes(position: Int) -> [Float] {
    guard verifiedCoordinates(position: position) else { return unknownFloats }
    return floats(coordinates(position: position), count: header.cells)
  }

  /// The longitudes of every cell in `position` (copied out of the mapping); position 0's
  /// are `longitudes`. `position` must be in `0..<positionCount`. NaN throughout when a
  /// block of them fails verification.
  public func longitudes(position: Int) -> [Float] {
    guard verifiedCoordinates(position: position) else { return unknownFloats }
    return floats(coordinates(position: position) + header.cells * MemoryLayout<Float>.size, count: header.cells)
  }

  /// The terrain under `position` (copied out of the mapping), nil when the cube has no
  /// terrain section; position 0's is `terrain`. `position` must be in `0..<positionCount`.
  /// A height or mask byte outside `CubeTerrain`'s limits reads as unknown (version 3
  /// checks them when read, not at open), and so does all of it when a block of it fails
  /// verification.
  public func terrain(position: Int) -> CubeTerrain? {
    guard let heights = terrainBase(position: position) else { return nil }
    let cells = header.cells
    guard verified(fileRange(heights, count: cells * CubeLayout.terrainBytesPerCell)) else {
      return .unknown(cells: cells)
    }
    let masks = heights + cells * MemoryLayout<Float>.size
    return CubeTerrain(
      heights: floats(heights, count: cells).map { CubeTerrain.heightProblem($0) == nil ? $0 : .nan },
      landMask: (0..<cells).map {
        let mask = masks.load(fromByteOffset: $0, as: UInt8.self)
        return CubeTerrain.maskProblem(mask) == nil ? mask : CubeTerrain.unknownMask
      })
  }

  /// The terrain height of `cell` in `position`, metres, nil where unknown (no section, NaN
  /// or a height outside `CubeTerrain.heightRange` in it, or a block that fails
  /// verification). Both must be in range.
  public func terrainHeight(cell: Int, position: Int) -> Double? {
    guard let heights = terrainBase(position: position) else { return nil }
    let at = heights + cell * MemoryLayout<Float>.size
    guard verified(fileRange(at, count: MemoryLayout<Float>.size)) else { return nil }
    let height = Float(bitPattern: at.le(0, as: UInt32.self))
    return height.isNaN || CubeTerrain.heightProblem(height) != nil ? nil : Double(height)
  }

  /// Whether `cell` in `position` is land (true) or water (false), nil where unknown (a
  /// mask byte other than 0 or 1, or a block that fails verification). Both must be in
  /// range.
  public func isLand(cell: Int, position: Int) -> Bool? {
    guard let heights = terrainBase(position: position) else { return nil }
    let at = heights + header.cells * MemoryLayout<Float>.size + cell
    guard verified(fileRange(at, count: 1)) else { return nil }
    let mask = at.load(as: UInt8.self)
    return mask <= 1 ? mask == 1 : nil
  }

  /// The whole grid in `position`: coordinates and terrain. `position` must be in
  /// `0..<positionCount`.
  public func grid(position: Int) -> CubeGrid {
    CubeGrid(
      latitudes: latitudes(position: position), longitudes: longitudes(position: position),
      terrain: terrain(position: position))
  }

  /// Coordinates of a position whose blocks failed verification: NaN, which no locator
  /// accepts.
  private var unknownFloats: [Float] { [Float](repeating: .nan, count: header.cells) }

  /// `count` little-endian f32s from `start`.
  private func floats(_ start: UnsafeRawPointer, count: Int) -> [Float] {
    (0..<count).map { Float(bitPattern: start.le($0 * MemoryLayout<Float>.size, as: UInt32.self)) }
  }
}
