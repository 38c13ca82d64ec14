import Platform

/// What every format version's writer shares: the header's common fields, the checks made
/// before anything is written, and the locked temporary file.
extension CubeWriter {
  /// Writes the header fields every version shares into `base` (at least `headerBytes`
  /// long), lets `specific` write the version's own fields, then the header checksum over
  /// the whole header with its own field zero.
  static func writeHeader(
    _ base: UnsafeMutableRawPointer, _ h: CubeHeader, version: UInt32, headerBytes: Int, fileBytes: Int,
    geometry: Range<Int>, flags: UInt32, terrain: Range<Int>, dataBytes: [Int],
    specific: (UnsafeMutableRawPointer) -> Void
  ) {
    for (index, byte) in CubeLayout.magic.enumerated() { base.setLE(byte, at: index) }
    base.setLE(version, at: CubeLayout.versionOffset)
    base.setLE(UInt32(headerBytes), at: CubeLayout.headerBytesOffset)
    base.setLE(UInt64(fileBytes), at: CubeLayout.fileBytesOffset)
    base.setLE(UInt32(h.width), at: CubeLayout.widthOffset)
    base.setLE(UInt32(h.height), at: CubeLayout.heightOffset)
    base.setLE(UInt32(h.stepCount), at: CubeLayout.stepCountOffset)
    base.setLE(UInt32(h.metrics.count), at: CubeLayout.metricCountOffset)
    base.setLE(h.firstTime, at: CubeLayout.firstTimeOffset)
    base.setLE(h.stepSeconds, at: CubeLayout.stepSecondsOffset)
    base.setLE(h.runStart, at: CubeLayout.runStartOffset)
    base.setLE(h.gridSpacing, at: CubeLayout.gridSpacingOffset)
    base.setLE(h.projection.code, at: CubeLayout.projectionCodeOffset)
    for (index, value) in h.projection.parameters.enumerated() {
      base.setLE(value, at: CubeLayout.projectionParametersOffset + 8 * index)
    }
    base.setLE(UInt64(geometry.lowerBound), at: CubeLayout.geometryOffsetOffset)
    base.setLE(UInt64(geometry.count), at: CubeLayout.geometryBytesOffset)
    base.setLE(flags, at: CubeLayout.flagsOffset)
    base.setLE(UInt64(terrain.isEmpty ? 0 : terrain.lowerBound), at: CubeLayout.terrainOffsetOffset)
    base.setLE(UInt64(terrain.count), at: CubeLayout.terrainBytesOffset)
    base.setText(h.model, at: CubeLayout.modelOffset, bytes: CubeLayout.modelBytes)
    base.setText(h.domain, at: CubeLayout.domainOffset, bytes: CubeLayout.domainBytes)
    for (index, metric) in h.metrics.enumerated() {
      let entry = CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes
      base.setText(metric.name, at: entry, bytes: CubeLayout.nameBytes)
      base.setText(metric.unit, at: entry + CubeLayout.unitOffset, bytes: CubeLayout.unitBytes)
      base.setLE(metric.temporal, at: entry + CubeLayout.temporalOffset)
      base.setLE(CubeMetric.missing, at: entry + CubeLayout.sentinelOffset)
      base.setLE(metric.scale, at: entry + CubeLayout.scaleOffset)
      base.setLE(metric.offset, at: entry + CubeLayout.valueOffsetOffset)
      base.setLE(UInt64(dataBytes[index]), at: entry + CubeLayout.dataBytesOffset)
    }
    specific(base)
    // The header checksum covers the whole header with its own field still zero.
    base.setLE(UInt64(0), at: CubeLayout.headerChecksumOffset)
    base.setLE(
      XXH64.hash(UnsafeRawBufferPointer(start: base, count: headerBytes)), at: CubeLayout.headerChecksumOffset)
  }

  /// The step table of a grid that does not move: position 0 throughout. Bounded by the
  /// limit, so that a header the limits refuse is refused rather than allocated for.
  static func unmoved(steps: Int) -> [Int] {
    [Int](repeating: 0, count: min(max(steps, 0), CubeLimits.stepCount.upperBound))
  }

  /// What is wrong with a grid's positions and step table for `header`, nil when a reader
  /// will accept them: the reader's checks, made before anything is written.
  static func positionsProblem(
    _ positions: [CubeGrid], _ stepPositions: [Int], _ header: CubeHeader
  )
    -> String?
  {
    guard let first = positions.first else { return "a grid needs at least one position" }
    guard positions.count <= min(CubeLimits.positions.upperBound, header.stepCount) else {
      return
        "\(positions.count) positions is more than \(CubeLimits.positions.upperBound) or the \(header.stepCount) steps"
    }
    guard stepPositions.count == header.stepCount else {
      return "\(stepPositions.count) step positions for \(header.stepCount) steps"
    }
    if let problem = CubeLimits.stepPositionsProblem(stepPositions, positionCount: positions.count) {
      return problem
    }
    for (index, position) in positions.enumerated() {
      guard (position.terrain == nil) == (first.terrain == nil) else {
        return
          "position \(index) \(position.terrain == nil ? "has no" : "has a") terrain, position 0 \(first.terrain == nil ? "none" : "one"): every position has terrain or none does"
      }
      // Position 0's coordinates are stored as read, as they always were; the moved ones
      // are checked as a reader checks them.
      if let problem = position.problem(cells: header.cells, checkCoordinates: index > 0) {
        return index == 0 ? problem : "position \(index) \(problem)"
      }
    }
    return nil
  }

  /// A new temporary file at `path`, locked (`DurablePublish.createTemporary`).
  static func createLocked(_ path: String) throws(CubeError) -> Int32 {
    do {
      return try DurablePublish.createTemporary(path)
    } catch {
      throw CubeError(path: path, reason: "cannot create: \(error.text)")
    }
  }

  /// Flushes the finished temporary file `descriptor` at `temporaryPath` to disk, closes it
  /// and renames it to `destination`, then makes the rename durable. The descriptor, and so
  /// the lock, is kept until the rename: a cleaner must never find the finished file
  /// unlocked under its temporary name. On failure the temporary file is removed.
  static func publish(
    _ descriptor: Int32, temporaryPath: String, destination: String, flushed: Bool = true
  )
    throws(CubeError) -> String
  {
    try DurablePublish.publish(descriptor, temporaryPath: temporaryPath, to: destination, flushed: flushed)
    return destination
  }
}
