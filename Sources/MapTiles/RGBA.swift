/// An 8-bit sRGB colour with straight (not premultiplied) alpha, as PNG stores it.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public var alpha: UInt8

  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
    (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
  }

  /// `0xRRGGBB`, opaque, or with `alpha`.
  public init(hex: UInt32, alpha: UInt8 = 255) {
    self.init(
      UInt8(truncatingIfNeeded: hex >> 16), UInt8(truncatingIfNeeded: hex >> 8), UInt8(truncatingIfNeeded: hex), alpha)
  }

  /// Fully transparent: outside the domain, missing values, no rain.
  public static let transparent = RGBA(0, 0, 0, 0)

  /// The four bytes in memory order R, G, B, A whatever the machine's byte order, so that
  /// an array of them is the rows libpng writes.
  @inlinable public var packed: UInt32 {
    UInt32(littleEndian: UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24)
  }

  /// `#rrggbb`, as SVG and the documentation write colours.
  public var hex: String {
    "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  /// `#rrggbb` with the alpha as a fraction when not opaque.
  public var description: String { alpha == 255 ? hex : "\(hex) alpha \(alpha)" }
}
