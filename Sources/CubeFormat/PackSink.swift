/// Where a band's sub-section is packed: the cube's output itself, or a buffer of its own
/// (`SectionBytes`) when several metrics are packed at once and appended in order.
protocol PackSink {
  /// Lets `body` fill the next `count` bytes, which are zero when it starts.
  mutating func withSpace(_ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void)
  /// Appends `values` little-endian.
  mutating func append<T: FixedWidthInteger>(littleEndian values: [T])
}

extension CubeOutput: PackSink {}
