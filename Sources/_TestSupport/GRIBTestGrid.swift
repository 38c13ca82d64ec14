import Foundation

/// A grid for `GRIBWriter`: the ecCodes sample it starts from and the grid keys set on it,
/// in the order ecCodes needs them (the grid type first, which changes the template).
///
/// GRIB2 stores longitudes from 0 to 360: ecCodes turns −10 into 350 when it encodes, so a
/// grid "in −180…180" is one whose first longitude is 180 or more and whose last is
/// smaller (the scan crosses the meridian it starts west of).
public struct GRIBTestGrid: Sendable {
  /// The ecCodes sample (`/usr/share/eccodes/samples/<sample>.tmpl`).
  public let sample: String
  /// Keys and values, set in this order.
  public let keys: [(String, GRIBKeyValue)]
  /// Points along a row (`Ni`, `Nx`) and rows (`Nj`, `Ny`).
  public let width: Int
  public let height: Int
  /// Whether the file marks u and v as relative to the grid (`resolutionAndComponentFlags`
  /// bit 5, as NAM and HRRR write them).
  public var gridRelativeWinds = false

  /// NCEP's and ECMWF's sphere (shape 6, 6,371,229 m).
  static let sphere: [(String, GRIBKeyValue)] = [("shapeOfTheEarth", .integer(6))]

  /// A `regular_ll` grid from its first to its last point. The scanning directions follow
  /// from the ends: rows south to north when the last latitude is north of the first, and
  /// columns westward when `westward` (then the last longitude is west of the first).
  public static func regularLatLon(
    first: (latitude: Double, longitude: Double), last: (latitude: Double, longitude: Double), width: Int,
    height: Int, westward: Bool = false
  ) -> GRIBTestGrid {
    var span = last.longitude - first.longitude
    if westward { span = -span }
    if span < 0 { span += 360 }
    let keys: [(String, GRIBKeyValue)] = [
      ("Ni", .integer(width)), ("Nj", .integer(height)),
      ("iScansNegatively", .integer(westward ? 1 : 0)),
      ("jScansPositively", .integer(last.latitude > first.latitude ? 1 : 0)),
      ("latitudeOfFirstGridPointInDegrees", .real(first.latitude)),
      ("longitudeOfFirstGridPointInDegrees", .real(first.longitude)),
      ("latitudeOfLastGridPointInDegrees", .real(last.latitude)),
      ("longitudeOfLastGridPointInDegrees", .real(last.longitude)),
      ("iDirectionIncrementInDegrees", .real(span / Double(max(width - 1, 1)))),
      ("jDirectionIncrementInDegrees", .real(abs(last.latitude - first.latitude) / Double(max(height - 1, 1)))),
    ]
    return GRIBTestGrid(sample: "regular_ll_sfc_grib2", keys: keys, width: width, height: height)
  }

  /// A `regular_gg` grid of `n` rows per hemisphere on `latitudes` (all `2n` Gaussian
  /// latitudes for a global grid, or a run of them for a regional one), scanning rows in
  /// their order (south to north when they ascend), `width` points along each row from
  /// `firstLongitude`, `increment` degrees apart (by default once round the globe).
  public static func regularGaussian(
    n: Int, width: Int, latitudes: [Double], firstLongitude: Double = 0, increment: Double? = nil
  ) -> GRIBTestGrid {
    let step = increment ?? 360 / Double(width)
    let last = (firstLongitude + step * Double(width - 1)).truncatingRemainder(dividingBy: 360)
    let keys: [(String, GRIBKeyValue)] = [
      ("N", .integer(n)), ("Ni", .integer(width)), ("Nj", .integer(latitudes.count)),
      ("jScansPositively", .integer((latitudes.last ?? 0) > (latitudes.first ?? 0) ? 1 : 0)),
      ("latitudeOfFirstGridPointInDegrees", .real(latitudes.first ?? 0)),
      ("longitudeOfFirstGridPointInDegrees", .real(firstLongitude)),
      ("latitudeOfLastGridPointInDegrees", .real(latitudes.last ?? 0)),
      ("longitudeOfLastGridPointInDegrees", .real(last)),
      ("iDirectionIncrementInDegrees", .real(step)),
    ]
    return GRIBTestGrid(sample: "regular_gg_sfc_grib2", keys: keys, width: width, height: latitudes.count)
  }

  /// A `lambert` conformal grid tangent or secant at `latin1`/`latin2`, oriented along
  /// `lov`, from its south-west point, scanning east then north.
  public static func lambert(
    first: (latitude: Double, longitude: Double), width: Int, height: Int, spacing: Double, latin1: Double,
    latin2: Double, lov: Double
  ) -> GRIBTestGrid {
    let keys: [(String, GRIBKeyValue)] =
      [("gridType", .text("lambert"))] + sphere + [
        ("Nx", .integer(width)), ("Ny", .integer(height)),
        ("latitudeOfFirstGridPointInDegrees", .real(first.latitude)),
        ("longitudeOfFirstGridPointInDegrees", .real(positive(first.longitude))),
        ("LaDInDegrees", .real(latin1)), ("LoVInDegrees", .real(positive(lov))),
        ("Latin1InDegrees", .real(latin1)), ("Latin2InDegrees", .real(latin2)),
        ("DxInMetres", .real(spacing)), ("DyInMetres", .real(spacing)),
        ("iScansNegatively", .integer(0)), ("jScansPositively", .integer(1)),
      ]
    return GRIBTestGrid(sample: "GRIB2", keys: keys, width: width, height: height)
  }

  /// A `polar_stereographic` grid true at `lad`, over the north pole (or the south when
  /// `south`), oriented along `orientation`, from its first point, scanning east then north.
  public static func polarStereographic(
    first: (latitude: Double, longitude: Double), width: Int, height: Int, spacing: Double, lad: Double,
    orientation: Double, south: Bool = false
  ) -> GRIBTestGrid {
    let keys: [(String, GRIBKeyValue)] =
      [("gridType", .text("polar_stereographic"))] + sphere + [
        ("Nx", .integer(width)), ("Ny", .integer(height)),
        ("latitudeOfFirstGridPointInDegrees", .real(first.latitude)),
        ("longitudeOfFirstGridPointInDegrees", .real(positive(first.longitude))),
        ("LaDInDegrees", .real(lad)), ("orientationOfTheGridInDegrees", .real(positive(orientation))),
        ("projectionCentreFlag", .integer(south ? 128 : 0)),
        ("DxInMetres", .real(spacing)), ("DyInMetres", .real(spacing)),
        ("iScansNegatively", .integer(0)), ("jScansPositively", .integer(1)),
      ]
    return GRIBTestGrid(sample: "GRIB2", keys: keys, width: width, height: height)
  }

  /// A `mercator` grid true at `lad`, from its south-west point, scanning east then
  /// north; the last point is computed on the sphere of 6,371,229 m, as the grid keys
  /// require it.
  public static func mercator(
    first: (latitude: Double, longitude: Double), width: Int, height: Int, spacing: Double, lad: Double
  ) -> GRIBTestGrid {
    let radius = 6_371_229.0
    let scale = radius * cos(lad * .pi / 180)
    let y0 = scale * log(tan(.pi / 4 + first.latitude * .pi / 360))
    let lastLatitude = (2 * atan(exp((y0 + spacing * Double(height - 1)) / scale)) - .pi / 2) * 180 / .pi
    let lastLongitude = first.longitude + spacing * Double(width - 1) / scale * 180 / .pi
    let keys: [(String, GRIBKeyValue)] =
      [("gridType", .text("mercator"))] + sphere + [
        ("Ni", .integer(width)), ("Nj", .integer(height)),
        ("latitudeOfFirstGridPointInDegrees", .real(first.latitude)),
        ("longitudeOfFirstGridPointInDegrees", .real(positive(first.longitude))),
        ("latitudeOfLastGridPointInDegrees", .real(lastLatitude)),
        ("longitudeOfLastGridPointInDegrees", .real(positive(lastLongitude))),
        ("LaDInDegrees", .real(lad)), ("orientationOfTheGridInDegrees", .real(0)),
        ("DiInMetres", .real(spacing)), ("DjInMetres", .real(spacing)),
        ("iScansNegatively", .integer(0)), ("jScansPositively", .integer(1)),
      ]
    return GRIBTestGrid(sample: "GRIB2", keys: keys, width: width, height: height)
  }

  /// A `rotated_ll` grid: a regular grid in the frame whose south pole is `southPole`,
  /// from its first to its last point (rotated coordinates), scanning east then north.
  public static func rotatedLatLon(
    first: (latitude: Double, longitude: Double), last: (latitude: Double, longitude: Double), width: Int,
    height: Int, southPole: (latitude: Double, longitude: Double)
  ) -> GRIBTestGrid {
    let regular = regularLatLon(first: first, last: last, width: width, height: height)
    let keys =
      regular.keys + [
        ("latitudeOfSouthernPoleInDegrees", .real(southPole.latitude)),
        ("longitudeOfSouthernPoleInDegrees", .real(positive(southPole.longitude))),
        ("angleOfRotationInDegrees", .real(0)),
      ]
    return GRIBTestGrid(sample: "rotated_ll_sfc_grib2", keys: keys, width: width, height: height)
  }

  /// The same grid, with its winds marked relative to the grid.
  public func withGridRelativeWinds(_ relative: Bool = true) -> GRIBTestGrid {
    var grid = self
    grid.gridRelativeWinds = relative
    return grid
  }

  /// The same grid on the earth GRIB2 code table 3.2's `shape` describes (2 IAU 1965,
  /// 4 GRS 80, 5 WGS 84, 9 Airy 1830 …), or, for shape 7, on the spheroid of semi-axes
  /// `axes` in metres.
  public func onEarth(shape: Int, axes: (major: Int, minor: Int)? = nil) -> GRIBTestGrid {
    var earth: [(String, GRIBKeyValue)] = [("shapeOfTheEarth", .integer(shape))]
    if let axes {
      earth += [
        ("scaleFactorOfMajorAxisOfOblateSpheroidEarth", .integer(0)),
        ("scaledValueOfMajorAxisOfOblateSpheroidEarth", .integer(axes.major)),
        ("scaleFactorOfMinorAxisOfOblateSpheroidEarth", .integer(0)),
        ("scaledValueOfMinorAxisOfOblateSpheroidEarth", .integer(axes.minor)),
      ]
    }
    var grid = GRIBTestGrid(
      sample: sample, keys: keys.flatMap { $0.0 == "shapeOfTheEarth" ? earth : [$0] }, width: width, height: height)
    grid.gridRelativeWinds = gridRelativeWinds
    return grid
  }

  /// The same grid with `key` set to `value` (added after the others when it has none).
  public func with(_ key: String, _ value: GRIBKeyValue) -> GRIBTestGrid {
    var grid = self
    if let index = keys.firstIndex(where: { $0.0 == key }) {
      var changed = keys
      changed[index].1 = value
      grid = GRIBTestGrid(sample: sample, keys: changed, width: width, height: height)
    } else {
      grid = GRIBTestGrid(sample: sample, keys: keys + [(key, value)], width: width, height: height)
    }
    grid.gridRelativeWinds = gridRelativeWinds
    return grid
  }

  /// A longitude in 0…360, as the projected templates store it (unsigned).
  static func positive(_ longitude: Double) -> Double { longitude < 0 ? longitude + 360 : longitude }
}
