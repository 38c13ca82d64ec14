import Platform

/// Where a classic-format file (CDF-1, 64-bit offset CDF-2, or CDF-5) keeps each variable's
/// values, read from its header: enough to read a contiguous run of a float variable with
/// `pread` alone.
///
/// Ingest reads every float field of every step through libnetcdf, which holds one lock for
/// the whole process (`NCLibrary`) while it reads into a buffer of its own and converts
/// that into the caller's: on a global 0.25° CF run that was an eighth of the CPU, and the
/// threads deriving steps queued for the lock. A classic file's layout is a few numbers per
/// variable, so such a run is read here instead, by any thread at once, with one copy.
///
/// The header is parsed by the format's definition (NetCDF User Guide, "The NetCDF
/// Classic Format Specification"); anything this parser does not follow, or a header that
/// does not describe the same variables, types and shapes as libnetcdf read from the file,
/// leaves the file to libnetcdf (`NCFile.classicLayout` is then nil): this is a faster
/// path for files libnetcdf has accepted, never a second opinion on them.
struct ClassicLayout: Sendable, Equatable {
  /// One variable's place in the file.
  struct Placement: Sendable, Equatable {
    /// The file offset of the variable's first value (of its first record's values).
    let begin: Int
    /// Whether its first dimension is the record (unlimited) dimension.
    let isRecord: Bool
    /// The external type (an `nc_type`).
    let type: Int32
    /// The lengths of its dimensions, the record dimension as 0.
    let shape: [Int]
  }

  /// The variables by name.
  let placements: [String: Placement]
  /// The bytes between one record of a record variable and the next: every record
  /// variable's record, each padded to 4 bytes unless it is the only one.
  let recordBytes: Int

  /// The largest header read: a file declaring more is left to libnetcdf.
  static let maximumHeaderBytes = 16 << 20

  /// `nc_type` codes and their external sizes.
  static func typeBytes(_ type: Int32) -> Int? {
    switch type {
    case 1, 2, 7: 1  // byte, char, ubyte
    case 3, 8: 2  // short, ushort
    case 4, 5, 9: 4  // int, float, uint
    case 6, 10, 11: 8  // double, int64, uint64
    default: nil
    }
  }

  /// The layout of the file open on `descriptor`, nil when it is not a classic-format file
  /// or its header is not one this parser follows to the end.
  static func read(descriptor: Int32) -> ClassicLayout? {
    var header = HeaderReader(descriptor: descriptor)
    return try? header.layout()
  }

  /// The file offset and byte count of the values of `start`/`count` (a hyperslab of
  /// `placement`'s variable with shape `shape`, records included, already checked against
  /// it), when they lie in one contiguous run of the file: every dimension before some
  /// dimension p takes one index, every one after p its whole length, and a record
  /// variable takes one record. Nil otherwise.
  func contiguousRun(of placement: Placement, shape: [Int], start: [Int], count: [Int]) -> (offset: Int, bytes: Int)? {
    guard shape.count == start.count, shape.count == count.count, let size = Self.typeBytes(placement.type) else {
      return nil
    }
    var first = 0
    var recordOffset = 0
    if placement.isRecord {
      guard count.first == 1, let record = start.first, let offset = Self.product(record, recordBytes) else {
        return nil
      }
      recordOffset = offset
      first = 1
    }
    // Every dimension after the first that is not taken whole must follow only
    // dimensions taken one index at a time.
    var p = first
    for dimension in (first..<shape.count).reversed() where count[dimension] != shape[dimension] {
      p = dimension
      break
    }
    for dimension in first..<p where count[dimension] != 1 { return nil }
    // A damaged header may declare lengths and offsets whose arithmetic overflows: such a
    // read is left to libnetcdf.
    var element = 0
    var stride = 1
    for dimension in (first..<shape.count).reversed() {
      guard let step = Self.product(start[dimension], stride), let sum = Self.sum(element, step) else { return nil }
      element = sum
      if dimension > first {
        guard let next = Self.product(stride, shape[dimension]) else { return nil }
        stride = next
      }
    }
    guard let values = count.dropFirst(first).checkedProduct, let bytes = Self.product(values, size),
      let elementBytes = Self.product(element, size),
      let offset = Self.sum(placement.begin, recordOffset).flatMap({ Self.sum($0, elementBytes) }),
      Self.sum(offset, bytes) != nil
    else { return nil }
    return (offset, bytes)
  }

  /// `a × b`, nil when it overflows.
  static func product(_ a: Int, _ b: Int) -> Int? {
    let (value, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? nil : value
  }

  /// `a + b`, nil when it overflows.
  static func sum(_ a: Int, _ b: Int) -> Int? {
    let (value, overflow) = a.addingReportingOverflow(b)
    return overflow ? nil : value
  }

  /// Whether this layout describes `variable` as libnetcdf read it: the same type and, but
  /// for the record dimension's current length, the same shape.
  func describes(_ variable: NCVariable) -> Placement? {
    guard let placement = placements[variable.name], placement.type == variable.type.rawValue,
      placement.shape.count == variable.shape.count
    else { return nil }
    for (index, length) in placement.shape.enumerated() where !(index == 0 && placement.isRecord) {
      guard length == variable.shape[index] else { return nil }
    }
    return placement
  }
}

/// A big-endian cursor over a classic header, read from the file as far as it goes.
private struct HeaderReader {
  struct Unfollowed: Error {}

  let descriptor: Int32
  private var bytes: [UInt8] = []
  private var position = 0
  /// CDF-1 has 32-bit offsets, CDF-2 64-bit offsets, CDF-5 64-bit counts and offsets too.
  private var version: UInt8 = 0

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// Makes `count` more bytes available at `position`, reading the file further.
  private mutating func need(_ count: Int) throws(Unfollowed) {
    guard count >= 0, position + count <= ClassicLayout.maximumHeaderBytes else { throw Unfollowed() }
    while bytes.count < position + count {
      let want = max(65_536, position + count - bytes.count)
      var chunk = [UInt8](repeating: 0, count: want)
      let offset = bytes.count
      let read = chunk.withUnsafeMutableBytes { (try? Posix.pread(descriptor, into: $0, at: offset)) ?? 0 }
      guard read > 0 else { throw Unfollowed() }
      bytes += chunk.prefix(read)
    }
  }

  private mutating func u32() throws(Unfollowed) -> UInt32 {
    try need(4)
    defer { position += 4 }
    return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  private mutating func u64() throws(Unfollowed) -> UInt64 {
    try need(8)
    defer { position += 8 }
    return bytes[position..<position + 8].reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// A count or length: 32 bits but in CDF-5; nil beyond what an `Int` offset can reach.
  private mutating func nonNegative() throws(Unfollowed) -> Int {
    let value = version == 5 ? try u64() : UInt64(try u32())
    guard value <= UInt64(Int32.max) * 1024 else { throw Unfollowed() }
    return Int(value)
  }

  /// A file offset: 32 bits in CDF-1, 64 bits after.
  private mutating func offset() throws(Unfollowed) -> Int {
    let value = version == 1 ? UInt64(try u32()) : try u64()
    guard value <= UInt64(Int.max / 2) else { throw Unfollowed() }
    return Int(value)
  }

  private mutating func skip(_ count: Int) throws(Unfollowed) {
    try need(count)
    position += count
  }

  private static func padded(_ count: Int) -> Int { (count + 3) / 4 * 4 }

  private mutating func name() throws(Unfollowed) -> String {
    let length = try nonNegative()
    try need(Self.padded(length))
    let text = String(decoding: bytes[position..<position + length], as: UTF8.self)
    position += Self.padded(length)
    return text
  }

  /// The number of elements of a list with tag `tag`, 0 for an absent one.
  private mutating func list(tag: UInt32) throws(Unfollowed) -> Int {
    let found = try u32()
    let count = try nonNegative()
    guard found == tag || (found == 0 && count == 0) else { throw Unfollowed() }
    return count
  }

  private mutating func skipAttributes() throws(Unfollowed) {
    for _ in 0..<(try list(tag: 0x0C)) {
      _ = try name()
      guard let size = ClassicLayout.typeBytes(Int32(bitPattern: try u32())) else { throw Unfollowed() }
      let count = try nonNegative()
      try skip(Self.padded(count * size))
    }
  }

  mutating func layout() throws(Unfollowed) -> ClassicLayout {
    try need(4)
    guard bytes[0] == 0x43, bytes[1] == 0x44, bytes[2] == 0x46, [1, 2, 5].contains(bytes[3]) else {
      throw Unfollowed()
    }
    version = bytes[3]
    position = 4
    _ = try nonNegative()  // the record count: libnetcdf's is the one reads are checked against
    var dimensions: [Int] = []
    for _ in 0..<(try list(tag: 0x0A)) {
      _ = try name()
      dimensions.append(try nonNegative())
    }
    try skipAttributes()
    var placements: [String: ClassicLayout.Placement] = [:]
    var recordSizes: [Int] = []
    for _ in 0..<(try list(tag: 0x0B)) {
      let variable = try name()
      var shape: [Int] = []
      for _ in 0..<(try nonNegative()) {
        let id = try nonNegative()
        guard dimensions.indices.contains(id) else { throw Unfollowed() }
        shape.append(dimensions[id])
      }
      try skipAttributes()
      let type = Int32(bitPattern: try u32())
      guard let size = ClassicLayout.typeBytes(type) else { throw Unfollowed() }
      _ = try nonNegative()  // vsize: computed from the shape instead, which it cannot hold past 4 GiB
      let begin = try offset()
      // Only the first dimension may be the record dimension (length 0 in the header).
      guard shape.dropFirst().allSatisfy({ $0 > 0 }) else { throw Unfollowed() }
      let isRecord = shape.first == 0
      if isRecord {
        guard let values = shape.dropFirst().checkedProduct, values <= Int.max / 16 else { throw Unfollowed() }
        recordSizes.append(values * size)
      }
      guard placements[variable] == nil else { throw Unfollowed() }
      placements[variable] = ClassicLayout.Placement(begin: begin, isRecord: isRecord, type: type, shape: shape)
    }
    // A lone record variable's records are not padded; several are, each to 4 bytes. A sum
    // past what an offset can hold is a header this parser does not follow.
    var recordBytes = recordSizes.count == 1 ? recordSizes[0] : 0
    if recordSizes.count > 1 {
      for size in recordSizes {
        guard let sum = ClassicLayout.sum(recordBytes, Self.padded(size)) else { throw Unfollowed() }
        recordBytes = sum
      }
    }
    return ClassicLayout(placements: placements, recordBytes: recordBytes)
  }
}
