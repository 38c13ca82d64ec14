/// The size check ecCodes 2.28 leaves to OpenJPEG for JPEG 2000 packing (data
/// representation template 5.40, `grid_jpeg`): OpenJPEG allocates what the codestream's
/// image and tile size marker (SIZ) declares before it reads a pixel, and ecCodes compares
/// the decoded image with the values section 5 declares only afterwards. A 40 KB message
/// whose SIZ declares its 65,160 values as as many 1 × 1 tiles took 646 MB to decode; the
/// same bytes over 2 million values would take 20 GB.
///
/// The codestream (ISO/IEC 15444-1, annex A.5.1) begins with SOC (FF4F) and SIZ (FF51):
/// Lsiz, Rsiz, then Xsiz, Ysiz, XOsiz, YOsiz, XTsiz, YTsiz, XTOsiz, YTOsiz (32 bits each)
/// and Csiz, the number of components (16 bits).
enum GRIBJPEG2000 {
  /// The most tiles a codestream may have. Every encoder of GRIB2 seen writes one tile
  /// (ecCodes, and g2clib and wgrib2 through JasPer); OpenJPEG keeps about 10 KB for each,
  /// so this is some 40 MB at most.
  static let maximumTiles = 4096

  /// Why the field whose sections 5 and 7 are `representation` and `data` declares a
  /// JPEG 2000 image other than its values, or more tiles than `maximumTiles`; nil when it
  /// does not, when section 5 is not template 5.40, or when the field is constant (no bits
  /// per value, no codestream).
  static func problem(representation: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) -> String? {
    guard representation.count >= 20, GRIBSimplePacking.unsigned(representation, 10, 2) == 40 else { return nil }
    guard representation[19] != 0 else { return nil }
    let values = GRIBSimplePacking.unsigned(representation, 6, 4)
    // Section 7's 5-byte header, SOC, then SIZ up to Csiz: 5 + 2 + 2 + 2 + 2 + 32 + 2.
    guard data.count >= 47, data[5] == 0xFF, data[6] == 0x4F, data[7] == 0xFF, data[8] == 0x51 else {
      return "its data section does not begin with a JPEG 2000 codestream's SOC and SIZ markers"
    }
    func field(_ index: Int) -> Int { GRIBSimplePacking.unsigned(data, 14 + 4 * index, 4) }
    let (width, height, left, top) = (field(0), field(1), field(2), field(3))
    let (tileWidth, tileHeight, tileLeft, tileTop) = (field(4), field(5), field(6), field(7))
    let components = GRIBSimplePacking.unsigned(data, 46, 2)
    guard components == 1 else { return "its JPEG 2000 image has \(components) components, not 1" }
    let (columnsOfPixels, rowsOfPixels) = (max(0, width - left), max(0, height - top))
    let (pixels, overflow) = columnsOfPixels.multipliedReportingOverflow(by: rowsOfPixels)
    guard !overflow, pixels == values, values > 0 else {
      return
        "its JPEG 2000 image is \(columnsOfPixels) × \(rowsOfPixels) pixels, not the \(values) values section 5 declares"
    }
    // The tiles cover the image from (tileLeft, tileTop), which may not lie past its origin.
    guard tileWidth > 0, tileHeight > 0, tileLeft <= left, tileTop <= top else {
      return "its JPEG 2000 tiles of \(tileWidth) × \(tileHeight) from (\(tileLeft), \(tileTop)) do not cover the image"
    }
    let columns = (width - tileLeft + tileWidth - 1) / tileWidth
    let rows = (height - tileTop + tileHeight - 1) / tileHeight
    guard columns <= maximumTiles, rows <= maximumTiles, columns * rows <= maximumTiles else {
      return
        "its JPEG 2000 image is cut into \(columns) × \(rows) tiles, more than the \(maximumTiles) a field may have"
    }
    return nil
  }
}
