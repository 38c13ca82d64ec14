import Foundation

/// Little-endian reads and writes on a cube's bytes, written here rather than borrowed from
/// CubeFormat so that the tests decode a cube independently of the reader under test.
extension Array where Element == UInt8 {
  func le<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
    var bits: UInt64 = 0
    for k in 0..<MemoryLayout<T>.size { bits |= UInt64(self[offset + k]) << (8 * k) }
    return T(truncatingIfNeeded: bits)
  }

  func double(_ offset: Int) -> Double { Double(bitPattern: le(offset, as: UInt64.self)) }

  /// The bytes of a text field up to its first NUL (all of them when there is none).
  func field(_ offset: Int, bytes: Int) -> [UInt8] {
    Array(self[offset..<(offset + bytes)].prefix { $0 != 0 })
  }

  mutating func set(_ bytes: [UInt8], at offset: Int) {
    for (k, byte) in bytes.enumerated() { self[offset + k] = byte }
  }
}

/// Little-endian bytes of the low `count` bytes of `bits`.
func littleEndian(_ bits: UInt64, count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
}

/// A cube's fields as its bytes say, read without CubeFormat: the oracle the reader and the
/// point queries are checked against.
struct RawCube {
  let bytes: [UInt8]
  let width: Int
  let height: Int
  let stepCount: Int
  let metricCount: Int
  let firstTime: Int64
  let stepSeconds: Int64
  let runStart: Int64

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    width = Int(bytes.le(24, as: UInt32.self))
    height = Int(bytes.le(28, as: UInt32.self))
    stepCount = Int(bytes.le(32, as: UInt32.self))
    metricCount = Int(bytes.le(36, as: UInt32.self))
    firstTime = bytes.le(40, as: Int64.self)
    stepSeconds = bytes.le(48, as: Int64.self)
    runStart = bytes.le(56, as: Int64.self)
  }

  var cells: Int { width * height }
  var lastTime: Int64 { firstTime + Int64(stepCount - 1) * stepSeconds }
  var gridSpacing: Double { bytes.double(64) }
  var geometryOffset: Int { Int(bytes.le(144, as: UInt64.self)) }
  var latitudes: [Float] { (0..<cells).map { Float(bitPattern: bytes.le(geometryOffset + 4 * $0, as: UInt32.self)) } }
  var longitudes: [Float] {
    (0..<cells).map { Float(bitPattern: bytes.le(geometryOffset + 4 * (cells + $0), as: UInt32.self)) }
  }
  var model: [UInt8] { bytes.field(176, bytes: 32) }
  var domain: [UInt8] { bytes.field(208, bytes: 16) }

  func entry(_ metric: Int) -> Int { 256 + 96 * metric }
  func name(_ metric: Int) -> String { String(decoding: bytes.field(entry(metric), bytes: 24), as: UTF8.self) }
  func temporal(_ metric: Int) -> UInt32 { bytes.le(entry(metric) + 40, as: UInt32.self) }
  func sentinel(_ metric: Int) -> UInt16 { bytes.le(entry(metric) + 44, as: UInt16.self) }
  func scale(_ metric: Int) -> Double { bytes.double(entry(metric) + 48) }
  func offset(_ metric: Int) -> Double { bytes.double(entry(metric) + 56) }
  func dataOffset(_ metric: Int) -> Int { Int(bytes.le(entry(metric) + 64, as: UInt64.self)) }

  var version: UInt32 { bytes.le(8, as: UInt32.self) }
  func dataBytes(_ metric: Int) -> Int { Int(bytes.le(entry(metric) + 72, as: UInt64.self)) }

  /// Version 3's record, after the metric table.
  var record: Int { 256 + 96 * metricCount }
  /// Version 3's cells per band.
  var bandCells: Int { Int(bytes.le(record, as: UInt32.self)) }
  /// Version 3's number of bands.
  var bandCount: Int { Int(bytes.le(record + 4, as: UInt32.self)) }

  /// Version 3's sub-section of `metric` in `band`, as the band index gives it.
  func subSection(_ metric: Int, band: Int) -> (offset: Int, bytes: Int) {
    let entry = Int(bytes.le(record + 8, as: UInt64.self)) + 16 * (band * metricCount + metric)
    return (Int(bytes.le(entry, as: UInt64.self)), Int(bytes.le(entry + 8, as: UInt64.self)))
  }

  /// Where a cell's series of a metric is: the start of its section (version 3: its band's
  /// sub-section) and the cell's index in it.
  func place(_ metric: Int, cell: Int) -> (section: Int, cell: Int) {
    guard version == 3 else { return (dataOffset(metric), cell) }
    return (subSection(metric, band: cell / bandCells).offset, cell % bandCells)
  }

  /// A version 2 or 3 cell entry's fields: payload offset, reference word, bit width,
  /// reserved.
  func cellEntry(_ metric: Int, cell: Int) -> (offset: Int, reference: Int, width: Int, reserved: Int) {
    let (section, index) = place(metric, cell: cell)
    let at = section + 8 * index
    return (
      Int(bytes.le(at, as: UInt32.self)), Int(bytes.le(at + 4, as: UInt16.self)), Int(bytes[at + 6]),
      Int(bytes[at + 7])
    )
  }

  /// The stored word of a metric at a cell and step, straight from the bytes: version 1's
  /// u16, or version 2's code gathered bit by bit (docs/cube-format.md, "Data sections").
  func word(_ metric: Int, cell: Int, step: Int) -> UInt16 {
    guard version >= 2 else { return bytes.le(dataOffset(metric) + 2 * (cell * stepCount + step), as: UInt16.self) }
    let entry = cellEntry(metric, cell: cell)
    guard entry.width > 0 else { return UInt16(entry.reference) }
    let payload = place(metric, cell: cell).section + entry.offset
    var code = 0
    for bit in 0..<entry.width {
      let position = step * entry.width + bit
      code |= Int(bytes[payload + position / 8] >> UInt8(position % 8) & 1) << bit
    }
    return code == (1 << entry.width) - 1 ? 0xFFFF : UInt16(entry.reference + code)
  }

  /// What is wrong with a version 2 section by the documented limits, nil when nothing is.
  func sectionViolation(_ metric: Int) -> String? {
    let bands = version == 3 ? bandCount : 1
    let perBand = version == 3 ? bandCells : cells
    for band in 0..<bands {
      let first = band * perBand
      let count = min(perBand, cells - first)
      let bytes = version == 3 ? subSection(metric, band: band).bytes : dataBytes(metric)
      var next = 8 * count
      for cell in first..<(first + count) {
        let entry = cellEntry(metric, cell: cell)
        guard entry.reserved == 0, entry.width <= 16 else { return "metric \(metric) cell \(cell) width or reserved" }
        if entry.width > 0, entry.reference + (1 << entry.width) - 2 > 65534 {
          return "metric \(metric) cell \(cell) decodes past 65534"
        }
        guard entry.offset == next else { return "metric \(metric) cell \(cell) offset \(entry.offset), not \(next)" }
        next += (stepCount * entry.width + 7) / 8
      }
      if next + 8 != bytes { return "metric \(metric) band \(band) section ends at \(next) + 8, not \(bytes)" }
    }
    return nil
  }

  /// The value of that word by the header's own scale and offset; nil for 0xFFFF.
  func value(_ metric: Int, cell: Int, step: Int) -> Double? {
    let stored = word(metric, cell: cell, step: step)
    return stored == 0xFFFF ? nil : offset(metric) + scale(metric) * Double(stored)
  }

  /// What is wrong with an accepted cube by the documented limits (docs/cube-format.md),
  /// checked here from the bytes without CubeLimits; nil when nothing is.
  /// The terrain section the flags announce, read straight from the bytes; nil without
  /// the flag or when the section's fields point outside the file.
  var terrain: (heights: [Float], masks: [UInt8])? {
    guard bytes.le(76, as: UInt32.self) & 1 == 1 else { return nil }
    let (offset, count) = (bytes.le(224, as: UInt64.self), bytes.le(232, as: UInt64.self))
    guard count == UInt64(cells) * 5, offset <= UInt64(bytes.count), count <= UInt64(bytes.count) - offset else {
      return nil
    }
    let start = Int(offset)
    let heights = (0..<cells).map { Float(bitPattern: bytes.le(start + 4 * $0, as: UInt32.self)) }
    return (heights, (0..<cells).map { bytes[start + 4 * cells + $0] })
  }

  func limitViolation() -> String? {
    let times: ClosedRange<Int64> = -2_208_988_800...7_289_654_399
    let storeName = { (text: [UInt8], bytes: Int) -> Bool in
      !text.isEmpty && text.count <= bytes && text.first != UInt8(ascii: ".")
        && text.allSatisfy {
          $0 < 0x80
            && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber
              || "_-.".utf8.contains($0))
        }
    }
    if !(1...100_000).contains(width) || !(1...100_000).contains(height) { return "shape \(width)×\(height)" }
    if !(1...1_000_000).contains(stepCount) || !(1...256).contains(metricCount) { return "steps \(stepCount)" }
    if !(1...2_678_400).contains(stepSeconds) { return "step \(stepSeconds)" }
    if !times.contains(firstTime) || !times.contains(runStart) || !times.contains(lastTime) { return "times" }
    if !(0...21_000_000).contains(gridSpacing) { return "grid spacing \(gridSpacing)" }
    if !storeName(model, 31) || !storeName(domain, 15) { return "model or domain" }
    var names: Set<String> = []
    for metric in 0..<metricCount {
      let (scale, offset) = (scale(metric), offset(metric))
      guard scale.isFinite, scale > 0, offset.isFinite, (offset + scale * 65534).isFinite else {
        return "metric \(metric) decoding \(offset) + \(scale) q"
      }
      guard temporal(metric) <= 2, sentinel(metric) == 0xFFFF else { return "metric \(metric) kind or sentinel" }
      guard !name(metric).isEmpty, names.insert(name(metric)).inserted else { return "metric \(metric) name" }
      if version >= 2, let violation = sectionViolation(metric) { return violation }
    }
    return positionsViolation()
  }
}

/// The positions section, read straight from the bytes as docs/cube-format.md lays it out.
extension RawCube {
  var flags: UInt32 { bytes.le(76, as: UInt32.self) }

  /// Where the section starts: the next multiple of 64 after the terrain section, or after
  /// the last data block.
  var positionsOffset: Int {
    let end =
      flags & 1 == 1
      ? Int(bytes.le(224, as: UInt64.self) + bytes.le(232, as: UInt64.self))
      : dataOffset(metricCount - 1) + dataBytes(metricCount - 1)
    return (end + 63) / 64 * 64
  }

  var positionCount: Int { flags & 2 == 0 ? 1 : Int(bytes.le(positionsOffset, as: UInt32.self)) }

  var stepPositions: [Int] {
    flags & 2 == 0
      ? Array(repeating: 0, count: stepCount)
      : (0..<stepCount).map { Int(bytes.le(positionsOffset + 8 + 4 * $0, as: UInt32.self)) }
  }

  /// Position `position`'s coordinates and terrain (nil without a terrain section).
  func position(_ position: Int) -> (latitudes: [Float], longitudes: [Float], heights: [Float]?, masks: [UInt8]?) {
    let floats = { (start: Int) in (0..<cells).map { Float(bitPattern: bytes.le(start + 4 * $0, as: UInt32.self)) } }
    guard position > 0 else { return (latitudes, longitudes, terrain?.heights, terrain?.masks) }
    let withTerrain = flags & 1 == 1
    let record = ((withTerrain ? 13 : 8) * cells + 7) / 8 * 8
    let start = positionsOffset + 8 + (4 * stepCount + 7) / 8 * 8 + (position - 1) * record
    let heights = withTerrain ? floats(start + 8 * cells) : nil
    let masks = withTerrain ? Array(bytes[(start + 12 * cells)..<(start + 13 * cells)]) : nil
    return (floats(start), floats(start + 4 * cells), heights, masks)
  }
}

extension RawCube {
  /// What is wrong with the positions section by the documented limits, nil when nothing
  /// is (or the cube has none).
  func positionsViolation() -> String? {
    guard flags & 2 == 2 else { return nil }
    guard bytes.count >= positionsOffset + 8 else { return "positions section shorter than its count" }
    let count = positionCount
    guard (2...65_535).contains(count), count <= stepCount else { return "position count \(count)" }
    let record = ((flags & 1 == 1 ? 13 : 8) * cells + 7) / 8 * 8
    guard bytes.count == positionsOffset + 8 + (4 * stepCount + 7) / 8 * 8 + (count - 1) * record else {
      return "positions section of \(bytes.count - positionsOffset) bytes for \(count) positions"
    }
    var used = 0
    for (step, position) in stepPositions.enumerated() {
      guard position <= used, position < count else { return "step \(step) uses position \(position)" }
      if position == used { used += 1 }
    }
    guard used == count else { return "\(count - used) positions unused" }
    for index in 1..<count {
      let stored = position(index)
      if zip(stored.latitudes, stored.longitudes).contains(where: {
        !(-90...90).contains($0) || !(-360...360).contains($1)
      }) {
        return "position \(index) coordinates out of range"
      }
      if let heights = stored.heights, heights.contains(where: { !$0.isNaN && !(-1_000...9_000).contains($0) }) {
        return "position \(index) terrain height out of range"
      }
      if let masks = stored.masks, masks.contains(where: { $0 > 1 && $0 != 255 }) {
        return "position \(index) land mask out of range"
      }
    }
    return nil
  }
}
