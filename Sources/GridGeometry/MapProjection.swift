import Foundation

/// The map projection of a WRF or MM5 grid, computed as WRF's `llxy` routines and
/// wrf-python's `ll_to_xy` compute it: on a sphere of 6370 km, from the model's projection
/// parameters, with the grid anchored on its own first mass point.
///
/// Grid coordinates are fractional cell indices counted from 0: (0, 0) is cell (0, 0), x
/// grows with i (west→east) and y with j (south→north), one unit per cell.
///
/// The anchor is cell (0, 0)'s stored latitude/longitude, never CEN_LAT/CEN_LON: a file cut
/// down from a larger domain keeps the larger domain's centre in its attributes, while its
/// first cell is its own. The projection itself only claims to describe the grid; a locator
/// uses it after `largestMismatch(on:)` has checked it against every cell.
///
/// A final class of constants rather than a struct: a locator that held the struct read its
/// 184 bytes out onto the stack (and retained its tables) on every lookup.
public final class MapProjection: Sendable {
  /// A projection by WRF's `MAP_PROJ` code. MM5's `map_proj_code` uses the same numbers for
  /// the three it has.
  public enum Kind: Int, Sendable, CaseIterable {
    /// Lambert conformal conic with one or two true latitudes, either hemisphere.
    case lambertConformal = 1
    /// Polar stereographic, true at TRUELAT1, over either pole.
    case polarStereographic = 2
    /// Mercator, true at TRUELAT1.
    case mercator = 3
    /// Latitude-longitude (WRF's "Cassini"), with the pole rotated by POLE_LAT/STAND_LON.
    case latitudeLongitude = 6

    /// The projection's name, for messages.
    public var name: String {
      switch self {
      case .lambertConformal: "Lambert conformal"
      case .polarStereographic: "polar stereographic"
      case .mercator: "Mercator"
      case .latitudeLongitude: "latitude-longitude"
      }
    }
  }

  /// How plane coordinates are computed. Lambert and polar stereographic share one form (a
  /// polar stereographic map is the cone with n = 1); a payload-free tag keeps the lookup
  /// path's switch on a byte.
  @usableFromInline enum Form: UInt8, Sendable { case conic, mercator, cylindrical, rotated }

  /// WRF's `EARTH_RADIUS_M`: every WRF and MM5 projection is computed on this sphere.
  public static let earthRadius = 6_370_000.0

  /// The grid spacings (DX, metres) a projection accepts: from a metre, below any
  /// large-eddy run, to a little more than half the Earth's circumference, as a cube's
  /// nominal spacing (`CubeLimits.gridSpacing`). Outside it the constants lose all meaning
  /// (and a spacing near 0 makes them infinite).
  public static let gridSpacings: ClosedRange<Double> = 1...21_000_000

  /// The projection.
  public let kind: Kind
  /// The cells in one turn of longitude along x, for the projections whose x wraps round
  /// (Mercator and latitude-longitude); infinity for the others.
  public let columnsPerTurn: Double

  @usableFromInline let form: Form
  /// Conic: the cone factor n (1 for polar stereographic) and ±1 for the cone's hemisphere.
  @usableFromInline let cone: Double
  @usableFromInline let hemisphere: Double
  /// Conic: ρ = scale · (cos φ / (1 + h·sin φ))ⁿ cells from the pole. Mercator: cells per
  /// radian of longitude and of isometric latitude. Cylindrical and rotated: cells per degree.
  @usableFromInline let scale: Double
  /// What longitudes are measured from: STAND_LON for conic grids, the first cell's longitude
  /// for Mercator and latitude-longitude ones, so that x wraps half a turn either side of it.
  @usableFromInline let referenceLongitude: Double
  /// Rotated: the computational frame's axes, turned about its pole so that the first cell
  /// has computational longitude 0 (x is then an atan2 with no wrap to apply).
  @usableFromInline let axisX: UnitVector
  @usableFromInline let axisY: UnitVector
  @usableFromInline let axisZ: UnitVector
  /// The plane coordinates of the first cell, which the grid coordinates are measured from.
  @usableFromInline let originX: Double
  @usableFromInline let originY: Double
  @usableFromInline let sines: DegreeSineTable
  /// Conic: ρ, and Mercator: the ordinate, in cells by latitude. Rotated: y in cells by the
  /// point's component along the computational pole (an asin).
  @usableFromInline let table: HermiteTable
  /// Rotated: x in cells by the ratio of the point's components along the computational
  /// axes (an atan). Empty for the others.
  @usableFromInline let secondTable: HermiteTable

  /// Everything but the anchor: worked out once, and shared by the unanchored projection
  /// that finds where the first cell is and by the anchored one.
  private struct Setup {
    let kind: Kind
    let constants: Constants
    let referenceLongitude: Double
    let axes: (x: UnitVector, y: UnitVector, z: UnitVector)
    let tables: (HermiteTable, HermiteTable)
    let sines: DegreeSineTable
  }

  private init(_ setup: Setup, origin: (x: Double, y: Double)) {
    kind = setup.kind
    form = setup.constants.form
    cone = setup.constants.cone
    hemisphere = setup.constants.hemisphere
    scale = setup.constants.scale
    columnsPerTurn = setup.constants.columnsPerTurn
    referenceLongitude = setup.referenceLongitude
    (axisX, axisY, axisZ) = setup.axes
    (table, secondTable) = setup.tables
    sines = setup.sines
    (originX, originY) = origin
  }

  /// A projection from WRF's parameters, anchored at `origin`, the latitude/longitude of
  /// the grid's cell (0, 0).
  ///
  /// - `truelat2` may be NaN or beyond ±90 for a single true latitude, as in WRF.
  /// - `poleLatitude` is the latitude of the geographic North Pole in the rotated frame, as
  ///   WRF's POLE_LAT; ±90 or NaN means no rotation. The rotated frame's pole is then at
  ///   (POLE_LAT, 180 − STAND_LON). POLE_LON only shifts computational longitudes by a
  ///   constant, which anchoring removes, so it is not needed.
  /// - `gridSpacing` is DX in metres, within `gridSpacings`; latitude-longitude grids take their spacing in
  ///   degrees from it on WRF's sphere, in both directions.
  ///
  /// Throws `projectionRejected` naming the parameter that describes no projection.
  public convenience init(
    kind: Kind, truelat1: Double, truelat2: Double, standardLongitude: Double, poleLatitude: Double,
    gridSpacing: Double, origin: (latitude: Double, longitude: Double)
  ) throws(GeometryError) {
    guard gridSpacing.isFinite, gridSpacing > 0 else {
      throw .projectionRejected("DX \(gridSpacing) is not a positive grid spacing")
    }
    guard Self.gridSpacings.contains(gridSpacing) else {
      throw .projectionRejected(
        "DX \(gridSpacing) m is not in \(Int(Self.gridSpacings.lowerBound))…\(Int(Self.gridSpacings.upperBound)) m")
    }
    guard abs(origin.latitude) <= 90, abs(origin.longitude) <= 360 else {
      throw .projectionRejected("the first cell \(origin.latitude), \(origin.longitude) is not a position on the globe")
    }
    let parameters = try Self.parameters(
      kind: kind, truelat1: truelat1, truelat2: truelat2, standardLongitude: standardLongitude,
      poleLatitude: poleLatitude, gridSpacing: gridSpacing)
    // The computational pole is at (POLE_LAT, 180 − STAND_LON); x points from it towards
    // the computational meridian through geographic longitude 180 − STAND_LON, y east.
    let poleLongitude = (180 - standardLongitude) * .pi / 180
    let poleLatitude = poleLatitude * .pi / 180
    let equator = UnitVector(x: cos(poleLongitude), y: sin(poleLongitude), z: 0)
    let east = UnitVector(x: -sin(poleLongitude), y: cos(poleLongitude), z: 0)
    let up = UnitVector(x: 0, y: 0, z: 1)
    var axisX = equator.scaled(sin(poleLatitude)).minus(up.scaled(cos(poleLatitude)))
    var axisY = east
    let axisZ = equator.scaled(cos(poleLatitude)).plus(up.scaled(sin(poleLatitude)))
    if parameters.form == .rotated {
      let first = UnitVector(latitude: origin.latitude, longitude: origin.longitude)
      let turn = atan2(first.dot(axisY), first.dot(axisX))
      (axisX, axisY) = (
        axisX.scaled(cos(turn)).plus(axisY.scaled(sin(turn))), axisY.scaled(cos(turn)).minus(axisX.scaled(sin(turn)))
      )
    }
    let tables: (HermiteTable, HermiteTable)
    let cellsPerRadian = parameters.scale * 180 / .pi
    switch parameters.form {
    case .conic, .mercator:
      // Every 1/32°: the interpolation error h⁴·f⁗/384 is about 10⁻¹⁵ of f where f is smooth.
      tables.0 = HermiteTable(-90...90, nodesPerUnit: 32) { Self.latitudeTerm($0, constants: parameters) }
      tables.1 = HermiteTable()
    case .rotated:
      // asin(z) over the sphere and atan(t) to ±76° of the first cell, both in cells; the
      // spacings keep the error under 10⁻¹⁰ cell on a 1 km grid.
      tables.0 = HermiteTable(-1...1, nodesPerUnit: 2048) {
        (asin($0) * cellsPerRadian, cellsPerRadian / (1 - $0 * $0).squareRoot())
      }
      tables.1 = HermiteTable(-4...4, nodesPerUnit: 1024) {
        (atan($0) * cellsPerRadian, cellsPerRadian / (1 + $0 * $0))
      }
    case .cylindrical:
      tables = (HermiteTable(), HermiteTable())
    }
    let setup = Setup(
      kind: kind, constants: parameters,
      referenceLongitude: Self.wrapped(parameters.form == .conic ? standardLongitude : origin.longitude),
      axes: (axisX, axisY, axisZ), tables: tables, sines: DegreeSineTable())
    guard
      let anchor = MapProjection(setup, origin: (0, 0)).gridCoordinates(
        latitude: origin.latitude, longitude: origin.longitude),
      anchor.x.isFinite, anchor.y.isFinite
    else {
      throw .projectionRejected(
        "the first cell \(origin.latitude), \(origin.longitude) is at the projection's singular point")
    }
    self.init(setup, origin: anchor)
  }

  /// The projection a WRF `MAP_PROJ` code and parameters describe, anchored on `grid`'s
  /// cell (0, 0). `parameters` are in the order of a cube header: TRUELAT1, TRUELAT2,
  /// STAND_LON, CEN_LAT, CEN_LON, POLE_LAT, POLE_LON, DX (NaN where absent); CEN_LAT and
  /// CEN_LON are not used (see the type's discussion), nor is POLE_LON.
  public convenience init(wrfCode: Int, parameters: [Double], grid: CurvilinearGrid) throws(GeometryError) {
    guard let kind = Kind(rawValue: wrfCode) else {
      throw .projectionRejected("MAP_PROJ \(wrfCode) is not a projection with an analytic mapping (1, 2, 3 or 6)")
    }
    guard parameters.count >= 8 else {
      throw .projectionRejected("expected 8 projection parameters, got \(parameters.count)")
    }
    try self.init(
      kind: kind, truelat1: parameters[0], truelat2: parameters[1], standardLongitude: parameters[2],
      poleLatitude: parameters[5], gridSpacing: parameters[7],
      origin: (Double(grid.latitudes[0]), Double(grid.longitudes[0])))
  }

  /// The fractional grid coordinates of a point: what wrf-python's `ll_to_xy(…,
  /// as_int=False)` gives for the same grid. Longitudes on Mercator and latitude-longitude
  /// grids are taken within half a turn of the first cell's, as WRF's Mercator does.
  ///
  /// nil for latitudes outside −90…90, longitudes outside −360…360 and NaN. At the pole
  /// opposite a conic grid's hemisphere, and at Mercator's poles, the result is not finite.
  /// Always inlined, so that a locator's lookup makes no call for it.
  @inlinable @inline(__always)
  public func gridCoordinates(latitude: Double, longitude: Double) -> (x: Double, y: Double)? {
    guard abs(latitude) <= 90, abs(longitude) <= 360 else { return nil }
    switch form {
    case .conic:
      guard let theta = sines.sinCos(degrees: cone * Self.wrapped(longitude - referenceLongitude)) else { return nil }
      let rho = table.value(at: latitude) ?? latitudeTerm(latitude)
      return (rho * theta.sin - originX, -hemisphere * rho * theta.cos - originY)
    case .mercator:
      let ordinate = table.value(at: latitude) ?? latitudeTerm(latitude)
      return (Self.wrapped(longitude - referenceLongitude) * (scale * .pi / 180) - originX, ordinate - originY)
    case .cylindrical:
      return (Self.wrapped(longitude - referenceLongitude) * scale - originX, latitude * scale - originY)
    case .rotated:
      return rotatedGridCoordinates(latitude: latitude, longitude: longitude)
    }
  }

  /// `gridCoordinates` on a rotated-pole grid: the computational longitude atan2(y, x) and
  /// latitude asin(z) of the point, from the tables where they answer. (Written inside the
  /// switch, the whole of `gridCoordinates` stopped being inlined.)
  @inlinable @inline(__always)
  func rotatedGridCoordinates(latitude: Double, longitude: Double) -> (x: Double, y: Double)? {
    guard let point = sines.unitVector(latitude: latitude, longitude: longitude) else { return nil }
    let (x, y, z) = (point.dot(axisX), point.dot(axisY), min(max(point.dot(axisZ), -1), 1))
    let cellsPerRadian = scale * 180 / .pi
    let column = (x > 0 ? secondTable.value(at: y / x) : nil) ?? atan2(y, x) * cellsPerRadian
    let row = table.value(at: z) ?? asin(z) * cellsPerRadian
    return (column - originX, row - originY)
  }

  /// ρ (conic) or the ordinate (Mercator) at a latitude, in cells, computed directly: where
  /// the latitude table does not answer.
  @usableFromInline
  func latitudeTerm(_ latitude: Double) -> Double {
    Self.latitudeTerm(
      latitude,
      constants: Constants(
        form: form, cone: cone, hemisphere: hemisphere, scale: scale, columnsPerTurn: columnsPerTurn)
    ).value
  }

  /// ρ or the ordinate in cells at a latitude, and its derivative per degree.
  static func latitudeTerm(_ latitude: Double, constants: Constants) -> (value: Double, derivative: Double) {
    let phi = latitude * .pi / 180
    let (sinPhi, cosPhi) = (sin(phi), cos(phi))
    switch constants.form {
    case .mercator:
      // The isometric latitude ln tan(45° + φ/2), odd in φ, from the side that does not
      // cancel; dψ/dφ = 1/cos φ.
      let psi = sinPhi >= 0 ? log((1 + sinPhi) / cosPhi) : -log((1 - sinPhi) / cosPhi)
      return (constants.scale * psi, constants.scale / cosPhi * .pi / 180)
    default:
      // ρ = scale · tan(45° − h·φ/2)ⁿ, the tangent in whichever of its two exact forms does
      // not cancel; dρ/dφ = −h·n·ρ / cos φ.
      let hs = constants.hemisphere * sinPhi
      let ratio = hs >= 0 ? cosPhi / (1 + hs) : (1 - hs) / cosPhi
      let rho = constants.scale * (constants.cone == 1 ? ratio : pow(ratio, constants.cone))
      return (rho, -constants.hemisphere * constants.cone * rho / cosPhi * .pi / 180)
    }
  }

  /// The latitude and longitude (−180…180) at fractional grid coordinates: the inverse of
  /// `gridCoordinates(latitude:longitude:)`, as wrf-python's `xy_to_ll`.
  public func coordinates(x: Double, y: Double) -> (latitude: Double, longitude: Double) {
    let degrees = 180 / Double.pi
    switch form {
    case .conic:
      let planeX = x + originX
      let towardsEquator = -hemisphere * (y + originY)
      let rho = (planeX * planeX + towardsEquator * towardsEquator).squareRoot()
      let longitude = referenceLongitude + atan2(planeX, towardsEquator) / cone * degrees
      // ρ/scale = tan(45° − h·φ/2).
      let latitude = hemisphere * (90 - 2 * atan(pow(rho / scale, 1 / cone)) * degrees)
      return (latitude, Self.wrapped(longitude))
    case .mercator:
      let psi = (y + originY) / scale
      return (atan(sinh(psi)) * degrees, Self.wrapped(referenceLongitude + (x + originX) / scale * degrees))
    case .cylindrical:
      return ((y + originY) / scale, Self.wrapped(referenceLongitude + (x + originX) / scale))
    case .rotated:
      let phi = (y + originY) / scale / degrees
      let lambda = (x + originX) / scale / degrees
      let point = axisX.scaled(cos(phi) * cos(lambda)).plus(axisY.scaled(cos(phi) * sin(lambda)))
        .plus(axisZ.scaled(sin(phi)))
      return (point.latitude, point.longitude)
    }
  }

  /// The farthest, in cells, that the mapping puts any of the grid's stored coordinates from
  /// its own cell, and that cell: how well the projection describes the grid. Infinity when
  /// some cell's coordinates do not map at all. On Mercator and latitude-longitude grids x
  /// is compared modulo a turn, so that a grid may extend more than half a turn from its
  /// first cell.
  public func largestMismatch(on grid: CurvilinearGrid) -> (cells: Double, i: Int, j: Int) {
    cellImages(on: grid).mismatch
  }

  /// An angle in degrees within −180…180 (180 itself may come out as −180); NaN stays NaN.
  /// Angles within ±900°, all the lookup path sees, take no call to libm.
  @inlinable @inline(__always)
  static func wrapped(_ degrees: Double) -> Double {
    guard abs(degrees) <= 900 else { return farWrapped(degrees) }
    // (degrees + 900) / 360 is positive, so truncation is the floor.
    let turns: Int = Int((degrees + 900) * (1.0 / 360)) - 2
    return degrees - 360 * Double(turns)
  }

  /// `wrapped` for angles beyond ±900° and NaN, off the lookup path.
  @usableFromInline
  static func farWrapped(_ degrees: Double) -> Double {
    guard degrees.isFinite else { return .nan }
    return wrapped(degrees.truncatingRemainder(dividingBy: 360))
  }
}
