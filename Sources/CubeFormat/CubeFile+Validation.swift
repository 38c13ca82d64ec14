extension CubeFile {
  /// Decodes the header and checks every offset and checksum against the file's size.
  static func validate(
    base: UnsafeRawPointer, size: Int, path: String, verify: Bool
  ) throws(CubeError) -> (CubeHeader, [UnsafePointer<UInt16>]) {
    func fail(_ reason: String) -> CubeError { CubeError(path: path, reason: reason) }

    guard Array(UnsafeRawBufferPointer(start: base, count: 8)) == CubeLayout.magic else {
      throw fail("not an nwpcube cube: bad magic number")
    }
    let version = base.le(CubeLayout.versionOffset, as: UInt32.self)
    guard version == CubeLayout.version else {
      throw fail("cube format version \(version) is not supported; this build reads version \(CubeLayout.version)")
    }
    let declaredSize = base.le(CubeLayout.fileBytesOffset, as: UInt64.self)
    guard declaredSize == UInt64(size) else {
      throw fail(
        declaredSize > UInt64(size)
          ? "truncated: the header says \(declaredSize) bytes, the file has \(size)"
          : "corrupted: the header says \(declaredSize) bytes, the file has \(size)")
    }
    let metricCount = Int(base.le(CubeLayout.metricCountOffset, as: UInt32.self))
    let headerBytes = Int(base.le(CubeLayout.headerBytesOffset, as: UInt32.self))
    guard metricCount > 0, metricCount <= 256,
      headerBytes == CubeLayout.fixedHeaderBytes + metricCount * CubeLayout.metricEntryBytes,
      headerBytes <= size
    else {
      throw fail("corrupted: inconsistent header size (\(headerBytes) bytes for \(metricCount) metrics)")
    }
    let storedHeaderSum = base.le(CubeLayout.headerChecksumOffset, as: UInt64.self)
    var headerCopy = Array(UnsafeRawBufferPointer(start: base, count: headerBytes))
    for index in 0..<8 { headerCopy[CubeLayout.headerChecksumOffset + index] = 0 }
    guard XXH64.hash(headerCopy) == storedHeaderSum else {
      throw fail("corrupted: header checksum mismatch")
    }

    let width = Int(base.le(CubeLayout.widthOffset, as: UInt32.self))
    let height = Int(base.le(CubeLayout.heightOffset, as: UInt32.self))
    let steps = Int(base.le(CubeLayout.stepsOffset, as: UInt32.self))
    let plan = CubeLayout.Plan(cells: width * height, steps: steps, metricCount: metricCount)
    guard width > 0, height > 0, steps > 0, plan.fileBytes == size,
      Int(base.le(CubeLayout.geometryOffsetOffset, as: UInt64.self)) == plan.geometryOffset,
      Int(base.le(CubeLayout.geometryBytesOffset, as: UInt64.self)) == plan.geometryBytes
    else {
      throw fail("corrupted: shape \(width)×\(height)×\(steps) does not match the file's layout")
    }
    if verify {
      let geometry = UnsafeRawBufferPointer(start: base + plan.geometryOffset, count: plan.geometryBytes)
      guard XXH64.hash(geometry) == base.le(CubeLayout.geometryChecksumOffset, as: UInt64.self) else {
        throw fail("corrupted: geometry checksum mismatch")
      }
    }

    var metrics: [CubeMetric] = []
    var data: [UnsafePointer<UInt16>] = []
    for index in 0..<metricCount {
      let entry = CubeLayout.fixedHeaderBytes + index * CubeLayout.metricEntryBytes
      let metric = CubeMetric(
        name: base.text(entry, bytes: CubeLayout.nameBytes),
        unit: base.text(entry + CubeLayout.unitOffset, bytes: CubeLayout.unitBytes),
        temporal: base.le(entry + CubeLayout.temporalOffset, as: UInt32.self),
        scale: base.leDouble(entry + CubeLayout.scaleOffset),
        offset: base.leDouble(entry + CubeLayout.valueOffsetOffset))
      let offset = Int(base.le(entry + CubeLayout.dataOffsetOffset, as: UInt64.self))
      let bytes = Int(base.le(entry + CubeLayout.dataBytesOffset, as: UInt64.self))
      guard offset == plan.dataOffsets[index], bytes == plan.dataBytes,
        metric.scale > 0, metric.scale.isFinite, metric.offset.isFinite, metric.temporal <= 1
      else {
        throw fail("corrupted: metric table entry \(index) (\(metric.name)) is inconsistent")
      }
      if verify {
        let block = UnsafeRawBufferPointer(start: base + offset, count: bytes)
        guard XXH64.hash(block) == base.le(entry + CubeLayout.dataChecksumOffset, as: UInt64.self) else {
          throw fail("corrupted: data checksum mismatch in metric \(metric.name)")
        }
      }
      metrics.append(metric)
      data.append((base + offset).assumingMemoryBound(to: UInt16.self))
    }
    let header = CubeHeader(
      width: width, height: height, steps: steps,
      firstStep: base.le(CubeLayout.firstStepOffset, as: Int64.self),
      stepSeconds: base.le(CubeLayout.stepSecondsOffset, as: Int64.self),
      runStart: base.le(CubeLayout.runStartOffset, as: Int64.self),
      model: base.text(CubeLayout.modelOffset, bytes: CubeLayout.modelBytes),
      domain: base.text(CubeLayout.domainOffset, bytes: CubeLayout.domainBytes),
      gridSpacing: base.leDouble(CubeLayout.gridSpacingOffset),
      projection: CubeProjection(
        code: base.le(CubeLayout.projectionCodeOffset, as: UInt32.self),
        parameters: (0..<CubeProjection.parameterCount).map {
          base.leDouble(CubeLayout.projectionParametersOffset + 8 * $0)
        }),
      metrics: metrics)
    guard header.stepSeconds > 0 else { throw fail("corrupted: time step \(header.stepSeconds) s") }
    return (header, data)
  }
}
