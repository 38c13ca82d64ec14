/// One tile of the XYZ Web Mercator scheme that Leaflet, OpenLayers and MKTileOverlay read:
/// zoom `z`, column `x` from the antimeridian eastwards and row `y` from the north.
public struct TileAddress: Sendable, Hashable, CustomStringConvertible {
  /// The zooms served: 0 (the world in one tile) to 18 (about 0.6 m per pixel at the
  /// equator, far finer than any model grid).
  public static let zooms = 0...18

  public let z: Int
  public let x: Int
  public let y: Int

  /// The tile at `z`/`x`/`y`; `TileError.badAddress` naming the part out of range.
  public init(z: Int, x: Int, y: Int) throws(TileError) {
    guard Self.zooms.contains(z) else {
      throw .badAddress("z", "\(z) is not a zoom level; zooms are \(Self.zooms.lowerBound)…\(Self.zooms.upperBound)")
    }
    let count = 1 << z
    guard (0..<count).contains(x) else {
      throw .badAddress("x", "\(x) is not a column at zoom \(z); columns are 0…\(count - 1)")
    }
    guard (0..<count).contains(y) else {
      throw .badAddress("y", "\(y) is not a row at zoom \(z); rows are 0…\(count - 1)")
    }
    (self.z, self.x, self.y) = (z, x, y)
  }

  /// Parses the three path segments of `{z}/{x}/{y}`: decimal digits only (no sign, no
  /// spaces), at most 6 digits, so that no value can overflow before the range check.
  public init(z: Substring, x: Substring, y: Substring) throws(TileError) {
    func number(_ name: String, _ text: Substring) throws(TileError) -> Int {
      guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text)
      else {
        throw .badAddress(
          name, "\"\(text.prefix(40))\" is not a tile \(name == "z" ? "zoom" : "index"); give a whole number")
      }
      return value
    }
    try self.init(z: try number("z", z), x: try number("x", x), y: try number("y", y))
  }

  /// `z/x/y`.
  public var description: String { "\(z)/\(x)/\(y)" }
}
