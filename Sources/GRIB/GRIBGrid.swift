import GridGeometry

/// The horizontal grid of a GRIB message, as nwpcube needs it: its size, the latitude and
/// longitude of every point, and the map projection where one describes it.
///
/// **Cell order.** Cells are in the message's own value order, row-major: cell
/// `k = j · width + i` is the k-th value `GRIBFile.readValues` decodes, row `j` the j-th
/// row the message scans and `i` the i-th point along it. A message scanning north to
/// south (`jScansPositively` = 0, as GFS, IFS and ICON write global grids) gives row 0 at
/// the north; one scanning west to east gives column 0 at the west. That is the order the
/// CF path keeps for a regular grid: a GFS file converted to NetCDF has the same
/// descending latitudes and 0–360 longitudes, cell for cell.
///
/// **Coordinates.** Regular and Gaussian grids' longitudes follow the file's convention
/// (0–360 or −180–180; a longitude computed past 360 is brought back by a turn); rotated
/// and projected grids' are −180…180. Latitudes and longitudes are computed from the
/// grid keys, not taken from ecCodes' iterator: the first and last points and the count
/// (an increment's rounding in the file does not accumulate), Gaussian latitudes as the
/// roots of the Legendre polynomial, the rotation of a rotated grid, and the projection
/// on the file's sphere for Lambert, polar stereographic and Mercator grids, and on the
/// file's spheroid (Snyder's ellipsoidal formulas) for Lambert and Mercator grids on an
/// oblate earth, which get no projection.
public struct GRIBGrid: Sendable {
  /// `gridType`, as ecCodes names it.
  public let gridType: String
  /// Points along a row (`Ni`/`Nx`).
  public let width: Int
  /// Rows (`Nj`/`Ny`).
  public let height: Int
  /// Every cell's latitude, degrees north, in the cell order above.
  public let latitudes: [Float]
  /// Every cell's longitude, degrees east, in the cell order above.
  public let longitudes: [Float]
  /// The analytic projection of a Lambert conformal, polar stereographic or Mercator grid
  /// on a spherical earth that scans west to east and south to north (the order a
  /// `MapProjection` counts cells in, with x along rows and y along columns) and has one
  /// spacing in both directions, anchored on cell 0. nil otherwise: regular and Gaussian
  /// grids are located from their axes (`RegularLatLonLocator`, as the CF path does),
  /// and the others from their coordinates.
  public let projection: MapProjection?
  /// The shape of the earth the grid is defined on.
  public let earth: GRIBEarth
  /// How the grid's axes lie against east and north, and the projection's parameters:
  /// what turns grid-relative winds to the earth, and what a cube records.
  public let frame: Frame

  /// The grid types that are refused, and why.
  static let refused: [String: String] = [
    "reduced_gg":
      "a reduced (quasi-regular) Gaussian grid has rows of different lengths, which a cube's rectangular grid cannot hold",
    "reduced_ll":
      "a reduced latitude/longitude grid has rows of different lengths, which a cube's rectangular grid cannot hold",
    "reduced_rotated_gg":
      "a reduced (quasi-regular) Gaussian grid has rows of different lengths, which a cube's rectangular grid cannot hold",
    "unstructured_grid":
      "an unstructured grid (such as ICON's native triangles) has no rows and columns; remap it to a regular grid first",
    "sh": "spherical harmonics are coefficients, not values at points; transform them to a grid first",
    "rotated_sh": "spherical harmonics are coefficients, not values at points; transform them to a grid first",
  ]

  /// The grid of the message `handle` holds.
  init(_ handle: GRIBHandle, message: GRIBMessage) throws(GRIBError) {
    let gridType = message.gridType
    func fail(_ reason: String, key: String = "gridType") -> GRIBError {
      GRIBError(reason: reason, path: handle.path, message: handle.message, key: key)
    }
    if let why = Self.refused[gridType] { throw fail("\(gridType) is not supported: \(why)") }
    let supported = ["regular_ll", "regular_gg", "rotated_ll", "lambert", "polar_stereographic", "mercator"]
    guard supported.contains(gridType) else {
      throw fail(
        "\(gridType) is not supported: nwpcube reads \(supported.joined(separator: ", ")) grids")
    }
    guard let width = message.ni, let height = message.nj else {
      throw fail("\(gridType) without Ni and Nj", key: "Ni/Nj")
    }
    if let problem = GRIBLimits.problem(width: width, height: height) { throw fail(problem, key: "Ni/Nj") }
    guard width * height == message.numberOfDataPoints else {
      throw fail(
        "the grid's Ni × Nj = \(width) × \(height) = \(width * height) disagrees with its \(message.numberOfDataPoints) data points",
        key: "numberOfDataPoints")
    }
    let scanning = try Scanning(handle)
    self.gridType = gridType
    self.width = width
    self.height = height
    earth = message.earth
    let coordinates: Coordinates
    switch gridType {
    case "regular_ll", "regular_gg", "rotated_ll":
      coordinates = try Self.latitudeLongitude(
        handle, gridType: gridType, width: width, height: height, scanning: scanning)
    default:
      coordinates = try Self.projected(
        handle, gridType: gridType, width: width, height: height, scanning: scanning, earth: message.earth)
    }
    latitudes = coordinates.latitudes
    longitudes = coordinates.longitudes
    projection = coordinates.projection
    frame = coordinates.frame
  }

  /// What the grid-type readers produce.
  struct Coordinates {
    var latitudes: [Float]
    var longitudes: [Float]
    var projection: MapProjection?
    var frame: Frame = .latitudeLongitude
  }
}

extension GRIBFile {
  /// The grid of `message`, one of this file's: refused with an error naming the file, the
  /// message and the key when its `gridType` is not supported, its scanning mode is not
  /// one nwpcube honours, it is larger than `GRIBLimits` allow, or its keys describe no grid.
  public func grid(of message: GRIBMessage) throws(GRIBError) -> GRIBGrid {
    try withHandle(message) { handle throws(GRIBError) in try GRIBGrid(handle, message: message) }
  }
}
