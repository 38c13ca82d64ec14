extension CubeFile {
  /// What a validated cube holds: its header, the geometry's offset and each data block.
  struct Validated {
    let header: CubeHeader
    let geometryOffset: Int
    /// The format version, 1 or 2.
    let version: Int
    /// Each metric's block (version 1) or section (version 2).
    let data: [UnsafeRawPointer]
    /// Each metric's bytes of data.
    let dataBytes: [Int]
    /// Where the terrain section starts, nil when the cube has none.
    let terrainOffset: Int?
    /// Where the positions section starts, nil when the grid does not move (or only the
    /// header was validated).
    let positionsOffset: Int?
    /// The number of positions: 1 without a positions section.
    let positionCount: Int
    /// Each step's position, nil when there is one position.
    let stepPositions: [Int]?
    /// Version 3's bands and checksum blocks, nil in versions 1 and 2.
    var bands: Bands? = nil
    /// Each entry of `data`'s bytes: version 3's sub-sections (band-major); nil when they
    /// are `dataBytes`, one block or section per metric.
    var sectionBytes: [Int]? = nil
  }

  /// What opening a version 3 cube found of its bands and checksum blocks.
  struct Bands {
    /// Cells per band (a power of two) and the number of bands.
    let cells: Int
    let count: Int
    /// The record's geometry flags.
    let geometryFlags: UInt32
    /// The locator index section's bytes, nil without one.
    let locatorIndex: Range<Int>?
    /// The checksum table's bytes.
    let checksumTable: Range<Int>
    /// The band index's bytes.
    let bandIndex: Range<Int>
    /// The checksum blocks, those of the band index (and of the positions section's step
    /// table) already verified.
    let blocks: ChecksumBlocks
  }

  /// Decodes the header and checks every field against `CubeLimits` and every offset and
  /// checksum against the file's size.
  ///
  /// Every field is checked in its stored width (a u64 offset is compared as a `UInt64`)
  /// before it becomes an `Int` or takes part in arithmetic, so that no value in a file
  /// whose checksums match can trap a reader: a cube is either refused with a reason naming
  /// the field, or every offset and value it implies is in range.
  ///
  /// With `headerOnly`, `base` need hold only the header (the fixed part and the metric
  /// table): every field in it is checked as above, the terrain section is not read and
  /// `data` is empty. `size` is still the whole file's.
  static func validate(
    base: UnsafeRawPointer, size: Int, path: String, verify: ChecksumScope, headerOnly: Bool = false
  ) throws(CubeError) -> Validated {
    func fail(_ reason: String) -> CubeError { CubeError(path: path, reason: reason) }

    guard Array(UnsafeRawBufferPointer(start: base, count: 8)) == CubeLayout.magic else {
      throw fail("not an nwpcube cube: bad magic number")
    }
    let version = base.le(CubeLayout.versionOffset, as: UInt32.self)
    guard CubeLayout.versions.contains(version) else {
      throw fail(
        "cube format version \(version) is not supported; this build reads versions \(CubeLayout.versions.lowerBound)…\(CubeLayout.versions.upperBound)"
      )
    }
    let packed = version != CubeLayout.wordVersion
    let declaredSize = base.le(CubeLayout.fileBytesOffset, as: UInt64.self)
    guard declaredSize == UInt64(size) else {
      throw fail(
        declaredSize > UInt64(size)
          ? "truncated: the header says \(declaredSize) bytes, the file has \(size)"
          : "corrupted: the header says \(declaredSize) bytes, the file has \(size)")
    }
    let storedMetricCount = base.le(CubeLayout.metricCountOffset, as: UInt32.self)
    let storedHeaderBytes = base.le(CubeLayout.headerBytesOffset, as: UInt32.self)
    // Version 3's record follows the metric table, inside the header.
    let record = version == CubeLayout.bandVersion ? UInt64(CubeLayout.Version3.recordBytes) : 0
    // Both are u32 and the count is at most 256 once checked, so the sum is exact.
    guard storedMetricCount >= 1, storedMetricCount <= UInt32(CubeLimits.metrics.upperBound),
      UInt64(storedHeaderBytes)
        == UInt64(CubeLayout.fixedHeaderBytes) + UInt64(storedMetricCount) * UInt64(CubeLayout.metricEntryBytes)
        + record,
      UInt64(storedHeaderBytes) <= UInt64(size)
    else {
      throw fail(
        "corrupted: inconsistent header size (\(storedHeaderBytes) bytes for \(storedMetricCount) metrics, at most \(CubeLimits.metrics.upperBound))"
      )
    }
    let metricCount = Int(storedMetricCount)
    let headerBytes = Int(storedHeaderBytes)
    let storedHeaderSum = base.le(CubeLayout.headerChecksumOffset, as: UInt64.self)
    var headerCopy = Array(UnsafeRawBufferPointer(start: base, count: headerBytes))
    for index in 0..<8 { headerCopy[CubeLayout.headerChecksumOffset + index] = 0 }
    guard XXH64.hash(headerCopy) == storedHeaderSum else {
      throw fail("corrupted: header checksum mismatch")
    }

    let flags = base.le(CubeLayout.flagsOffset, as: UInt32.self)
    guard flags & ~CubeLayout.knownFlags == 0 else {
      throw fail(
        "corrupted: flags 0x\(String(flags, radix: 16)) set bits this build does not know (it knows 0x\(String(CubeLayout.knownFlags, radix: 16)), the terrain and positions sections)"
      )
    }
    let hasTerrain = flags & CubeLayout.terrainFlag != 0
    let hasPositions = flags & CubeLayout.positionsFlag != 0
    if version == CubeLayout.bandVersion {
      return try validateVersion3(
        base: base, size: size, verify: verify, headerOnly: headerOnly, metricCount: metricCount,
        headerBytes: headerBytes, terrain: hasTerrain, positions: hasPositions, fail: fail)
    }
    let plan = try checkedShape(
      base: base, size: size, metricCount: metricCount, terrain: hasTerrain, positions: hasPositions, packed: packed,
      fail: fail)
    let shape = "\(plan.width)×\(plan.height)×\(plan.steps)"
    if verify.coversSections {
      let geometry = UnsafeRawBufferPointer(start: base + plan.layout.geometryOffset, count: plan.layout.geometryBytes)
      guard XXH64.hash(geometry) == base.le(CubeLayout.geometryChecksumOffset, as: UInt64.self) else {
        throw fail("corrupted: geometry checksum mismatch")
      }
    }

    if hasTerrain, !headerOnly {
      try checkTerrain(
        base: base, cells: plan.width * plan.height, layout: plan.layout, verify: verify.coversSections, fail: fail)
    }
    var positions: (layout: CubeLayout.Plan, count: Int, stepPositions: [Int])?
    if hasPositions, !headerOnly {
      positions = try checkPositions(
        base: base, size: size, layout: plan.layout, steps: plan.steps, verify: verify.coversSections, fail: fail)
    }

    var metrics: [CubeMetric] = []
    var data: [UnsafeRawPointer] = []
    for index in 0..<metricCount {
      let entry = CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes
      let metric = try metric(base: base, index: index, fail: fail)
      let name = metric.name
      let label = "metric \(index) (\(CubeLimits.printable(name)))"
      let offset = base.le(entry + CubeLayout.dataOffsetOffset, as: UInt64.self)
      guard offset == UInt64(plan.layout.dataOffsets[index]) else {
        throw fail(
          "corrupted: \(label) data offset \(offset) is not \(plan.layout.dataOffsets[index]), where a \(shape) cube's block \(index) starts"
        )
      }
      let bytes = base.le(entry + CubeLayout.dataBytesOffset, as: UInt64.self)
      // Version 2's sizes made the plan, so they hold by construction there.
      guard bytes == UInt64(plan.layout.dataBytes[index]) else {
        throw fail(
          "corrupted: \(label) data bytes \(bytes) is not \(plan.layout.dataBytes[index]), the size of a \(shape) block"
        )
      }
      if verify.covers(block: name) {
        let block = UnsafeRawBufferPointer(start: base + Int(offset), count: Int(bytes))
        guard XXH64.hash(block) == base.le(entry + CubeLayout.dataChecksumOffset, as: UInt64.self) else {
          throw fail("corrupted: data checksum mismatch in metric \(CubeLimits.printable(name))")
        }
      }
      metrics.append(metric)
      if !headerOnly {
        if packed {
          try checkSection(
            base + Int(offset), bytes: Int(bytes), cells: plan.width * plan.height, steps: plan.steps,
            fail: { fail("corrupted: \(label) \($0)") })
        }
        data.append(base + Int(offset))
      }
    }
    let header = try header(
      base: base, width: plan.width, height: plan.height, steps: plan.steps, metrics: metrics, fail: fail)
    return Validated(
      header: header, geometryOffset: plan.layout.geometryOffset, version: Int(version), data: data,
      dataBytes: plan.layout.dataBytes,
      terrainOffset: hasTerrain ? plan.layout.terrainOffset : nil, positionsOffset: positions?.layout.positionsOffset,
      positionCount: positions?.count ?? 1,
      stepPositions: positions?.stepPositions)
  }

  /// Metric `index` of the table: its name and unit (NUL-terminated UTF-8), its sentinel
  /// (65535), its kind, scale and offset.
  static func metric(base: UnsafeRawPointer, index: Int, fail: (String) -> CubeError) throws(CubeError) -> CubeMetric {
    let entry = CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes
    guard let name = base.text(entry, bytes: CubeLayout.nameBytes) else {
      throw fail("corrupted: metric \(index) name is not NUL-terminated UTF-8 text")
    }
    let label = "metric \(index) (\(CubeLimits.printable(name)))"
    guard let unit = base.text(entry + CubeLayout.unitOffset, bytes: CubeLayout.unitBytes) else {
      throw fail("corrupted: \(label) unit is not NUL-terminated UTF-8 text")
    }
    let sentinel = base.le(entry + CubeLayout.sentinelOffset, as: UInt16.self)
    guard sentinel == CubeMetric.missing else {
      throw fail("corrupted: \(label) missing-value sentinel \(sentinel) is not 65535")
    }
    return CubeMetric(
      name: name, unit: unit, temporal: base.le(entry + CubeLayout.temporalOffset, as: UInt32.self),
      scale: base.leDouble(entry + CubeLayout.scaleOffset),
      offset: base.leDouble(entry + CubeLayout.valueOffsetOffset))
  }

  /// The header of a cube of this shape and these metrics, with the fixed header's other
  /// fields, checked against `CubeLimits`.
  static func header(
    base: UnsafeRawPointer, width: Int, height: Int, steps: Int, metrics: [CubeMetric], fail: (String) -> CubeError
  ) throws(CubeError) -> CubeHeader {
    guard let model = base.text(CubeLayout.modelOffset, bytes: CubeLayout.modelBytes) else {
      throw fail("corrupted: model name is not NUL-terminated UTF-8 text")
    }
    guard let domain = base.text(CubeLayout.domainOffset, bytes: CubeLayout.domainBytes) else {
      throw fail("corrupted: domain is not NUL-terminated UTF-8 text")
    }
    let header = CubeHeader(
      width: width, height: height, stepCount: steps,
      firstTime: base.le(CubeLayout.firstTimeOffset, as: Int64.self),
      stepSeconds: base.le(CubeLayout.stepSecondsOffset, as: Int64.self),
      runStart: base.le(CubeLayout.runStartOffset, as: Int64.self),
      model: model, domain: domain,
      gridSpacing: base.leDouble(CubeLayout.gridSpacingOffset),
      projection: CubeProjection(
        code: base.le(CubeLayout.projectionCodeOffset, as: UInt32.self),
        parameters: (0..<CubeProjection.parameterCount).map {
          base.leDouble(CubeLayout.projectionParametersOffset + 8 * $0)
        }),
      metrics: metrics)
    if let problem = CubeLimits.problem(in: header) { throw fail("corrupted: \(problem)") }
    return header
  }

  /// The positions section against the file: its count, then its size, its checksum, the
  /// step table (every index in range and in canonical order) and every moved position's
  /// coordinates and terrain, so that no step can send a locator to a position that is not
  /// there or to coordinates no writer could have stored.
  private static func checkPositions(
    base: UnsafeRawPointer, size: Int, layout: CubeLayout.Plan, steps: Int, verify: Bool,
    fail: (String) -> CubeError
  ) throws(CubeError) -> (layout: CubeLayout.Plan, count: Int, stepPositions: [Int]) {
    let cells = layout.geometryBytes / (2 * MemoryLayout<Float>.size)
    let terrain = layout.terrainBytes > 0
    // `checkedShape` made sure that the file holds the section's count.
    let start = CubeLayout.aligned(layout.fileBytes)
    let storedCount = base.le(start, as: UInt32.self)
    let limit = CubeLimits.positions
    guard storedCount >= 2, storedCount <= UInt32(limit.upperBound) else {
      throw fail(
        "corrupted: position count \(storedCount) is not in 2…\(limit.upperBound), as a positions section (flag bit 1) requires"
      )
    }
    let count = Int(storedCount)
    guard count <= steps else {
      throw fail("corrupted: position count \(count) is more than the \(steps) steps, each of which uses one")
    }
    let full = layout.with(positions: count, steps: steps)
    guard full.fileBytes == size else {
      throw fail(
        "corrupted: positions section of \(size - start) bytes is not \(full.positionsBytes), the size of \(count) positions of \(cells) cells\(terrain ? " with terrain" : "") over \(steps) steps"
      )
    }
    if verify {
      let section = UnsafeRawBufferPointer(start: base + start, count: full.positionsBytes)
      guard XXH64.hash(section) == base.le(CubeLayout.positionsChecksumOffset, as: UInt64.self) else {
        throw fail("corrupted: positions checksum mismatch")
      }
    }
    let table = base + start + CubeLayout.positionsPreambleBytes
    let stepPositions = (0..<steps).map { Int(table.le($0 * MemoryLayout<UInt32>.size, as: UInt32.self)) }
    if let problem = CubeLimits.stepPositionsProblem(stepPositions, positionCount: count) {
      throw fail("corrupted: \(problem)")
    }
    let record = CubeLayout.positionBytes(cells: cells, terrain: terrain)
    let first = table + CubeLayout.stepTableBytes(steps: steps)
    for position in 1..<count {
      let latitudes = first + (position - 1) * record
      let longitudes = latitudes + cells * MemoryLayout<Float>.size
      let heights = longitudes + cells * MemoryLayout<Float>.size
      let masks = heights + cells * MemoryLayout<Float>.size
      for cell in 0..<cells {
        let latitude = Float(bitPattern: latitudes.le(cell * 4, as: UInt32.self))
        let longitude = Float(bitPattern: longitudes.le(cell * 4, as: UInt32.self))
        var problem = CubeGrid.coordinateProblem(latitude: latitude, longitude: longitude)
        if problem == nil, terrain {
          let height = Float(bitPattern: heights.le(cell * 4, as: UInt32.self))
          let mask = masks.load(fromByteOffset: cell, as: UInt8.self)
          problem = CubeTerrain.heightProblem(height) ?? CubeTerrain.maskProblem(mask)
        }
        if let problem { throw fail("corrupted: position \(position) \(problem) at cell \(cell)") }
      }
    }
    return (full, count, stepPositions)
  }

  /// The terrain section's offset, size and checksum against the layout, then every height
  /// and mask byte against `CubeTerrain`'s limits, so that no query reads a height no
  /// writer could have stored.
  private static func checkTerrain(
    base: UnsafeRawPointer, cells: Int, layout: CubeLayout.Plan, verify: Bool, fail: (String) -> CubeError
  ) throws(CubeError) {
    let offset = base.le(CubeLayout.terrainOffsetOffset, as: UInt64.self)
    guard offset == UInt64(layout.terrainOffset) else {
      throw fail("corrupted: terrain offset \(offset) is not \(layout.terrainOffset), where the terrain section starts")
    }
    let bytes = base.le(CubeLayout.terrainBytesOffset, as: UInt64.self)
    guard bytes == UInt64(layout.terrainBytes) else {
      throw fail("corrupted: terrain bytes \(bytes) is not \(layout.terrainBytes), 5 bytes for each of \(cells) cells")
    }
    let section = UnsafeRawBufferPointer(start: base + layout.terrainOffset, count: layout.terrainBytes)
    if verify {
      guard XXH64.hash(section) == base.le(CubeLayout.terrainChecksumOffset, as: UInt64.self) else {
        throw fail("corrupted: terrain checksum mismatch")
      }
    }
    let heights = base + layout.terrainOffset
    let masks = heights + cells * MemoryLayout<Float>.size
    for cell in 0..<cells {
      let height = Float(bitPattern: heights.le(cell * 4, as: UInt32.self))
      let mask = masks.load(fromByteOffset: cell, as: UInt8.self)
      if let problem = CubeTerrain.heightProblem(height) ?? CubeTerrain.maskProblem(mask) {
        throw fail("corrupted: \(problem) at cell \(cell)")
      }
    }
  }

  /// The shape's fields checked against `CubeLimits` in their stored width, then against
  /// the file: its layout must end exactly at the file's end and the geometry must be
  /// where the layout puts it.
  private static func checkedShape(
    base: UnsafeRawPointer, size: Int, metricCount: Int, terrain: Bool, positions: Bool, packed: Bool,
    fail: (String) -> CubeError
  ) throws(CubeError) -> (width: Int, height: Int, steps: Int, layout: CubeLayout.Plan) {
    let storedWidth = base.le(CubeLayout.widthOffset, as: UInt32.self)
    let storedHeight = base.le(CubeLayout.heightOffset, as: UInt32.self)
    let storedSteps = base.le(CubeLayout.stepCountOffset, as: UInt32.self)
    // u32 always fits an Int on the 64-bit platforms nwpcube builds for.
    let (width, height, steps) = (Int(storedWidth), Int(storedHeight), Int(storedSteps))
    if let problem = CubeLimits.shapeProblem(width: width, height: height, stepCount: steps) {
      throw fail("corrupted: \(problem)")
    }
    let shape = "\(width)×\(height)×\(steps)"
    // Version 2's sections have the sizes their entries give, within what a section of
    // this shape can take; version 1's blocks have one size.
    let sections = (0..<metricCount).map {
      base.le(
        CubeLayout.fixedHeaderBytes + $0 * CubeLayout.metricEntryBytes + CubeLayout.dataBytesOffset, as: UInt64.self)
    }
    let checkedPlan =
      packed
      ? CubeLayout.Plan.checked(cells: width * height, steps: steps, sectionBytes: sections, terrain: terrain)
      : CubeLayout.Plan.checked(cells: width * height, steps: steps, metricCount: metricCount, terrain: terrain)
    // A positions section's size depends on its count, read from the section itself
    // (`checkPositions`): here the file must reach at least past that count. `checked`
    // left room for the alignment after the plan's end.
    let fits = { (plan: CubeLayout.Plan) in
      positions
        ? size - CubeLayout.positionsPreambleBytes >= CubeLayout.aligned(plan.fileBytes) : plan.fileBytes == size
    }
    guard let plan = checkedPlan, fits(plan) else {
      let section = (terrain ? " and a terrain section" : "") + (positions ? " and a positions section" : "")
      let sizes = packed ? " and data sections of \(sections.map(String.init).joined(separator: ", ")) bytes" : ""
      throw fail(
        "corrupted: shape \(shape) with \(metricCount) metrics\(section)\(sizes) does not match the file's \(size) bytes"
      )
    }
    let geometryOffset = base.le(CubeLayout.geometryOffsetOffset, as: UInt64.self)
    guard geometryOffset == UInt64(plan.geometryOffset) else {
      throw fail(
        "corrupted: geometry offset \(geometryOffset) is not \(plan.geometryOffset), where a cube of \(metricCount) metrics has it"
      )
    }
    let geometryBytes = base.le(CubeLayout.geometryBytesOffset, as: UInt64.self)
    guard geometryBytes == UInt64(plan.geometryBytes) else {
      throw fail("corrupted: geometry bytes \(geometryBytes) is not \(plan.geometryBytes), the size of a \(shape) grid")
    }
    return (width, height, steps, plan)
  }

  /// A version 2 section's table against the section: each cell's payload starts where the
  /// one before ends (the first right after the table), each frame decodes only to words
  /// ≤ 65534 or missing, and the padding follows the last payload exactly. After this, no
  /// entry can send a read outside the section.
  static func checkSection(
    _ section: UnsafeRawPointer, bytes: Int, cells: Int, steps: Int, fail: (String) -> CubeError
  ) throws(CubeError) {
    var next = UInt64(cells * CubeLayout.cellEntryBytes)
    for cell in 0..<cells {
      let entry = section.le(cell * CubeLayout.cellEntryBytes, as: UInt64.self)
      let (offset, reference, width) = (entry & 0xFFFF_FFFF, (entry >> 32) & 0xFFFF, (entry >> 48) & 0xFF)
      guard entry >> 56 == 0 else {
        throw fail("cell \(cell) has reserved bits set (entry 0x\(String(entry, radix: 16)))")
      }
      if let problem = SeriesFrame.problem(reference: reference, width: width) {
        throw fail("cell \(cell) \(problem)")
      }
      guard offset == next else {
        throw fail("cell \(cell) payload offset \(offset) is not \(next), where the payload before it ends")
      }
      // Both at most 2 bytes a step and the section's size, checked against the file.
      next += UInt64(SeriesFrame.payloadBytes(steps: steps, width: Int(width)))
      guard next <= UInt64(bytes) else {
        throw fail("cell \(cell) payload ends at \(next), past the section's \(bytes) bytes")
      }
    }
    guard next + UInt64(CubeLayout.sectionPadding) == UInt64(bytes) else {
      throw fail(
        "section of \(bytes) bytes does not end \(CubeLayout.sectionPadding) bytes after its last payload (at \(next))")
    }
  }
}
