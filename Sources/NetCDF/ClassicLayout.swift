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
/// Classic Format Specification"). A variable this layout does not describe as libnetcdf
/// read it (type and shape), or a slab that is not one run, is read by libnetcdf: this is
/// a faster path for files libnetcdf has accepted, never a second opinion on them. The
/// layout also says where a slab ends (`end(of:…)`), so that a read of values past the
/// file's end is refused whichever reads it.
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

  /// The longest name libnetcdf's interface hands back (`NC_MAX_NAME`): a longer one
  /// overflows the caller's buffer.
  static let maximumNameBytes = 256
  /// The most dimensions a variable may have (`NC_MAX_VAR_DIMS`).
  static let maximumRank = 1024

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

  /// The layout of the file open on `descriptor`: nil when it is not a classic-format file,
  /// a refusal when its header is malformed, before libnetcdf reads it (see `HeaderReader`).
  /// Offsets and sums past what an `Int` holds are `Int.max`, past any file's end.
  static func read(descriptor: Int32) throws(ClassicHeaderRefusal) -> ClassicLayout? {
    var header = HeaderReader(descriptor: descriptor)
    return try header.layout()
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
    let first = placement.isRecord ? 1 : 0
    guard !placement.isRecord || count.first == 1 else { return nil }
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
    guard let values = count.dropFirst(first).checkedProduct, let bytes = Self.product(values, size),
      let offset = offset(of: placement, shape: shape, index: start, size: size), Self.sum(offset, bytes) != nil
    else { return nil }
    return (offset, bytes)
  }

  /// The file offset just past the last value of `start`/`count` (a hyperslab of
  /// `placement`'s variable with shape `shape`, records included, already checked against
  /// it): the furthest byte any read of it touches. Nil when that passes what an `Int`
  /// holds, past any file's end; 0 for an empty slab, which touches none.
  func end(of placement: Placement, shape: [Int], start: [Int], count: [Int]) -> Int? {
    guard shape.count == start.count, shape.count == count.count, let size = Self.typeBytes(placement.type) else {
      return nil
    }
    guard count.allSatisfy({ $0 > 0 }) else { return 0 }
    let last = zip(start, count).map { $0 + $1 - 1 }
    return offset(of: placement, shape: shape, index: last, size: size).flatMap { Self.sum($0, size) }
  }

  /// The file offset of the value at `index` of `placement`'s variable (records included),
  /// whose values take `size` bytes each: its record's, then its place within the record in
  /// row-major order. Nil when the arithmetic passes what an `Int` holds.
  private func offset(of placement: Placement, shape: [Int], index: [Int], size: Int) -> Int? {
    let first = placement.isRecord ? 1 : 0
    var recordOffset = 0
    if placement.isRecord {
      guard let offset = Self.product(index[0], recordBytes) else { return nil }
      recordOffset = offset
    }
    var element = 0
    var stride = 1
    for dimension in (first..<shape.count).reversed() {
      guard let step = Self.product(index[dimension], stride), let sum = Self.sum(element, step) else { return nil }
      element = sum
      if dimension > first {
        guard let next = Self.product(stride, shape[dimension]) else { return nil }
        stride = next
      }
    }
    guard let elementBytes = Self.product(element, size) else { return nil }
    return Self.sum(placement.begin, recordOffset).flatMap { Self.sum($0, elementBytes) }
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

/// Why a classic header was refused: what is malformed, and at which byte.
struct ClassicHeaderRefusal: Error, Sendable, Equatable {
  let reason: String
}

/// A big-endian cursor over a classic header that checks it against the format as it goes.
///
/// libnetcdf 4.9's own parser trusts the header's counts and lengths: fuzzing found a name
/// longer than `NC_MAX_NAME` copied past the caller's buffer (`nc_inq_dim`), a name length
/// of 2^32 − 1 read as −1 (`memcpy` of a negative size), and lists, names and attributes of
/// a few gigabytes allocated for a file of a few kilobytes. So a header is checked first:
/// every name 1…256 bytes, every list, rank and attribute's values within the bytes the
/// file holds after it, every tag, type and dimension id one the format defines, at most
/// one record dimension and only as a variable's first. A header that fails is refused
/// naming the fault; libnetcdf never sees it.
private struct HeaderReader {
  let descriptor: Int32
  /// The file's bytes from `base`, read as far as the cursor has needed.
  private var bytes: [UInt8] = []
  private var base = 0
  private var position = 0
  private var fileBytes = 0
  /// CDF-1 has 32-bit offsets, CDF-2 64-bit offsets, CDF-5 64-bit counts and offsets too.
  private var version: UInt8 = 0

  init(descriptor: Int32) { self.descriptor = descriptor }

  private func refuse(_ reason: String) -> ClassicHeaderRefusal {
    ClassicHeaderRefusal(reason: "\(reason) (byte \(position) of the header)")
  }

  /// The bytes left in the file after the cursor.
  private var remaining: Int { max(0, fileBytes - position) }

  /// Makes `count` more bytes (a field or a name: at most a few hundred) available at
  /// `position`, reading the file further.
  private mutating func need(_ count: Int) throws(ClassicHeaderRefusal) {
    guard count <= remaining else { throw refuse("the file ends within its header") }
    if position > base + bytes.count {
      // The cursor skipped past what was read (an attribute's values): start afresh there.
      (base, bytes) = (position, [])
    }
    while base + bytes.count < position + count {
      let want = max(65_536, position + count - base - bytes.count)
      var chunk = [UInt8](repeating: 0, count: want)
      let offset = base + bytes.count
      let read = chunk.withUnsafeMutableBytes { (try? Posix.pread(descriptor, into: $0, at: offset)) ?? 0 }
      guard read > 0 else { throw refuse("the file ends within its header") }
      bytes += chunk.prefix(read)
    }
  }

  private mutating func u32() throws(ClassicHeaderRefusal) -> UInt32 {
    try need(4)
    defer { position += 4 }
    let at = position - base
    return bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  private mutating func u64() throws(ClassicHeaderRefusal) -> UInt64 {
    try need(8)
    defer { position += 8 }
    let at = position - base
    return bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// A count or length: 32 bits but in CDF-5, where it is 64.
  private mutating func count() throws(ClassicHeaderRefusal) -> UInt64 {
    version == 5 ? try u64() : UInt64(try u32())
  }

  /// The number of elements of a list whose every element takes at least `least` bytes:
  /// at most as many as the rest of the file holds.
  private mutating func elements(_ what: String, least: Int) throws(ClassicHeaderRefusal) -> Int {
    let value = try count()
    guard value <= UInt64(remaining / least) else {
      throw refuse("\(value) \(what) declared, more than the \(remaining) bytes after them hold")
    }
    return Int(value)
  }

  /// A file offset: 32 bits in CDF-1, 64 bits after. One past `Int` is `Int.max`: past
  /// any file's end, as the value it stands for is.
  private mutating func offset() throws(ClassicHeaderRefusal) -> Int {
    let value = version == 1 ? UInt64(try u32()) : try u64()
    return Int(clamping: value)
  }

  /// Moves the cursor past `count` bytes that must lie in the file, without reading them.
  private mutating func skip(_ count: Int, _ what: String) throws(ClassicHeaderRefusal) {
    guard count <= remaining else {
      throw refuse("\(what) takes \(count) bytes, more than the \(remaining) left in the file")
    }
    position += count
  }

  /// `count` rounded up to whole 4 bytes, as the format pads; `Int.max` past what an `Int`
  /// holds (a record's bytes may be anything up to 2^63 − 1).
  private static func padded(_ count: Int) -> Int { ClassicLayout.sum(count, 3).map { $0 / 4 * 4 } ?? Int.max }

  private mutating func name(_ what: String) throws(ClassicHeaderRefusal) -> String {
    let length = try count()
    guard length >= 1, length <= UInt64(ClassicLayout.maximumNameBytes) else {
      throw refuse("\(what)'s name is \(length) bytes long, not 1 to \(ClassicLayout.maximumNameBytes)")
    }
    let bytesLong = Self.padded(Int(length))
    try need(bytesLong)
    let at = position - base
    let text = String(decoding: bytes[at..<at + Int(length)], as: UTF8.self)
    position += bytesLong
    return text
  }

  /// The number of elements of a list with tag `tag`, 0 for an absent one.
  private mutating func list(tag: UInt32, _ what: String, least: Int) throws(ClassicHeaderRefusal) -> Int {
    let found = try u32()
    guard found == tag || found == 0 else {
      throw refuse("the \(what) list's tag is \(found), not \(tag) or 0")
    }
    let count = try elements(what, least: least)
    guard found == tag || count == 0 else { throw refuse("an absent \(what) list declares \(count) elements") }
    return count
  }

  /// An external type this format defines: 1…6, and 7…11 in CDF-5 too.
  private mutating func type(_ what: String) throws(ClassicHeaderRefusal) -> (type: Int32, bytes: Int) {
    let type = Int32(bitPattern: try u32())
    guard let size = ClassicLayout.typeBytes(type), version == 5 || type <= 6 else {
      throw refuse("\(what) has type \(type), which CDF-\(version) does not define")
    }
    return (type, size)
  }

  private mutating func skipAttributes(of owner: String) throws(ClassicHeaderRefusal) {
    for _ in 0..<(try list(tag: 0x0C, "attributes of \(owner)", least: 16)) {
      let attribute = "attribute \(try name("an attribute of \(owner)")) of \(owner)"
      let size = try type(attribute).bytes
      let values = try count()
      guard values <= UInt64(remaining / size) else {
        throw refuse("\(attribute) declares \(values) values, more than the \(remaining) bytes after it hold")
      }
      try skip(Self.padded(Int(values) * size), attribute)
    }
  }

  mutating func layout() throws(ClassicHeaderRefusal) -> ClassicLayout? {
    guard let status = try? Posix.fstat(descriptor), status.size >= 4 else { return nil }
    fileBytes = Int(status.size)
    try need(4)
    guard bytes[0] == 0x43, bytes[1] == 0x44, bytes[2] == 0x46 else { return nil }
    guard [1, 2, 5].contains(bytes[3]) else { throw refuse("CDF version \(bytes[3]) is not 1, 2 or 5") }
    version = bytes[3]
    position = 4
    // The record count: libnetcdf's is the one reads are checked against, but a CDF-5 count
    // past `Int` would reach every caller as a negative length.
    let records = try count()
    guard records <= UInt64(Int.max) else { throw refuse("the record count is \(records), 2^63 or more") }
    var lengths: [UInt64] = []
    var recordDimension: Int?
    for index in 0..<(try list(tag: 0x0A, "dimensions", least: 12)) {
      let dimension = try name("dimension \(index)")
      let length = try count()
      guard length <= UInt64(Int.max) else {
        throw refuse("dimension \(dimension)'s length is \(length), 2^63 or more")
      }
      if length == 0 {
        guard recordDimension == nil else { throw refuse("\(dimension) is a second record dimension") }
        recordDimension = index
      }
      lengths.append(length)
    }
    try skipAttributes(of: "the file")
    var placements: [String: ClassicLayout.Placement] = [:]
    var recordSizes: [Int] = []
    for index in 0..<(try list(tag: 0x0B, "variables", least: 24)) {
      let variable = try name("variable \(index)")
      let rank = try elements("dimensions of \(variable)", least: version == 5 ? 8 : 4)
      guard rank <= ClassicLayout.maximumRank else {
        throw refuse("\(variable) has \(rank) dimensions, more than \(ClassicLayout.maximumRank)")
      }
      var shape: [Int] = []
      var isRecord = false
      var ids: [Int] = []
      for place in 0..<rank {
        let id = try count()
        guard id < UInt64(lengths.count) else {
          throw refuse("\(variable)'s dimension \(place) is \(id), but the file has \(lengths.count)")
        }
        if Int(id) == recordDimension {
          guard place == 0 else { throw refuse("\(variable) has the record dimension other than first") }
          isRecord = true
        }
        ids.append(Int(id))
        shape.append(Int(lengths[Int(id)]))  // at most `Int.max`, checked above
      }
      try skipAttributes(of: variable)
      let (type, size) = try type(variable)
      // libnetcdf multiplies the lengths in 64 bits and divides by the product so far: a
      // product that wraps to 0 divided by zero (SIGFPE), so none may pass 2^63 − 1.
      var bytes = UInt64(size)
      for id in ids where id != recordDimension {
        let (product, overflow) = bytes.multipliedReportingOverflow(by: lengths[id])
        guard !overflow, product <= UInt64(Int64.max) else {
          throw refuse("\(variable)'s dimensions declare more than 2^63 bytes")
        }
        bytes = product
      }
      _ = try count()  // vsize: computed from the shape instead, which it cannot hold past 4 GiB
      let begin = try offset()
      if isRecord { recordSizes.append(Int(bytes)) }  // at most 2^63 − 1, checked above
      // libnetcdf finds one of two variables of a name, and which is its own affair: a
      // header that names two alike is not one a writer of the format makes.
      guard placements[variable] == nil else { throw refuse("two variables are named \(variable)") }
      placements[variable] = ClassicLayout.Placement(begin: begin, isRecord: isRecord, type: type, shape: shape)
    }
    // A lone record variable's records are not padded; several are, each to 4 bytes. A sum
    // past what an offset can hold saturates at `Int.max`, past any file's end.
    var recordBytes = recordSizes.count == 1 ? recordSizes[0] : 0
    if recordSizes.count > 1 {
      for size in recordSizes {
        recordBytes = ClassicLayout.sum(recordBytes, Self.padded(size)) ?? Int.max
      }
    }
    return ClassicLayout(placements: placements, recordBytes: recordBytes)
  }
}
