import Foundation

/// Spherical Web Mercator (EPSG:3857) as XYZ tiles use it: the pixel centres of a tile as
/// latitudes (one per row) and longitudes (one per column), since a row of a Mercator tile
/// is one parallel and a column one meridian.
public enum WebMercator {
  /// Pixels along a tile's side.
  public static let tileSize = 256
  /// The latitude where Web Mercator's square world ends, degrees.
  public static let maximumLatitude = 85.051_128_779_806_59

  /// The latitude of a point `row` pixels (fractional) from the top of the world at zoom
  /// `z`, degrees.
  public static func latitude(worldPixelRow row: Double, zoom z: Int) -> Double {
    let n = Double(tileSize) * Double(1 << z)
    return atan(sinh(Double.pi * (1 - 2 * row / n))) * 180 / Double.pi
  }

  /// The longitude of a point `column` pixels (fractional) from the antimeridian at zoom
  /// `z`, degrees east in −180…180.
  public static func longitude(worldPixelColumn column: Double, zoom z: Int) -> Double {
    let n = Double(tileSize) * Double(1 << z)
    return column / n * 360 - 180
  }

  /// The world pixel (fractional column, row) of a latitude and longitude at zoom `z`: the
  /// inverse of the two above, for finding the tile and pixel of a point.
  public static func worldPixel(latitude: Double, longitude: Double, zoom z: Int) -> (column: Double, row: Double) {
    let n = Double(tileSize) * Double(1 << z)
    let clamped = max(-maximumLatitude, min(maximumLatitude, latitude))
    let phi = clamped * Double.pi / 180
    let row = (1 - log(tan(phi) + 1 / cos(phi)) / Double.pi) / 2 * n
    return ((longitude + 180) / 360 * n, row)
  }

  /// The latitudes of the centres of a tile's rows and one more (the next tile's first),
  /// north to south.
  static func rowLatitudes(_ tile: TileAddress, into output: inout [Double]) {
    output.removeAll(keepingCapacity: true)
    for row in 0...tileSize {
      output.append(latitude(worldPixelRow: Double(tile.y * tileSize + row) + 0.5, zoom: tile.z))
    }
  }

  /// The longitudes of the centres of a tile's columns and one more, west to east.
  static func columnLongitudes(_ tile: TileAddress, into output: inout [Double]) {
    output.removeAll(keepingCapacity: true)
    for column in 0...tileSize {
      var longitude = longitude(worldPixelColumn: Double(tile.x * tileSize + column) + 0.5, zoom: tile.z)
      // The column past the last tile of a row wraps round to the first.
      if longitude > 180 { longitude -= 360 }
      output.append(longitude)
    }
  }

  /// The tile's extent: north and south edges (latitude), west and east edges (longitude).
  public static func bounds(_ tile: TileAddress) -> (south: Double, west: Double, north: Double, east: Double) {
    let top = Double(tile.y * tileSize)
    let left = Double(tile.x * tileSize)
    return (
      latitude(worldPixelRow: top + Double(tileSize), zoom: tile.z), longitude(worldPixelColumn: left, zoom: tile.z),
      latitude(worldPixelRow: top, zoom: tile.z), longitude(worldPixelColumn: left + Double(tileSize), zoom: tile.z)
    )
  }
}
