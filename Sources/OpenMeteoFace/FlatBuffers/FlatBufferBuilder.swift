/// A small FlatBuffers encoder: tables of scalars and offsets, vectors of numbers and of
/// tables, strings, and a size-prefixed finish. Only what a schema of a few tables needs;
/// no reading, no structs, no unions.
///
/// The bytes are the ones the reference builders write, not just a valid encoding: the
/// buffer grows from the end towards the start, each scalar is aligned to its size, a
/// field equal to its default is left out, and a table whose vtable matches one already
/// written points at that one. So a message can be checked byte for byte against the same
/// calls made to the Python `flatbuffers` package, and a reader of any language decodes
/// it. Offsets count bytes from the end of the buffer, as in the format's own builders.
///
/// Not `Sendable`-shared: one builder per message being written.
public struct FlatBufferBuilder {
  /// A table, vector or string already written: its distance from the end of the buffer.
  public struct Offset: Hashable, Sendable {
    let value: Int
  }

  /// The bytes; the message is `storage[head...]`.
  private var storage: [UInt8]
  private var head: Int
  /// The largest alignment asked for, which the finished message is padded to.
  private var minimumAlignment = 1
  /// The current table's fields: each slot's offset, 0 when absent. Nil outside a table.
  private var fields: [Int]?
  /// Where the current table's data began.
  private var tableEnd = 0
  /// Written vtables by their field offsets (without trailing absent slots): a table laid
  /// out like an earlier one shares its vtable.
  private var vtables: [[Int]: Int] = [:]

  /// A builder with room for `capacity` bytes before it grows.
  public init(capacity: Int = 1_024) {
    storage = Array(repeating: 0, count: max(capacity, 16))
    head = storage.count
  }

  /// Bytes written so far, which is also the offset of the last thing written.
  var size: Int { storage.count - head }

  /// Forgets everything written, keeping the memory for the next message.
  public mutating func clear() {
    head = storage.count
    minimumAlignment = 1
    fields = nil
    tableEnd = 0
    vtables.removeAll(keepingCapacity: true)
  }

  // MARK: Scalars

  /// Pads so that after `additional` more bytes the next `alignment`-byte value is aligned,
  /// growing the buffer when it lacks room for padding, value and `additional`.
  private mutating func prepare(_ alignment: Int, additional: Int) {
    minimumAlignment = max(minimumAlignment, alignment)
    let padding = (~(size + additional) &+ 1) & (alignment - 1)
    let needed = padding + alignment + additional
    if head < needed { grow(to: needed - head) }
    for _ in 0..<padding {
      head -= 1
      storage[head] = 0
    }
  }

  /// Doubles the buffer (or more, for `extra` bytes), keeping what is written at its end.
  private mutating func grow(to extra: Int) {
    var newCount = max(storage.count * 2, 16)
    while newCount - storage.count < extra { newCount *= 2 }
    var grown = [UInt8](repeating: 0, count: newCount - storage.count)
    grown.append(contentsOf: storage)
    head += newCount - storage.count
    storage = grown
  }

  /// Writes `value` little-endian at the head, which the caller has aligned.
  private mutating func place<T: FixedWidthInteger>(_ value: T) {
    head -= MemoryLayout<T>.size
    let index = head
    storage.withUnsafeMutableBytes { bytes in
      bytes.storeBytes(of: value.littleEndian, toByteOffset: index, as: T.self)
    }
  }

  private mutating func prepend<T: FixedWidthInteger>(_ value: T) {
    prepare(MemoryLayout<T>.size, additional: 0)
    place(value)
  }

  /// Writes a reference to `offset`, relative to where it is written.
  private mutating func prepend(_ offset: Offset) {
    prepare(4, additional: 0)
    place(UInt32(size - offset.value + 4))
  }

  // MARK: Tables

  /// Begins a table of a type with `fieldCount` fields; no vector or string may be written
  /// until `endTable`.
  public mutating func startTable(fieldCount: Int) {
    fields = Array(repeating: 0, count: fieldCount)
    tableEnd = size
  }

  /// Adds a scalar field, left out when it equals the schema's `default`.
  public mutating func add<T: FixedWidthInteger>(_ value: T, slot: Int, default: T = 0) {
    guard value != `default` else { return }
    prepend(value)
    mark(slot)
  }

  /// Adds a 32-bit float field, left out when it equals the schema's `default` (NaN is
  /// never equal, so it is always written).
  public mutating func add(_ value: Float, slot: Int, default: Float = 0) {
    guard value != `default` else { return }
    prepend(value.bitPattern)
    mark(slot)
  }

  /// Adds a reference to a table, vector or string written before the table began; nil
  /// leaves the field out.
  public mutating func add(_ offset: Offset?, slot: Int) {
    guard let offset else { return }
    prepend(offset)
    mark(slot)
  }

  /// Records that `slot`'s field is the value just written.
  private mutating func mark(_ slot: Int) {
    let offset = size
    fields?[slot] = offset
  }

  /// Ends the current table, writing its vtable or pointing it at an equal one.
  public mutating func endTable() -> Offset {
    let slots = fields ?? []
    fields = nil
    // The table's first word: where its vtable is, filled in below.
    prepend(Int32(0))
    let table = size
    // Absent fields after the last present one take no room in the vtable.
    var present = slots.count
    while present > 0, slots[present - 1] == 0 { present -= 1 }
    let key = slots.prefix(present).map { $0 == 0 ? 0 : table - $0 }
    if let shared = vtables[key] {
      patch(Int32(shared - table), at: table)
      return Offset(value: table)
    }
    for field in key.reversed() { prepend(UInt16(field)) }
    prepend(UInt16(table - tableEnd))
    prepend(UInt16((key.count + 2) * 2))
    // The table's first word is the distance back to its vtable, which lies before it.
    patch(Int32(size - table), at: table)
    vtables[key] = size
    return Offset(value: table)
  }

  /// Overwrites the 32-bit word of the thing at `offset`.
  private mutating func patch(_ value: Int32, at offset: Int) {
    let index = storage.count - offset
    storage.withUnsafeMutableBytes { bytes in
      bytes.storeBytes(of: value.littleEndian, toByteOffset: index, as: Int32.self)
    }
  }

  // MARK: Vectors and strings

  /// Makes room for a vector of `count` elements of `elementSize` bytes.
  private mutating func startVector(elementSize: Int, count: Int) {
    prepare(4, additional: elementSize * count)
    prepare(elementSize, additional: elementSize * count)
  }

  /// Writes the element count that ends a vector.
  private mutating func endVector(count: Int) -> Offset {
    place(UInt32(count))
    return Offset(value: size)
  }

  /// A vector of 32-bit floats.
  public mutating func vector(_ values: [Float]) -> Offset {
    numbers(count: values.count) { values[$0].bitPattern }
  }

  /// A vector of 64-bit integers.
  public mutating func vector(_ values: [Int64]) -> Offset {
    numbers(count: values.count) { values[$0] }
  }

  /// A vector of `count` numbers, `element(i)` the i-th, written in one pass (they are the
  /// bulk of a message).
  private mutating func numbers<T: FixedWidthInteger>(count: Int, _ element: (Int) -> T) -> Offset {
    let size = MemoryLayout<T>.size
    startVector(elementSize: size, count: count)
    head -= size * count
    let start = head
    storage.withUnsafeMutableBytes { bytes in
      for index in 0..<count {
        bytes.storeBytes(of: element(index).littleEndian, toByteOffset: start + index * size, as: T.self)
      }
    }
    return endVector(count: count)
  }

  /// A vector of references to tables.
  public mutating func vector(_ offsets: [Offset]) -> Offset {
    startVector(elementSize: 4, count: offsets.count)
    for offset in offsets.reversed() { prepend(offset) }
    return endVector(count: offsets.count)
  }

  /// A UTF-8 string, zero-terminated as the format requires.
  public mutating func string(_ text: String) -> Offset {
    let bytes = Array(text.utf8)
    prepare(4, additional: bytes.count + 1)
    place(UInt8(0))
    head -= bytes.count
    storage.replaceSubrange(head..<head + bytes.count, with: bytes)
    return endVector(count: bytes.count)
  }

  // MARK: Finishing

  /// Finishes the message with `root` as its root table, preceded by its length (a
  /// little-endian UInt32, as a stream of messages needs), and returns its bytes.
  public mutating func finishSizePrefixed(root: Offset) -> ArraySlice<UInt8> {
    prepare(minimumAlignment, additional: 8)
    prepend(root)
    prepend(UInt32(size))
    return storage[head...]
  }
}
