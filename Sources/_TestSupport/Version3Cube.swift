import CubeFormat

/// A version 3 cube decoded from its bytes by the rules of docs/cube-format.md, *Version 3*,
/// written from the specification and sharing no code with `CubeWriter` or `CubeFile`
/// (XXH64 aside, a published algorithm): the oracle that the writer's files are checked
/// against. Decoding checks every layout rule (alignment, order, sizes, zero padding, the
/// fields version 3 leaves 0) and every checksum, and throws the first rule broken.
public struct Version3Cube {
  /// A broken rule, described.
  public struct Violation: Error, CustomStringConvertible {
    /// The rule and where it was broken.
    public let description: String
  }

  /// One metric table entry.
  public struct Metric: Equatable {
    /// The entry's name, unit, temporal kind, scale and offset, as stored.
    public var name: String
    /// See `name`.
    public var unit: String
    /// See `name`.
    public var temporal: UInt32
    /// See `name`.
    public var scale: Double
    /// See `name`.
    public var offset: Double
    /// The data bytes field: the sum of the metric's sub-sections.
    public var dataBytes: UInt64
  }

  /// The fixed header's fields, as stored.
  public let width: Int
  /// See `width`.
  public let height: Int
  /// See `width`.
  public let steps: Int
  /// See `width`.
  public let firstTime: Int64
  /// See `width`.
  public let stepSeconds: Int64
  /// See `width`.
  public let runStart: Int64
  /// See `width`.
  public let gridSpacing: Double
  /// See `width`.
  public let projectionCode: UInt32
  /// See `width`.
  public let projectionParameters: [Double]
  /// See `width`.
  public let model: String
  /// See `width`.
  public let domain: String
  /// The metric table.
  public let metrics: [Metric]
  /// Fixed header flags: bit 0 terrain, bit 1 positions.
  public let flags: UInt32
  /// The record's band cells and band count.
  public let bandCells: Int
  /// See `bandCells`.
  public let bandCount: Int
  /// Record geometry flags: bit 0 projection checked, bit 1 locator index.
  public let geometryFlags: UInt32
  /// The record's input convention (0 not recorded, 1 WRF, 2 MM5, 3 CF, 4 GRIB).
  public let inputConvention: UInt32
  /// Each position's latitudes and longitudes, the first the geometry block's.
  public let latitudes: [[Float]]
  /// See `latitudes`.
  public let longitudes: [[Float]]
  /// Each position's heights and land mask bytes; empty without a terrain section.
  public let heights: [[Float]]
  /// See `heights`.
  public let landMasks: [[UInt8]]
  /// Each step's position: all 0 without a positions section.
  public let stepPositions: [Int]
  /// The locator index section's bytes, nil without one.
  public let locatorIndex: [UInt8]?
  /// Every word, `words[metric][cell × steps + step]`.
  public let words: [[UInt16]]
  /// `frames[metric][cell]`: the reference word and bit width of each cell's series, as its
  /// table entry stores them.
  public let frames: [[(reference: UInt16, width: Int)]]
  /// The band index: each sub-section's offset and bytes, band-major.
  public let bandIndex: [(offset: Int, bytes: Int)]
  /// The number of checksum blocks verified.
  public let checksumBlocks: Int
  /// Where the band index and the checksum table start, and the file's size.
  public let bandIndexOffset: Int
  /// See `bandIndexOffset`.
  public let checksumTableOffset: Int
  /// See `bandIndexOffset`.
  public let fileBytes: Int

  /// Cells per position: width × height.
  public var cells: Int { width * height }

  /// The header as `CubeHeader`, to write the same cube again.
  public var header: CubeHeader {
    CubeHeader(
      width: width, height: height, stepCount: steps, firstTime: firstTime, stepSeconds: stepSeconds,
      runStart: runStart, model: model, domain: domain, gridSpacing: gridSpacing,
      projection: CubeProjection(code: projectionCode, parameters: projectionParameters),
      metrics: metrics.map {
        CubeMetric(name: $0.name, unit: $0.unit, temporal: $0.temporal, scale: $0.scale, offset: $0.offset)
      }, inputConvention: inputConvention)
  }

  /// Every position as `CubeGrid`, the first the geometry block's.
  public var grids: [CubeGrid] {
    latitudes.indices.map { position in
      CubeGrid(
        latitudes: latitudes[position], longitudes: longitudes[position],
        terrain: heights.isEmpty ? nil : CubeTerrain(heights: heights[position], landMask: landMasks[position]))
    }
  }

  /// The word of `metric` at `cell` and `step`.
  public func word(metric: Int, cell: Int, step: Int) -> UInt16 { words[metric][cell * steps + step] }

  /// Decodes `bytes`, the whole file.
  public init(_ bytes: [UInt8]) throws(Violation) {
    func fail(_ text: String) -> Violation { Violation(description: text) }
    func u(_ offset: Int, _ size: Int) throws(Violation) -> UInt64 {
      guard offset >= 0, offset + size <= bytes.count else {
        throw fail("field at \(offset) (\(size) bytes) is past the end (\(bytes.count))")
      }
      var value: UInt64 = 0
      for k in 0..<size { value |= UInt64(bytes[offset + k]) << (8 * k) }
      return value
    }
    func u32(_ offset: Int) throws(Violation) -> Int { Int(try u(offset, 4)) }
    func u64(_ offset: Int) throws(Violation) -> Int {
      let value = try u(offset, 8)
      guard value <= UInt64(Int.max) else { throw fail("u64 at \(offset) is \(value)") }
      return Int(value)
    }
    func f64(_ offset: Int) throws(Violation) -> Double { Double(bitPattern: try u(offset, 8)) }
    func f32s(_ offset: Int, _ count: Int) throws(Violation) -> [Float] {
      guard offset + 4 * count <= bytes.count else { throw fail("f32s at \(offset) past the end") }
      return (0..<count).map { k in
        Float(
          bitPattern: UInt32(bytes[offset + 4 * k]) | UInt32(bytes[offset + 4 * k + 1]) << 8
            | UInt32(bytes[offset + 4 * k + 2]) << 16 | UInt32(bytes[offset + 4 * k + 3]) << 24)
      }
    }
    func text(_ offset: Int, _ size: Int) throws(Violation) -> String {
      let field = bytes[offset..<offset + size]
      guard let end = field.firstIndex(of: 0) else { throw fail("text at \(offset) has no NUL") }
      guard field[end...].allSatisfy({ $0 == 0 }) else { throw fail("text at \(offset) has bytes after its NUL") }
      return String(decoding: field[..<end], as: UTF8.self)
    }
    func next64(_ offset: Int) -> Int { (offset + 63) / 64 * 64 }
    func zeros(_ range: Range<Int>, _ what: String) throws(Violation) {
      guard range.upperBound <= bytes.count else { throw fail("\(what) \(range) is past the end") }
      if let bad = bytes[range].firstIndex(where: { $0 != 0 }) { throw fail("\(what): byte \(bad) is not 0") }
    }

    guard bytes.count >= 256, Array(bytes[0..<8]) == Array("NWPCUBE\0".utf8) else { throw fail("bad magic") }
    guard try u32(8) == 3 else { throw fail("version \(try u32(8)), not 3") }
    let metricCount = try u32(36)
    let headerBytes = try u32(12)
    guard headerBytes == 256 + 96 * metricCount + 128 else {
      throw fail("header bytes \(headerBytes) for \(metricCount) metrics")
    }
    guard try u64(16) == bytes.count else { throw fail("file bytes \(try u64(16)), file \(bytes.count)") }
    var header = Array(bytes[0..<headerBytes])
    for k in 168..<176 { header[k] = 0 }
    guard XXH64.hash(header) == (try u(168, 8)) else { throw fail("header checksum") }
    width = try u32(24)
    height = try u32(28)
    steps = try u32(32)
    firstTime = Int64(bitPattern: try u(40, 8))
    stepSeconds = Int64(bitPattern: try u(48, 8))
    runStart = Int64(bitPattern: try u(56, 8))
    gridSpacing = try f64(64)
    projectionCode = UInt32(try u32(72))
    var parameters: [Double] = []
    for k in 0..<8 { parameters.append(try f64(80 + 8 * k)) }
    projectionParameters = parameters
    flags = UInt32(try u32(76))
    guard flags & ~3 == 0 else { throw fail("flags \(flags)") }
    model = try text(176, 32)
    domain = try text(208, 16)
    let cells = width * height
    for (offset, what) in [(160, "geometry checksum"), (240, "terrain checksum"), (248, "positions checksum")] {
      guard try u(offset, 8) == 0 else { throw fail("\(what) is not 0 in version 3") }
    }
    var metrics: [Metric] = []
    for m in 0..<metricCount {
      let entry = 256 + 96 * m
      guard try u(entry + 44, 2) == 0xFFFF else { throw fail("metric \(m) sentinel") }
      guard try u(entry + 64, 8) == 0, try u(entry + 80, 8) == 0 else {
        throw fail("metric \(m) data offset or checksum is not 0 in version 3")
      }
      try zeros(entry + 46..<entry + 48, "metric \(m) bytes 46…47")
      try zeros(entry + 88..<entry + 96, "metric \(m) reserved bytes")
      metrics.append(
        Metric(
          name: try text(entry, 24), unit: try text(entry + 24, 16), temporal: UInt32(try u32(entry + 40)),
          scale: try f64(entry + 48), offset: try f64(entry + 56), dataBytes: try u(entry + 72, 8)))
    }
    self.metrics = metrics

    // The record.
    let record = 256 + 96 * metricCount
    bandCells = try u32(record)
    bandCount = try u32(record + 4)
    guard bandCells > 0, bandCells & (bandCells - 1) == 0 else { throw fail("band cells \(bandCells)") }
    guard bandCount == (cells + bandCells - 1) / bandCells, (1...65_536).contains(bandCount) else {
      throw fail("band count \(bandCount) for \(cells) cells in bands of \(bandCells)")
    }
    let bandIndexOffset = try u64(record + 8)
    let bandIndexBytes = try u64(record + 16)
    let tableOffset = try u64(record + 24)
    let tableBytes = try u64(record + 32)
    let tableHash = try u(record + 40, 8)
    guard try u32(record + 48) == 65_536 else { throw fail("checksum block bytes \(try u32(record + 48))") }
    geometryFlags = UInt32(try u32(record + 52))
    guard geometryFlags & ~3 == 0 else { throw fail("geometry flags \(geometryFlags)") }
    let locatorOffset = try u64(record + 56)
    let locatorBytes = try u64(record + 64)
    inputConvention = UInt32(try u32(record + 72))
    try zeros(record + 76..<record + 128, "record reserved bytes")

    // Geometry.
    let geometry = try u64(144)
    guard geometry == next64(headerBytes) else { throw fail("geometry at \(geometry), header ends \(headerBytes)") }
    try zeros(headerBytes..<geometry, "padding after the header")
    guard try u64(152) == 8 * cells else { throw fail("geometry bytes \(try u64(152))") }
    var latitudes = [try f32s(geometry, cells)]
    var longitudes = [try f32s(geometry + 4 * cells, cells)]
    var end = geometry + 8 * cells

    // The data, through the band index.
    guard bandIndexBytes == 16 * bandCount * metricCount, bandIndexOffset + bandIndexBytes <= bytes.count else {
      throw fail("band index bytes \(bandIndexBytes)")
    }
    var index: [(offset: Int, bytes: Int)] = []
    for k in 0..<bandCount * metricCount {
      index.append((try u64(bandIndexOffset + 16 * k), try u64(bandIndexOffset + 16 * k + 8)))
    }
    bandIndex = index
    var words = [[UInt16]](repeating: [UInt16](repeating: 0, count: cells * steps), count: metricCount)
    var frames = [[(reference: UInt16, width: Int)]](
      repeating: [(reference: UInt16, width: Int)](repeating: (0, 0), count: cells), count: metricCount)
    var sums = [Int](repeating: 0, count: metricCount)
    for band in 0..<bandCount {
      let first = band * bandCells
      let count = min(bandCells, cells - first)
      for m in 0..<metricCount {
        let (start, size) = index[band * metricCount + m]
        guard start == next64(end) else {
          throw fail("sub-section (\(band), \(m)) at \(start), expected \(next64(end))")
        }
        try zeros(end..<start, "padding before sub-section (\(band), \(m))")
        guard start + size <= bytes.count else { throw fail("sub-section (\(band), \(m)) past the end") }
        var payload = count * 8
        for c in 0..<count {
          let entry = start + 8 * c
          let offset = Int(try u(entry, 4))
          let reference = UInt32(try u(entry + 4, 2))
          let width = Int(try u(entry + 6, 1))
          guard try u(entry + 7, 1) == 0 else { throw fail("reserved entry byte of cell \(first + c)") }
          guard offset == payload, width <= 16 else {
            throw fail(
              "cell \(first + c) of sub-section (\(band), \(m)): offset \(offset) (expected \(payload)), width \(width)"
            )
          }
          frames[m][first + c] = (UInt16(reference), width)
          let length = (steps * width + 7) / 8
          guard start + payload + length <= start + size else {
            throw fail("payload of cell \(first + c) past its sub-section")
          }
          for t in 0..<steps {
            var code: UInt32 = 0
            for bit in 0..<width {
              let position = t * width + bit
              if bytes[start + payload + position / 8] >> UInt8(position % 8) & 1 == 1 { code |= 1 << UInt32(bit) }
            }
            let word: UInt16
            if width == 0 {
              word = UInt16(reference)
            } else if code == (1 << UInt32(width)) - 1 {
              word = 0xFFFF
            } else {
              guard reference + code <= 65_534 else { throw fail("cell \(first + c) decodes past 65534") }
              word = UInt16(reference + code)
            }
            words[m][(first + c) * steps + t] = word
          }
          // The unused bits of a payload's last byte are 0.
          if length > 0, (steps * width) % 8 != 0 {
            guard bytes[start + payload + length - 1] >> UInt8((steps * width) % 8) == 0 else {
              throw fail("unused bits of cell \(first + c)'s payload are not 0")
            }
          }
          payload += length
        }
        guard size == payload + 8 else {
          throw fail("sub-section (\(band), \(m)) is \(size) bytes, expected \(payload + 8)")
        }
        try zeros(start + payload..<start + size, "padding of sub-section (\(band), \(m))")
        sums[m] += size
        end = start + size
      }
    }
    self.words = words
    self.frames = frames
    for m in 0..<metricCount where UInt64(sums[m]) != metrics[m].dataBytes {
      throw fail("metric \(m) data bytes \(metrics[m].dataBytes), sub-sections \(sums[m])")
    }

    // Terrain.
    var heights: [[Float]] = []
    var masks: [[UInt8]] = []
    if flags & 1 != 0 {
      let terrain = try u64(224)
      guard terrain == next64(end), try u64(232) == 5 * cells else { throw fail("terrain at \(terrain)") }
      try zeros(end..<terrain, "padding before the terrain")
      heights.append(try f32s(terrain, cells))
      masks.append(Array(bytes[terrain + 4 * cells..<terrain + 5 * cells]))
      end = terrain + 5 * cells
    } else {
      guard try u(224, 16) == 0 else { throw fail("terrain offset without the flag") }
    }

    // Positions.
    var stepPositions = [Int](repeating: 0, count: steps)
    if flags & 2 != 0 {
      let start = next64(end)
      try zeros(end..<start, "padding before the positions")
      let count = try u32(start)
      guard count >= 2, try u32(start + 4) == 0 else { throw fail("positions count \(count)") }
      for t in 0..<steps { stepPositions[t] = try u32(start + 8 + 4 * t) }
      var next = start + 8 + (4 * steps + 7) / 8 * 8
      try zeros(start + 8 + 4 * steps..<next, "padding of the step table")
      let terrain = flags & 1 != 0
      for _ in 1..<count {
        latitudes.append(try f32s(next, cells))
        longitudes.append(try f32s(next + 4 * cells, cells))
        var used = 8 * cells
        if terrain {
          heights.append(try f32s(next + 8 * cells, cells))
          masks.append(Array(bytes[next + 12 * cells..<next + 13 * cells]))
          used += 5 * cells
        }
        let padded = (used + 7) / 8 * 8
        try zeros(next + used..<next + padded, "padding of a position")
        next += padded
      }
      end = next
    }
    self.stepPositions = stepPositions
    self.heights = heights
    landMasks = masks
    self.latitudes = latitudes
    self.longitudes = longitudes

    // Locator index.
    if geometryFlags & 2 != 0 {
      guard locatorOffset == next64(end), locatorBytes > 0, locatorOffset + locatorBytes <= bytes.count else {
        throw fail("locator index at \(locatorOffset), \(locatorBytes) bytes")
      }
      try zeros(end..<locatorOffset, "padding before the locator index")
      locatorIndex = Array(bytes[locatorOffset..<locatorOffset + locatorBytes])
      end = locatorOffset + locatorBytes
    } else {
      guard locatorOffset == 0, locatorBytes == 0 else { throw fail("locator index without the flag") }
      locatorIndex = nil
    }

    // Band index, then the checksum table, which ends the file.
    guard bandIndexOffset == next64(end) else {
      throw fail("band index at \(bandIndexOffset), expected \(next64(end))")
    }
    try zeros(end..<bandIndexOffset, "padding before the band index")
    end = bandIndexOffset + bandIndexBytes
    guard tableOffset == next64(end) else { throw fail("checksum table at \(tableOffset), expected \(next64(end))") }
    try zeros(end..<tableOffset, "padding before the checksum table")
    let blocks = (tableOffset - geometry + 65_535) / 65_536
    guard tableBytes == 8 * blocks, tableOffset + tableBytes == bytes.count else {
      throw fail("checksum table of \(tableBytes) bytes for \(blocks) blocks, file \(bytes.count)")
    }
    guard XXH64.hash(Array(bytes[tableOffset..<bytes.count])) == tableHash else {
      throw fail("checksum table's checksum")
    }
    for block in 0..<blocks {
      let start = geometry + block * 65_536
      let stored = try u(tableOffset + 8 * block, 8)
      guard XXH64.hash(Array(bytes[start..<min(start + 65_536, tableOffset)])) == stored else {
        throw fail("checksum of block \(block) (bytes \(start)…)")
      }
    }
    checksumBlocks = blocks
    self.bandIndexOffset = bandIndexOffset
    checksumTableOffset = tableOffset
    fileBytes = bytes.count
  }
}
