import GridGeometry
import NetCDF
import SampleRun

/// The real sample grids with the projection parameters of their global attributes, for
/// tests of the analytic mappings.
public enum GridFiles {
  /// A WRF file's grid and its MAP_PROJ with TRUELAT1, TRUELAT2, STAND_LON, CEN_LAT, CEN_LON,
  /// POLE_LAT, POLE_LON and DX, as ingest stores them in a cube.
  public static func wrf(_ path: String) throws -> (grid: CurvilinearGrid, code: Int, parameters: [Double]) {
    let file = try NCFile.open(path)
    defer { file.close() }
    let attributes = file.globalAttributes
    let parameters = ["TRUELAT1", "TRUELAT2", "STAND_LON", "CEN_LAT", "CEN_LON", "POLE_LAT", "POLE_LON", "DX"].map {
      attributes[$0]?.number ?? .nan
    }
    return (try WRFFixture.grid(path), Int(attributes["MAP_PROJ"]?.number ?? 0), parameters)
  }

  /// The real MM5 domain (NCAR's `mm5_d2_terrain.nc`): `lat`/`lon(x_cross, y_cross)` with
  /// x_cross running west→east, turned into a west–east-fastest grid of 117 × 78 cells.
  ///
  /// Its Lambert parameters are the `lambert_*` attributes (true latitudes 60 and 30, the
  /// centre longitude 26 as standard longitude). The file gives no grid spacing; the domain
  /// is MM5's 27 km nest (its cells are 27.0 km apart in the projection plane).
  public static func mm5Geometry() throws -> (grid: CurvilinearGrid, code: Int, parameters: [Double]) {
    let file = try NCFile.open(SampleFiles.grid("mm5/mm5_d2_terrain.nc"))
    defer { file.close() }
    let shape = try file.variable("lat").shape
    let (columns, rows) = (shape[0], shape[1])
    let latitudes = try file.readFloats("lat", start: [0, 0], count: shape)
    let longitudes = try file.readFloats("lon", start: [0, 0], count: shape)
    // Stored (i, j) with j fastest; a grid wants j · width + i.
    let order = (0..<(columns * rows)).map { cell in (cell % columns) * rows + cell / columns }
    let attributes = file.globalAttributes
    let parameters = [
      attributes["lambert_true_lat1"]?.number ?? .nan, attributes["lambert_true_lat2"]?.number ?? .nan,
      attributes["lambert_center_lon"]?.number ?? .nan, .nan, .nan, .nan, .nan, 27_000,
    ]
    let grid = try CurvilinearGrid(
      width: columns, height: rows, latitudes: order.map { latitudes[$0] }, longitudes: order.map { longitudes[$0] })
    return (grid, 1, parameters)
  }

  /// The generated MM5 sample's cross points (`latitcrs`/`longicrs`) with its
  /// `map_proj_code`, `stdlat_1`, `stdlat_2`, `stdlon` and `grid_ds`, read as the MM5
  /// convention reads them.
  public static func mm5Sample() throws -> (grid: CurvilinearGrid, code: Int, parameters: [Double]) {
    let directory = SampleFiles.temporaryDirectory("mm5-sample")
    defer { SampleFiles.remove(directory) }
    var spec = SampleRunSpec.portugal9km
    spec.hours = 0
    try SampleRunGenerator.writeMM5(spec, to: "\(directory)/mm5.nc")
    let file = try NCFile.open("\(directory)/mm5.nc")
    defer { file.close() }
    let shape = try file.variable("latitcrs").shape
    let grid = try CurvilinearGrid(
      width: shape[1], height: shape[0], latitudes: try file.readFloats("latitcrs", start: [0, 0], count: shape),
      longitudes: try file.readFloats("longicrs", start: [0, 0], count: shape))
    let scalar = { (name: String) in try file.readUnpacked(name).first ?? .nan }
    let parameters = [
      try scalar("stdlat_1"), try scalar("stdlat_2"), try scalar("stdlon"), .nan, .nan, .nan, .nan,
      try scalar("grid_ds") * 1000,
    ]
    return (grid, Int(try scalar("map_proj_code")), parameters)
  }
}
