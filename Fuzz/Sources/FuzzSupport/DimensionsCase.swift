import _TestSupport

/// The ingest_dimensions target's input: the dimensions a `DeclaredGrid` file declares,
/// each up to 2^31 − 1. Ingest must refuse what it cannot afford from these numbers alone,
/// before it allocates for them.
///
/// Layout: west_east, south_north, bottom_top (4 bytes each, little-endian, taken modulo
/// 2^31), the number of Time records (1 byte, 1–4), then a flags byte: bit 0 gives
/// XLAT/XLONG a Time dimension, bit 1 adds the 3-D fields that read every level.
enum DimensionsCase {
  static func grid(_ bytes: [UInt8]) -> DeclaredGrid {
    var input = FuzzBytes(bytes)
    func length() -> Int { Int(input.unsigned(4) & 0x7FFF_FFFF) }
    let (westEast, southNorth, levels) = (length(), length(), length())
    let steps = 1 + Int(input.byte() % 4)
    let flags = input.byte()
    return DeclaredGrid(
      westEast: westEast, southNorth: southNorth, levels: levels, steps: steps, coordinatesHaveTime: flags & 1 != 0,
      volumes: flags & 2 != 0)
  }
}
