import _TestSupport

/// One field of a cube's header or metric table, by its place in docs/cube-format.md.
struct CubeField: Sendable {
  enum Kind: Sendable {
    /// An integer of this many bytes.
    case integer(Int)
    case float
    /// An f32: a coordinate or terrain height of a moved position.
    case float32
    /// NUL-terminated text in a field this wide.
    case text(Int)
    /// Bytes with no meaning to a reader beyond their value (magic, reserved).
    case raw(Int)
  }

  /// How a mutated cube is resealed: a checksum field is the mutation itself, so resealing
  /// the blocks (or for the header's own checksum, anything) would undo it.
  enum Sealing: Sendable { case all, headerOnly, none }

  let name: String
  let offset: Int
  let kind: Kind
  var sealing = Sealing.all

  /// The header's fields and every field of each of `metricCount` table entries.
  static func all(metricCount: Int) -> [CubeField] {
    var fields = [
      CubeField(name: "magic", offset: 0, kind: .raw(8)),
      CubeField(name: "version", offset: 8, kind: .integer(4)),
      CubeField(name: "header bytes", offset: 12, kind: .integer(4)),
      CubeField(name: "file bytes", offset: 16, kind: .integer(8)),
      CubeField(name: "width", offset: 24, kind: .integer(4)),
      CubeField(name: "height", offset: 28, kind: .integer(4)),
      CubeField(name: "steps", offset: 32, kind: .integer(4)),
      CubeField(name: "metric count", offset: 36, kind: .integer(4)),
      CubeField(name: "first step", offset: 40, kind: .integer(8)),
      CubeField(name: "step seconds", offset: 48, kind: .integer(8)),
      CubeField(name: "run start", offset: 56, kind: .integer(8)),
      CubeField(name: "grid spacing", offset: 64, kind: .float),
      CubeField(name: "projection code", offset: 72, kind: .integer(4)),
      CubeField(name: "flags", offset: 76, kind: .integer(4)),
      CubeField(name: "geometry offset", offset: 144, kind: .integer(8)),
      CubeField(name: "geometry bytes", offset: 152, kind: .integer(8)),
      CubeField(name: "geometry checksum", offset: 160, kind: .integer(8), sealing: .headerOnly),
      CubeField(name: "header checksum", offset: 168, kind: .integer(8), sealing: .none),
      CubeField(name: "model", offset: 176, kind: .text(32)),
      CubeField(name: "domain", offset: 208, kind: .text(16)),
      CubeField(name: "terrain offset", offset: 224, kind: .integer(8)),
      CubeField(name: "terrain bytes", offset: 232, kind: .integer(8)),
      CubeField(name: "terrain checksum", offset: 240, kind: .integer(8), sealing: .headerOnly),
      CubeField(name: "reserved 248", offset: 248, kind: .raw(8)),
    ]
    let parameters = ["TRUELAT1", "TRUELAT2", "STAND_LON", "CEN_LAT", "CEN_LON", "POLE_LAT", "POLE_LON", "DX"]
    for (index, name) in parameters.enumerated() {
      fields.append(CubeField(name: name, offset: 80 + 8 * index, kind: .float))
    }
    for metric in 0..<metricCount {
      let entry = 256 + 96 * metric
      fields += [
        CubeField(name: "metric \(metric) name", offset: entry, kind: .text(24)),
        CubeField(name: "metric \(metric) unit", offset: entry + 24, kind: .text(16)),
        CubeField(name: "metric \(metric) temporal", offset: entry + 40, kind: .integer(4)),
        CubeField(name: "metric \(metric) sentinel", offset: entry + 44, kind: .integer(2)),
        CubeField(name: "metric \(metric) reserved 46", offset: entry + 46, kind: .raw(2)),
        CubeField(name: "metric \(metric) scale", offset: entry + 48, kind: .float),
        CubeField(name: "metric \(metric) offset", offset: entry + 56, kind: .float),
        CubeField(name: "metric \(metric) data offset", offset: entry + 64, kind: .integer(8)),
        CubeField(name: "metric \(metric) data bytes", offset: entry + 72, kind: .integer(8)),
        CubeField(name: "metric \(metric) data checksum", offset: entry + 80, kind: .integer(8), sealing: .headerOnly),
        CubeField(name: "metric \(metric) reserved 88", offset: entry + 88, kind: .raw(8)),
      ]
    }
    return fields
  }

  var width: Int {
    switch kind {
    case .integer(let bytes), .text(let bytes), .raw(let bytes): bytes
    case .float: 8
    case .float32: 4
    }
  }

  /// The values this field is set to, each with a label: the extremes of its type, the
  /// edges of the documented limits, its true value off by one, the values of the other
  /// integer fields of `base`, and a few random bit patterns from `random`.
  func values(in base: [UInt8], random: inout TestRandom) -> [(label: String, bytes: [UInt8])] {
    switch kind {
    case .integer(let bytes):
      let mask = bytes == 8 ? UInt64.max : (1 << (8 * UInt64(bytes))) - 1
      let truth = base.le(offset, as: UInt64.self) & mask
      var candidates: [UInt64] = [
        0, 1, mask, 1 << (8 * UInt64(bytes) - 1), (1 << (8 * UInt64(bytes) - 1)) - 1, truth &- 1, truth &+ 1,
        truth &* 2, truth / 2, 0xFFFF_FFFF, 1 << 31, (1 << 31) - 1, 1 << 32, 1 << 63, (1 << 63) - 1,
        // The edges of the limits: sides, steps, step length, and the years 1900 and 2200.
        100_000, 100_001, 1_000_000, 1_000_001, 2_678_400, 2_678_401, 256, 257,
        UInt64(bitPattern: -2_208_988_800), UInt64(bitPattern: -2_208_988_801), 7_289_654_399, 7_289_654_400,
      ]
      candidates += Self.integerFieldOffsets.map { base.le($0.offset, as: UInt64.self) & $0.mask }
      candidates += (0..<3).map { _ in random.next() }
      var seen: Set<UInt64> = []
      return candidates.map { $0 & mask }.filter { seen.insert($0).inserted }.map {
        let signed = bytes == 8 ? String(Int64(bitPattern: $0)) : String($0)
        return (signed, littleEndian($0, count: bytes))
      }
    case .float:
      let truth = base.double(offset)
      var candidates: [Double] = [
        0, -0.0, 1, -1, .nan, -.nan, .signalingNaN, .infinity, -.infinity, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, 1e308, -1e308, 1e-308, 65534,
        1e304, -1e304, 90, -90, 90.000001, 360, 21_000_000, 21_000_001, truth.nextUp, truth.nextDown, truth * 2,
        -truth, truth + 1,
      ]
      candidates += (0..<3).map { _ in Double(bitPattern: random.next()) }
      var seen: Set<UInt64> = []
      return candidates.filter { seen.insert($0.bitPattern).inserted }.map {
        ("\($0) (0x\(String($0.bitPattern, radix: 16)))", littleEndian($0.bitPattern, count: 8))
      }
    case .float32:
      let truth = Float(bitPattern: base.le(offset, as: UInt32.self))
      var candidates: [Float] = [
        0, -0.0, .nan, -.nan, .signalingNaN, .infinity, -.infinity, .greatestFiniteMagnitude, 90, -90, 90.0001,
        -90.0001, 360, -360, 360.0001, -360.0001, 9_000, 9_000.001, -1_000, -1_000.001, truth.nextUp,
        truth.nextDown, -truth, truth + 1,
      ]
      candidates += (0..<2).map { _ in Float(bitPattern: UInt32(truncatingIfNeeded: random.next())) }
      var seen: Set<UInt32> = []
      return candidates.filter { seen.insert($0.bitPattern).inserted }.map {
        ("\($0) (0x\(String($0.bitPattern, radix: 16)))", littleEndian(UInt64($0.bitPattern), count: 4))
      }
    case .text(let bytes):
      let texts: [(String, [UInt8])] = [
        ("empty", []), ("full width without NUL", Array(repeating: 0x61, count: bytes)),
        ("longest", Array(repeating: 0x61, count: bytes - 1)), ("invalid UTF-8", [0xFF, 0xFE]),
        ("cut UTF-8", [0x61, 0xC3]), ("newline", Array("a\nb".utf8)), ("slash", Array("a/b".utf8)),
        ("dot first", Array(".x".utf8)), ("space", Array("a b".utf8)), ("temp", Array("temp".utf8)),
        ("rain", Array("rain".utf8)), ("degree sign", Array("°C".utf8)),
        ("random", (0..<bytes).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
        ("random text", (0..<(bytes - 1)).map { _ in UInt8(0x20 + random.next() % 0x5F) }),
      ]
      return texts.map { ($0.0, $0.1 + Array(repeating: 0, count: bytes - $0.1.count)) }
    case .raw(let bytes):
      var flipped = Array(base[offset..<(offset + bytes)])
      flipped[0] ^= 1
      return [
        ("zeros", Array(repeating: 0, count: bytes)), ("ones", Array(repeating: 0xFF, count: bytes)),
        ("one bit flipped", flipped),
        ("random", (0..<bytes).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
      ]
    }
  }

  /// The entries of a few cells of each version 2 section (payload offset, reference word,
  /// bit width, reserved byte) and the first bytes of their payloads: the fields behind
  /// the data checksums that only a version 2 cube has. None in a version 1 cube.
  static func sections(in base: [UInt8], metricCount: Int) -> [CubeField] {
    let raw = RawCube(base)
    guard raw.version == 2 else { return [] }
    var fields: [CubeField] = []
    for metric in 0..<metricCount {
      for cell in Set([0, 1, raw.cells / 2, raw.cells - 1]).sorted() {
        let at = raw.dataOffset(metric) + 8 * cell
        let label = "metric \(metric) cell \(cell)"
        fields += [
          CubeField(name: "\(label) payload offset", offset: at, kind: .integer(4)),
          CubeField(name: "\(label) reference", offset: at + 4, kind: .integer(2)),
          CubeField(name: "\(label) bit width", offset: at + 6, kind: .integer(1)),
          CubeField(name: "\(label) reserved", offset: at + 7, kind: .raw(1)),
        ]
        let entry = raw.cellEntry(metric, cell: cell)
        if entry.width > 0 {
          fields.append(
            CubeField(name: "\(label) payload", offset: raw.dataOffset(metric) + entry.offset, kind: .raw(1)))
        }
      }
      // The padding after the last payload.
      fields.append(
        CubeField(
          name: "metric \(metric) padding", offset: raw.dataOffset(metric) + raw.dataBytes(metric) - 8, kind: .raw(8)))
    }
    return fields
  }

  /// Version 3's fields: the record's, every band index entry's, and a few cells' entries
  /// and payload bytes of every sub-section. None before version 3.
  static func version3(in base: [UInt8], metricCount: Int) -> [CubeField] {
    let raw = RawCube(base)
    guard raw.version == 3 else { return [] }
    let record = raw.record
    var fields = [
      CubeField(name: "band cells", offset: record, kind: .integer(4)),
      CubeField(name: "band count", offset: record + 4, kind: .integer(4)),
      CubeField(name: "band index offset", offset: record + 8, kind: .integer(8)),
      CubeField(name: "band index bytes", offset: record + 16, kind: .integer(8)),
      CubeField(name: "checksum table offset", offset: record + 24, kind: .integer(8)),
      CubeField(name: "checksum table bytes", offset: record + 32, kind: .integer(8)),
      CubeField(name: "checksum table checksum", offset: record + 40, kind: .integer(8), sealing: .headerOnly),
      CubeField(name: "checksum block bytes", offset: record + 48, kind: .integer(4)),
      CubeField(name: "geometry flags", offset: record + 52, kind: .integer(4)),
      CubeField(name: "locator index offset", offset: record + 56, kind: .integer(8)),
      CubeField(name: "locator index bytes", offset: record + 64, kind: .integer(8)),
      CubeField(name: "record reserved 72", offset: record + 72, kind: .raw(8)),
      CubeField(name: "record reserved 120", offset: record + 120, kind: .raw(8)),
    ]
    let index = Int(base.le(record + 8, as: UInt64.self))
    for band in 0..<raw.bandCount {
      for metric in 0..<metricCount {
        let label = "band \(band) metric \(metric)"
        let entry = index + 16 * (band * metricCount + metric)
        fields += [
          CubeField(name: "\(label) sub-section offset", offset: entry, kind: .integer(8)),
          CubeField(name: "\(label) sub-section bytes", offset: entry + 8, kind: .integer(8)),
        ]
        let section = raw.subSection(metric, band: band)
        let cells = min(raw.bandCells, raw.cells - band * raw.bandCells)
        for cell in Set([0, cells / 2, cells - 1]).sorted() {
          let at = section.offset + 8 * cell
          fields += [
            CubeField(name: "\(label) cell \(cell) payload offset", offset: at, kind: .integer(4)),
            CubeField(name: "\(label) cell \(cell) reference", offset: at + 4, kind: .integer(2)),
            CubeField(name: "\(label) cell \(cell) bit width", offset: at + 6, kind: .integer(1)),
            CubeField(name: "\(label) cell \(cell) reserved", offset: at + 7, kind: .raw(1)),
          ]
        }
        fields.append(
          CubeField(name: "\(label) padding", offset: section.offset + section.bytes - 8, kind: .raw(8)))
      }
    }
    return fields
  }

  /// The positions section's fields, when the cube has one: the count, the reserved word,
  /// every step's position, and in each moved position a few coordinates, a terrain height
  /// and a mask byte.
  static func positions(in base: [UInt8]) -> [CubeField] {
    let raw = RawCube(base)
    guard raw.flags & 2 == 2 else { return [] }
    let start = raw.positionsOffset
    var fields = [
      CubeField(name: "position count", offset: start, kind: .integer(4)),
      CubeField(name: "positions reserved", offset: start + 4, kind: .raw(4)),
    ]
    for step in 0..<raw.stepCount {
      fields.append(CubeField(name: "step \(step) position", offset: start + 8 + 4 * step, kind: .integer(4)))
    }
    let terrain = raw.flags & 1 == 1
    let record = ((terrain ? 13 : 8) * raw.cells + 7) / 8 * 8
    for position in 1..<raw.positionCount {
      let at = start + 8 + (4 * raw.stepCount + 7) / 8 * 8 + (position - 1) * record
      let cells = raw.cells
      fields += [
        CubeField(name: "position \(position) latitude 0", offset: at, kind: .float32),
        CubeField(name: "position \(position) latitude last", offset: at + 4 * (cells - 1), kind: .float32),
        CubeField(name: "position \(position) longitude 1", offset: at + 4 * (cells + 1), kind: .float32),
      ]
      if terrain {
        fields += [
          CubeField(name: "position \(position) height 2", offset: at + 4 * (2 * cells + 2), kind: .float32),
          CubeField(name: "position \(position) mask 3", offset: at + 12 * cells + 3, kind: .integer(1)),
        ]
      }
    }
    return fields
  }

  /// The header's integer fields, whose values are tried in every other integer field.
  private static let integerFieldOffsets: [(offset: Int, mask: UInt64)] = [
    (12, 0xFFFF_FFFF), (16, .max), (24, 0xFFFF_FFFF), (28, 0xFFFF_FFFF), (32, 0xFFFF_FFFF), (36, 0xFFFF_FFFF),
    (40, .max), (48, .max), (56, .max), (144, .max), (152, .max), (256 + 64, .max), (256 + 72, .max),
  ]
}

/// A set of field values written into a cube, then sealed as the fields require.
struct CubeMutation: Sendable {
  let label: String
  let edits: [(offset: Int, bytes: [UInt8])]
  let sealing: CubeField.Sealing
  /// The file's new length (cut short, or zero bytes added), with the header's file size
  /// following it; nil to keep it.
  var length: Int?

  func applied(to base: [UInt8], reseal: (inout [UInt8], Bool) -> Void) -> [UInt8] {
    var bytes = base
    for edit in edits { bytes.set(edit.bytes, at: edit.offset) }
    if let length {
      bytes = Array(bytes.prefix(length)) + [UInt8](repeating: 0, count: max(length - bytes.count, 0))
      bytes.set(littleEndian(UInt64(length), count: 8), at: 16)
    }
    switch sealing {
    case .all: reseal(&bytes, true)
    case .headerOnly: reseal(&bytes, false)
    case .none: break
    }
    return bytes
  }

  /// Every field set to each of its values, one at a time; then `randomCount` mutations of
  /// two to four fields at once, drawn from `seed`.
  static func generate(base: [UInt8], metricCount: Int, randomCount: Int, seed: UInt64) -> [CubeMutation] {
    var random = TestRandom(seed: seed)
    let fields =
      CubeField.all(metricCount: metricCount) + CubeField.sections(in: base, metricCount: metricCount)
      + CubeField.positions(in: base) + CubeField.version3(in: base, metricCount: metricCount)
    let values = fields.map { $0.values(in: base, random: &random) }
    var mutations: [CubeMutation] = []
    for (field, choices) in zip(fields, values) {
      for choice in choices {
        mutations.append(
          CubeMutation(
            label: "\(field.name) = \(choice.label)", edits: [(field.offset, choice.bytes)], sealing: field.sealing))
      }
    }
    // Shapes with the same number of cells, which the layout cannot tell from the true one:
    // the reader accepts them and the locators get the coordinates in a scrambled order.
    let cells = Int(base.le(24, as: UInt32.self) * base.le(28, as: UInt32.self))
    for width in 1...cells where cells % width == 0 && width != Int(base.le(24, as: UInt32.self)) {
      mutations.append(
        CubeMutation(
          label: "reshape \(width)×\(cells / width)",
          edits: [(24, littleEndian(UInt64(width), count: 4)), (28, littleEndian(UInt64(cells / width), count: 4))],
          sealing: .all))
    }
    // A positions section cut short or lengthened: inside its count, its table, a position,
    // by one byte, and by a whole position (also with the count raised to match).
    let raw = RawCube(base)
    if raw.flags & 2 == 2 {
      let start = raw.positionsOffset
      let record = ((raw.flags & 1 == 1 ? 13 : 8) * raw.cells + 7) / 8 * 8
      let lengths = [
        start, start + 4, start + 8, start + 12, start + 8 + record / 2, base.count - 1, base.count + 1,
        base.count + 8, base.count + record,
      ]
      for length in lengths {
        mutations.append(
          CubeMutation(label: "length \(length) of \(base.count)", edits: [], sealing: .all, length: length))
      }
      mutations.append(
        CubeMutation(
          label: "length \(base.count + record), one more position",
          edits: [(start, littleEndian(UInt64(raw.positionCount + 1), count: 4))], sealing: .all,
          length: base.count + record))
    }
    let sealed = fields.indices.filter { fields[$0].sealing == .all }
    for _ in 0..<randomCount {
      let count = 2 + Int(random.next() % 3)
      var edits: [(offset: Int, bytes: [UInt8])] = []
      var labels: [String] = []
      for _ in 0..<count {
        let field = sealed[Int(random.next() % UInt64(sealed.count))]
        let choice = values[field][Int(random.next() % UInt64(values[field].count))]
        edits.append((fields[field].offset, choice.bytes))
        labels.append("\(fields[field].name) = \(choice.label)")
      }
      mutations.append(CubeMutation(label: labels.joined(separator: ", "), edits: edits, sealing: .all))
    }
    return mutations
  }
}
