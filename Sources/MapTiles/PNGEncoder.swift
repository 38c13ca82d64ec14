import CPNGWriter

/// PNG encoding of RGBA pixels through Debian's libpng (the C writer in CPNGWriter, which
/// catches libpng's errors).
public enum PNGEncoder {
  /// zlib's level: 1 is its fastest. Level 6 halves a tile's 3 KB but takes 2.5 times as
  /// long, a millisecond more per tile; tiles are cached by clients (docs/pictures.md).
  public static let level: Int32 = 1
  /// Each row as the difference from the row above (PNG's Up filter): rows of a tile repeat
  /// within a model cell, so most filtered rows are zeros. libpng's adaptive choice tries all
  /// five filters per row and costs more than it saves here.
  public static let filter: Int32 = 0x20
  /// libpng's choice of filter per row (all five tried), for comparison.
  public static let adaptiveFilter: Int32 = 0

  /// The PNG of `height` rows of `width` pixels, each `RGBA.packed`, at zlib `level` (0…9)
  /// with `filter` (a PNG_FILTER_* mask, or `adaptiveFilter`).
  public static func encode(
    _ pixels: [UInt32], width: Int, height: Int, level: Int32 = level, filter: Int32 = filter
  ) throws(TileError) -> [UInt8] {
    guard width > 0, height > 0, pixels.count == width * height, let w = UInt32(exactly: width),
      let h = UInt32(exactly: height)
    else { throw .encoding("\(pixels.count) pixels do not make \(width)×\(height)") }
    var output: UnsafeMutablePointer<UInt8>?
    var size = 0
    let messageSize = 256
    var message = [CChar](repeating: 0, count: messageSize)
    let status = pixels.withUnsafeBytes { raw in
      nwp_png_encode_rgba(
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self), w, h, level, filter, &output, &size, &message,
        messageSize)
    }
    guard status == Int32(NWP_PNG_OK.rawValue), let output else {
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw .encoding(text.isEmpty ? "status \(status)" : text)
    }
    defer { nwp_png_free(output) }
    return Array(UnsafeBufferPointer(start: output, count: size))
  }
}
