/// Version 3's additions to the layout (docs/cube-format.md, *Version 3*): the data region
/// is band-major (every metric's sub-section of band 0, then of band 1, …) so that a writer
/// holding one band of cells in memory writes each byte of the cube once, in order; and a
/// table of checksums per 64 KiB block lets a reader verify what it reads, when it first
/// reads it, instead of every byte at open.
extension CubeLayout {
  /// The version that writers write from now on.
  static let bandVersion: UInt32 = 3

  /// The record after the metric table, its fields relative to its start.
  enum Version3 {
    /// The record's size.
    static let recordBytes = 128
    /// u32 cells per band, a power of two.
    static let bandCellsOffset = 0
    /// u32 number of bands.
    static let bandCountOffset = 4
    /// u64 offset and u64 bytes of the band index.
    static let bandIndexOffsetOffset = 8
    static let bandIndexBytesOffset = 16
    /// u64 offset and u64 bytes of the checksum table, and its own XXH64.
    static let checksumTableOffsetOffset = 24
    static let checksumTableBytesOffset = 32
    static let checksumTableChecksumOffset = 40
    /// u32 bytes per checksum block.
    static let checksumBlockBytesOffset = 48
    /// u32 geometry flags.
    static let geometryFlagsOffset = 52
    /// u64 offset and u64 bytes of the locator index section (0 and 0 without one).
    static let locatorIndexOffsetOffset = 56
    static let locatorIndexBytesOffset = 64
    /// u32 input convention (`CubeHeader.inputConvention`): 0 in cubes written before it.
    static let inputConventionOffset = 72
    /// The first reserved byte: the rest of the record is 0.
    static let reservedOffset = 76

    /// Geometry flag: the header's projection locates every cell of every position within
    /// 0.1 cell, as checked at ingest, so a reader need not check the cells again.
    static let projectionCheckedFlag: UInt32 = 1
    /// Geometry flag: the cube holds a locator index section.
    static let locatorIndexFlag: UInt32 = 2
    /// Every geometry flag this build knows.
    static let knownGeometryFlags: UInt32 = projectionCheckedFlag | locatorIndexFlag

    /// The bytes each checksum covers (the last block of the file may be shorter).
    static let checksumBlockBytes = 65_536
    /// Bytes per band index entry: u64 offset and u64 bytes of one sub-section.
    static let bandIndexEntryBytes = 16
    /// The most bands a cube may have.
    static let maxBands = 65_536
  }
}
