/// The bytes of one packed sub-section, held in memory until the output may take them:
/// a sub-section's bytes do not depend on where in the file it goes (its table's offsets
/// count from its own start), so it can be packed before the one before it is appended.
struct SectionBytes: PackSink {
  private(set) var bytes: [UInt8] = []

  /// Empties the buffer, keeping its memory for the next sub-section.
  mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  mutating func withSpace(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: count))
    bytes.withUnsafeMutableBytes { body(UnsafeMutableRawBufferPointer(rebasing: $0[start..<start + count])) }
  }

  mutating func append<T: FixedWidthInteger>(littleEndian values: [T]) {
    let size = MemoryLayout<T>.size
    withSpace(values.count * size) { space in
      for (index, value) in values.enumerated() {
        space.storeBytes(of: value.littleEndian, toByteOffset: index * size, as: T.self)
      }
    }
  }
}
