/// The base layer's colours: muted, so that a metric drawn over it keeps the eye.
public enum LandColours {
  /// Where the land mask says water.
  public static let sea = RGBA(hex: 0xaac8e0)
  /// Where it says land.
  public static let land = RGBA(hex: 0xeeeadf)
  /// A pixel whose neighbour to the east or south is of the other kind.
  public static let coast = RGBA(hex: 0x4a5560)
  /// Inside the domain, for a cube without a land mask (or a cell whose mask is unknown).
  public static let unknown = RGBA(hex: 0xd8d8d8)
}
