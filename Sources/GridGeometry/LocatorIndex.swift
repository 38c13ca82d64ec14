/// What ingest found out about a grid's locator, stored in the cube (its locator index
/// section, docs/cube-format.md *Locator index*) so that a reader builds the locator
/// without looking at every cell: the grid is a latitude/longitude lattice (evenly spaced
/// columns, rows evenly spaced or only monotonic as on a Gaussian grid), or its
/// projection locates every cell and needs comparisons on the sphere only within `margin`
/// of a boundary between cells.
///
/// The encoding is 64 bytes, little-endian: the magic `NWPLOCIX`, u32 encoding version 1,
/// u32 kind (1 lattice, 2 analytic), u64 width, u64 height, f64 margin (0 for a lattice),
/// 24 reserved zero bytes. Decoding checks each field against the cube's header and the
/// limits a build can produce, in constant time, and reads nothing beyond the bytes given.
public struct LocatorIndex: Sendable, Equatable {
  /// The locator the index describes.
  public enum Kind: UInt32, Sendable {
    /// A latitude/longitude lattice, evenly spaced or Gaussian:
    /// `RegularLatLonLocator(trustingAxesOf:)`.
    case lattice = 1
    /// The header's map projection: `AnalyticLocator(trusting:grid:margin:)`.
    case analytic = 2
  }

  /// Which locator.
  public let kind: Kind
  /// The grid's shape, which must be the cube's.
  public let width: Int
  public let height: Int
  /// The analytic locator's margin, in cells; 0 for a lattice.
  public let margin: Double

  /// The bytes of an encoded index.
  public static let encodedBytes = 64
  /// The encoding's version.
  public static let encodingVersion: UInt32 = 1
  static let magic = Array("NWPLOCIX".utf8)

  /// The index of a locator that was checked against every cell, or nil when it is the
  /// generic curvilinear locator, which has no index yet (a reader builds it from the
  /// cells).
  public init?(_ locator: GridLocator) {
    switch locator.kind {
    case .regular: (kind, margin) = (.lattice, 0)
    case .analytic:
      guard let analytic = locator.analytic else { return nil }
      (kind, margin) = (.analytic, analytic.margin)
    case .curvilinear: return nil
    }
    (width, height) = (locator.grid.width, locator.grid.height)
  }

  /// The locator index section of a cube over `grid` with the header's `projection` (nil
  /// when it has none or it does not build): the grid's locator built and checked against
  /// every cell, as a reader of a cube without an index builds it, then encoded. nil when
  /// the grid gets the generic locator, or no locator at all. Ingest calls this once per
  /// grid (a moving grid's positions are located as before, without an index).
  public static func encode(grid: CurvilinearGrid, projection: MapProjection?) -> [UInt8]? {
    guard let locator = try? GridLocator(grid: grid, projection: projection) else { return nil }
    return LocatorIndex(locator)?.encoded
  }

  /// The 64 bytes of the index.
  public var encoded: [UInt8] {
    var bytes = Self.magic
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    append(Self.encodingVersion)
    append(kind.rawValue)
    append(UInt64(width))
    append(UInt64(height))
    append(margin.bitPattern)
    bytes.append(contentsOf: [UInt8](repeating: 0, count: Self.encodedBytes - bytes.count))
    return bytes
  }

  /// Decodes an index section of a cube whose grid is `width` × `height`; throws
  /// `invalidGrid` naming the field that is wrong and why.
  public init(decoding bytes: UnsafeRawBufferPointer, width: Int, height: Int) throws(GeometryError) {
    func fail(_ reason: String) -> GeometryError { .invalidGrid("locator index: \(reason)") }
    guard bytes.count == Self.encodedBytes else {
      throw fail("\(bytes.count) bytes, expected \(Self.encodedBytes)")
    }
    func load<T: FixedWidthInteger>(_ offset: Int, as type: T.Type) -> T {
      T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
    guard bytes.prefix(Self.magic.count).elementsEqual(Self.magic) else { throw fail("no NWPLOCIX magic") }
    let version = load(8, as: UInt32.self)
    guard version == Self.encodingVersion else {
      throw fail("encoding version \(version), this build reads \(Self.encodingVersion)")
    }
    let code = load(12, as: UInt32.self)
    guard let kind = Kind(rawValue: code) else { throw fail("kind \(code) is not 1 (lattice) or 2 (analytic)") }
    let (storedWidth, storedHeight) = (load(16, as: UInt64.self), load(24, as: UInt64.self))
    guard storedWidth == UInt64(width), storedHeight == UInt64(height) else {
      throw fail("made for a \(storedWidth)×\(storedHeight) grid, the cube's is \(width)×\(height)")
    }
    let margin = Double(bitPattern: load(32, as: UInt64.self))
    switch kind {
    case .lattice:
      guard margin == 0 else { throw fail("a lattice's margin is \(margin), expected 0") }
    case .analytic:
      guard margin.isFinite, margin > 0, margin < AnalyticLocator.largestMargin else {
        throw fail("margin \(margin) is not a number of cells in 0…\(AnalyticLocator.largestMargin)")
      }
    }
    (self.kind, self.width, self.height, self.margin) = (kind, width, height, margin)
  }
}
